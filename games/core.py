"""Shared types for every engine: errors, seeding, estimates with intervals, match results,
and the declared-parameter protocol that the tuning layer searches over.

Everything here is game-agnostic and imports numpy only.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from games.errors import (  # noqa: F401 - re-exported for engines
    MAX_SEED,
    InputError,
    check_seed,
    parse_param_assignments,
)
from games.rng import mix_array

Z95 = 1.959963984540054  # two-sided 95% normal quantile


# InputError, MAX_SEED, check_seed and parse_param_assignments live in games.errors
# (plain Python, for the command line) and are re-exported here.

_splitmix64 = mix_array  # game seeds: SplitMix64 over (root, game index)


def game_seeds(seed: int, count: int, start: int = 0) -> np.ndarray:
    """Seeds of games ``start .. start+count-1`` of a run with root ``seed`` (uint64 array).

    Game i's seed depends only on (seed, i), never on how games are split across workers,
    so a run gives identical results whatever the number of jobs.
    """
    if count < 0 or start < 0:
        raise InputError("game counts and offsets must be non-negative")
    root = _splitmix64(np.array([np.uint64(seed & 0xFFFFFFFFFFFFFFFF)], dtype=np.uint64))[0]
    idx = np.arange(start, start + count, dtype=np.uint64)
    with np.errstate(over="ignore"):
        return _splitmix64(idx * np.uint64(0xD1B54A32D192ED03) ^ root)


def game_rng(seed: int, index: int) -> np.random.Generator:
    """The numpy Generator of game ``index`` in a run with root ``seed``."""
    return np.random.Generator(np.random.PCG64(int(game_seeds(seed, 1, index)[0])))


def seed_blocks(total: int, block: int) -> list[tuple[int, int]]:
    """Split ``total`` games into contiguous (start, count) blocks of at most ``block`` games."""
    if block <= 0:
        raise InputError("block size must be positive")
    return [(s, min(block, total - s)) for s in range(0, total, block)]


# --------------------------------------------------------------------------- estimates


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its standard error and a normal 95% interval."""

    mean: float
    stderr: float
    n: int

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.mean - Z95 * self.stderr, self.mean + Z95 * self.stderr)

    @classmethod
    def from_samples(cls, samples: Sequence[float] | np.ndarray) -> Estimate:
        x = np.asarray(samples, dtype=float)
        n = int(x.size)
        if n == 0:
            return cls(float("nan"), float("nan"), 0)
        sd = float(x.std(ddof=1)) if n > 1 else 0.0
        return cls(float(x.mean()), sd / math.sqrt(n), n)

    @classmethod
    def exact(cls, value: float) -> Estimate:
        """A value known without sampling noise (e.g. from the DP)."""
        return cls(float(value), 0.0, 0)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.ci95
        return {"mean": self.mean, "stderr": self.stderr, "n": self.n, "ci95": [lo, hi]}

    def __str__(self) -> str:
        lo, hi = self.ci95
        return f"{self.mean:.4f} ± {self.stderr:.4f} (95% CI {lo:.4f}..{hi:.4f}, n={self.n})"


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; well behaved near 0 and 1."""
    if n <= 0:
        return (float("nan"), float("nan"))
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


# --------------------------------------------------------------------------- match results


@dataclass
class Record:
    """Wins, ties and losses of one bot (overall or in one seat).

    score = (wins + ties / 2) / games; its interval is the normal interval of the per-game
    score (1, 1/2 or 0), whose variance follows from the three counts.
    """

    wins: int = 0
    ties: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.ties + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.ties) / self.games if self.games else float("nan")

    @property
    def score_estimate(self) -> Estimate:
        n = self.games
        if n == 0:
            return Estimate(float("nan"), float("nan"), 0)
        mean = self.score
        second = (self.wins + 0.25 * self.ties) / n
        var = max(second - mean * mean, 0.0) * (n / (n - 1) if n > 1 else 1.0)
        return Estimate(mean, math.sqrt(var / n), n)

    @property
    def score_ci(self) -> tuple[float, float]:
        lo, hi = self.score_estimate.ci95
        return (max(0.0, lo), min(1.0, hi))

    def add(self, other: Record) -> None:
        self.wins += other.wins
        self.ties += other.ties
        self.losses += other.losses

    def to_dict(self) -> dict[str, Any]:
        return {
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
            "games": self.games,
            "score": self.score,
            "score_ci": list(self.score_ci),
        }


@dataclass
class MatchResult:
    """Outcome of many multi-player games between named bots, seats rotated.

    ``per_bot[name]`` totals a bot over all seats; ``per_seat[name][k]`` is its record when
    sitting in seat k (0 = first player). ``ranks`` stays optional for engines that report
    more than win/tie/loss.
    """

    bots: list[str]
    games: int = 0
    per_bot: dict[str, Record] = field(default_factory=dict)
    per_seat: dict[str, list[Record]] = field(default_factory=dict)
    total_turns: float = 0.0
    capped_games: int = 0
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        players = len(self.bots)
        for name in self.bots:
            self.per_bot.setdefault(name, Record())
            self.per_seat.setdefault(name, [Record() for _ in range(players)])

    def record_game(self, seating: Sequence[str], outcome: Sequence[int], turns: float,
                    capped: bool = False) -> None:
        """Add one game. ``outcome[k]`` for seat k: 1 win, 0 tie (shared first), -1 loss."""
        for seat, (name, res) in enumerate(zip(seating, outcome, strict=True)):
            delta = Record(int(res == 1), int(res == 0), int(res == -1))
            self.per_bot[name].add(delta)
            self.per_seat[name][seat].add(delta)
        self.games += 1
        self.total_turns += turns
        self.capped_games += int(capped)

    def merge(self, other: MatchResult) -> None:
        """Fold another result over the same bots into this one (for parallel chunks)."""
        if other.bots != self.bots:
            raise ValueError("cannot merge results of different line-ups")
        for name in self.bots:
            self.per_bot[name].add(other.per_bot[name])
            for mine, theirs in zip(self.per_seat[name], other.per_seat[name], strict=True):
                mine.add(theirs)
        self.games += other.games
        self.total_turns += other.total_turns
        self.capped_games += other.capped_games
        self.seconds = max(self.seconds, other.seconds)

    @property
    def mean_turns(self) -> float:
        return self.total_turns / self.games if self.games else float("nan")

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("nan")

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "mean_turns": self.mean_turns,
            "capped_games": self.capped_games,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "bots": {
                name: {**self.per_bot[name].to_dict(),
                       "per_seat": [r.to_dict() for r in self.per_seat[name]]}
                for name in self.bots
            },
            **self.extra,
        }


def labels_for(bots: Sequence[Any]) -> list[str]:
    """Distinct display labels of a line-up: a repeated bot gets #2, #3 ... (mirrors)."""
    seen: dict[str, int] = {}
    out = []
    for b in bots:
        seen[b.label] = seen.get(b.label, 0) + 1
        out.append(b.label if seen[b.label] == 1 else f"{b.label}#{seen[b.label]}")
    return out


def rotated_seatings(bots: Sequence[str], games: int) -> Iterable[tuple[int, list[str]]]:
    """Yield (game index, seating) with seats rotated every game so each bot sits everywhere."""
    k = len(bots)
    for g in range(games):
        r = g % k
        yield g, list(bots[r:]) + list(bots[:r])


# --------------------------------------------------------------------------- parameters


@dataclass(frozen=True)
class ParamRange:
    """Valid range of a tunable parameter, declared next to its default."""

    low: float
    high: float
    log: bool = False
    integer: bool = False
    choices: tuple[Any, ...] | None = None

    def check(self, name: str, value: Any) -> Any:
        if self.choices is not None:
            if value not in self.choices:
                allowed = list(self.choices)
                raise InputError(f"parameter {name!r}: {value!r} is not one of {allowed}")
            return value
        try:
            number = int(value) if self.integer else float(value)
        except (TypeError, ValueError):
            kind = "an integer" if self.integer else "a number"
            raise InputError(f"parameter {name!r}: {value!r} is not {kind}") from None
        if self.integer and float(value) != number:
            raise InputError(f"parameter {name!r}: {value!r} is not an integer")
        if not (self.low <= number <= self.high):
            raise InputError(
                f"parameter {name!r}: {number} is outside its range [{self.low}, {self.high}]")
        return number


def tunable(default: Any, low: float = 0.0, high: float = 0.0, *, log: bool = False,
            integer: bool = False, choices: Sequence[Any] | None = None, doc: str = "") -> Any:
    """A dataclass field carrying its valid range: ``alpha: float = tunable(3.5, 1.0, 10.0)``."""
    rng = ParamRange(low, high, log, integer, tuple(choices) if choices is not None else None)
    return field(default=default, metadata={"range": rng, "doc": doc})


def param_ranges(params_type: type) -> dict[str, ParamRange]:
    """The declared ranges of a params dataclass (fields declared with :func:`tunable`)."""
    return {f.name: f.metadata["range"] for f in dataclasses.fields(params_type)
            if "range" in f.metadata}


def make_params(params_type: type, values: Mapping[str, Any] | None = None) -> Any:
    """Build a params dataclass from defaults plus ``values``, checking names and ranges."""
    values = dict(values or {})
    ranges = param_ranges(params_type)
    known = [f.name for f in dataclasses.fields(params_type)]
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise InputError(f"unknown parameter(s) {', '.join(unknown)}; valid: {', '.join(known)}")
    checked = {k: (ranges[k].check(k, v) if k in ranges else v) for k, v in values.items()}
    return params_type(**checked)


@dataclass(frozen=True)
class BotSpec:
    """Plain, picklable description of a bot: a registered name with its parameters, or a
    bot given by its text form (``genome``: a buy list, a buy rule; ``name`` is then its
    label). Worker processes rebuild the game's own bot objects from it."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)
    genome: str | None = None
    label_text: str | None = None

    @property
    def label(self) -> str:
        return self.label_text or self.name


@runtime_checkable
class Bot(Protocol):
    """What every strategy offers: a name and a params dataclass instance (may be None)."""

    name: str
    params: Any
