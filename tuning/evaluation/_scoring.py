"""What a worker needs to score a candidate bot: the game, its checked options, the
objective and the opponent pool, as plain picklable data.

``evaluation.opponents`` has one meaning everywhere (Optuna trials, DEAP generations,
re-evaluation): a pool of line-ups. Each entry is one opponent bot (a two-player match) or a
list of bots (a table of more players). Game ``g`` of a seed set is played against entry
``g % n`` as that entry's own game ``g // n``; a pool of one entry plays the root seed set
itself, a larger pool gives every entry a seed set of its own derived from the root seed and
the entry's position. Seats rotate game by game within each entry, so every candidate meets
the same deals (common random numbers) and seat advantage cancels.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from games import registry
from games.capabilities import offers, use
from games.core import BotSpec, InputError

LineUp = tuple[BotSpec, ...]


@lru_cache(maxsize=1024)
def opponent_seed(seed: int, index: int) -> int:
    """Root seed of the games against the pool's ``index``-th entry (pools of two or more)."""
    digest = hashlib.sha256(f"{int(seed)}:opponent:{int(index)}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def candidate_bot(candidate: Mapping[str, Any]) -> BotSpec:
    """A candidate (``{"strategy", "params"}`` or ``{"genome": text}``) as a bot spec."""
    if "genome" in candidate:
        return BotSpec("candidate", {}, str(candidate["genome"]))
    return BotSpec(str(candidate["strategy"]), dict(candidate.get("params") or {}))


def parse_pool(game: registry.Game, entries: Sequence[Any]) -> tuple[LineUp, ...]:
    """Opponent line-ups from spec entries: a bot text, or a list of bot texts (a table)."""
    pool = []
    for entry in entries:
        texts = [entry] if isinstance(entry, str) else list(entry)
        if not texts or not all(isinstance(t, str) and t.strip() for t in texts):
            raise InputError(f"evaluation.opponents: {entry!r} is not a bot name or a list "
                             "of bot names")
        try:
            pool.append(tuple(game.parse_bot(t) for t in texts))
        except InputError as exc:
            raise InputError(f"evaluation.opponents: {exc}") from None
    return tuple(pool)


def line_ups(game: registry.Game, entries: Sequence[Any], options: Mapping[str, Any]
             ) -> tuple[LineUp, ...]:
    """:func:`parse_pool`, each line-up checked to seat the candidate beside it under the
    game's checked ``options``."""
    pool = parse_pool(game, entries)
    for line_up in pool or ((),):
        if game.seats(1 + len(line_up), options) != 1 + len(line_up):
            raise InputError(f"evaluation.opponents: a {game.name} game with these "
                             f"options seats one player; it takes no opponents")
    return pool


@dataclass(frozen=True)
class Scorer:
    """Scores one candidate bot on blocks of a seed set (see the module docstring): the
    game's checked options and a parsed pool, as :meth:`build` or a resolved study
    (:meth:`tuning._spec.StudySpec.scorer`) made them."""

    game: str
    options: Mapping[str, Any]
    objective: str
    pool: tuple[LineUp, ...] = ()

    @classmethod
    def build(cls, game_name: str, options: Mapping[str, Any], objective: str,
              opponents: Sequence[Any] = ()) -> Scorer:
        """Check everything once, in the calling process: options, objective, opponents."""
        game = registry.get(game_name)
        checked = game.check_options(options)
        objectives = use(game, "objectives").objectives
        if objective not in objectives:
            raise InputError(f"{objective!r} is not scored for {game_name}; allowed: "
                             f"{', '.join(objectives)}")
        return cls(game_name, checked, objective, line_ups(game, opponents, checked))

    def with_opponents(self, opponents: Sequence[Any]) -> Scorer:
        """The same scorer against another pool (hall of fame, report comparisons)."""
        return Scorer.build(self.game, self.options, self.objective, opponents)

    def with_options(self, **changes: Any) -> Scorer:
        """The same scorer with some game options changed (checked again)."""
        game = registry.get(self.game)
        return replace(self, options=game.check_options({**self.options, **changes}))

    def block(self, bot: BotSpec, seed: int, start: int, count: int) -> np.ndarray:
        """Per-game objective values of ``bot`` in games ``start .. start+count-1``."""
        game = registry.get(self.game)
        if len(self.pool) <= 1:
            line_up = (bot, *(self.pool[0] if self.pool else ()))
            out = game.play(line_up, self.options, seed, start, count)
            return use(game, "objectives").objective_values(out, 0, self.objective,
                                                            self.options)
        n = len(self.pool)
        values = np.empty(count, dtype=np.float64)
        index = np.arange(start, start + count)
        for j, opponents in enumerate(self.pool):
            mine = index[index % n == j]
            if mine.size == 0:
                continue
            local = mine // n  # contiguous indices into entry j's own seed set
            out = game.play((bot, *opponents), self.options, opponent_seed(seed, j),
                            int(local[0]), int(local.size))
            values[mine - start] = use(game, "objectives").objective_values(
                out, 0, self.objective, self.options)
        return values

    @property
    def sampled_only(self) -> bool:
        """True when no candidate can have an exact value: opponents are in play, or the
        game has no exact solver (so every candidate is scored by playing games)."""
        game = registry.get(self.game)
        return bool(self.pool) or not offers(game, "exact")

    def exact(self, bot: BotSpec) -> float | None:
        """The exact objective value where the game has one (no opponents), else None."""
        if self.pool:
            return None
        return use(registry.get(self.game), "exact").exact(bot, self.options, self.objective)


def score_block(scorer: Scorer, bot: BotSpec, seed: int, start: int,
                count: int) -> tuple[np.ndarray, float]:
    """Worker task: one seed block of one bot, with the seconds spent simulating it."""
    t0 = time.perf_counter()
    values = np.asarray(scorer.block(bot, seed, start, count), dtype=np.float64)
    if values.shape != (count,):
        raise ValueError(f"{scorer.game} returned {values.shape} values for {count} games")
    return values, time.perf_counter() - t0


def score_exact(scorer: Scorer, bot: BotSpec) -> tuple[float | None, float]:
    """Worker task: the exact value of one bot (None: it must be sampled), with its time."""
    t0 = time.perf_counter()
    value = scorer.exact(bot)
    return (None if value is None else float(value)), time.perf_counter() - t0
