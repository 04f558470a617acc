"""Matches between named bots of any registered game, streamed in seed blocks.

Each block is played by a worker of the run's :class:`WorkerPool` (a match that its first
games show to be shorter than handing out blocks would cost is played here) and comes back
as a :class:`Tally` (counts and sums, never per-game arrays), so a match of a billion
games runs in constant memory and its result is identical for any number of jobs or block
size. Blocks are drawn lazily, a few ahead of the workers, so neither the block plan nor the
tasks grow with the number of games. Multi-seat games rotate seats game by game; in a
one-seat game (a solo or cooperative table) each bot plays its own run on the same seeds.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from games import registry
from games.blocks import iter_blocks
from games.capabilities import use
from games.core import Z95, BotSpec, InputError, Record, labels_for, wilson_interval
from tuning.evaluation._pool import WorkerPool

#: games per block when a match does not say: small enough for steady progress and for
#: workers to share the load, large enough that a block outweighs its dispatch
DEFAULT_BLOCK = 2000
#: a match whose first games say it will take less than this is played in the calling
#: process: handing out its blocks would cost more than they take (a fork, or the threads'
#: hand-offs of a few hundred microseconds a block), so --jobs 2 would be slower
SHARE_SECONDS = 0.05
#: games timed to estimate a match's length (after one untimed game that loads the kernel)
PROBE_GAMES = 8


@dataclass
class Moments:
    """Count, sum and sum of squares of a per-game quantity: its mean and 95% interval."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add_values(self, values: np.ndarray) -> None:
        v = np.asarray(values, dtype=np.float64)
        self.n += int(v.size)
        self.total += float(v.sum())
        self.squares += float((v * v).sum())

    def add(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else float("nan")

    @property
    def ci95(self) -> tuple[float, float]:
        if self.n < 2:
            return (self.mean, self.mean)
        var = max(self.squares / self.n - self.mean ** 2, 0.0) * self.n / (self.n - 1)
        half = Z95 * math.sqrt(var / self.n)
        return (self.mean - half, self.mean + half)


@dataclass
class Tally:
    """What a block of games adds to a match: records per bot and seat, moments per bot."""

    games: int = 0
    seats: int = 0
    per_seat: dict[int, list[Record]] = field(default_factory=dict)
    score: dict[int, Moments] = field(default_factory=dict)
    turns: Moments = field(default_factory=Moments)
    capped: int = 0
    tied: int = 0
    extra: dict[str, Moments] = field(default_factory=dict)
    seconds: float = 0.0

    @classmethod
    def of(cls, out: registry.Outcomes, n_bots: int,
           extra: dict[str, np.ndarray]) -> Tally:
        t = cls(games=out.count, seats=out.outcome.shape[1])
        for b in range(n_bots):
            recs = []
            for k in range(t.seats):
                o = out.outcome[:, k][out.seating[:, k] == b]
                recs.append(Record(int((o == 1).sum()), int((o == 0).sum()),
                                   int((o == -1).sum())))
            t.per_seat[b] = recs
            m = Moments()
            m.add_values(out.score[out.seating == b])
            t.score[b] = m
        t.turns.add_values(out.turns)
        t.capped = int(out.capped.sum())
        t.tied = int((out.outcome == 0).any(axis=1).sum()) if t.seats > 1 else 0
        for key, values in extra.items():
            t.extra.setdefault(key, Moments()).add_values(values)
        return t

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.seats = other.seats
        for b, recs in other.per_seat.items():
            mine = self.per_seat.setdefault(b, [Record() for _ in recs])
            for r, o in zip(mine, recs, strict=True):
                r.add(o)
            self.score.setdefault(b, Moments()).add(other.score[b])
        self.turns.add(other.turns)
        self.capped += other.capped
        self.tied += other.tied
        for key, m in other.extra.items():
            self.extra.setdefault(key, Moments()).add(m)
        self.seconds += other.seconds


def play_block(game_name: str, bots: tuple[BotSpec, ...], options: dict[str, Any], seed: int,
               start: int, count: int, rotate: bool) -> Tally:
    """Worker task: one block of a match, folded into a tally."""
    t0 = time.perf_counter()
    game = registry.get(game_name)
    out = game.play(bots, options, seed, start, count, rotate=rotate)
    tally = Tally.of(out, len(bots), use(game, "tally").tally(out, options))
    tally.seconds = time.perf_counter() - t0
    return tally


@dataclass
class MatchSummary:
    """A finished match: per-bot tallies (one run per bot in a one-seat game)."""

    game: str
    labels: list[str]
    games: int
    seats: int
    tallies: list[Tally]  # one tally (multi-seat) or one per bot (one-seat)
    seconds: float
    rotated: bool

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``tabletune play``: totals, then per bot (and per seat)."""
        game = registry.get(self.game)
        total = Tally()
        for t in self.tallies:
            total.add(t)
        bots: dict[str, Any] = {}
        for i, label in enumerate(self.labels):
            t = self.tallies[i] if len(self.tallies) > 1 else self.tallies[0]
            b = 0 if len(self.tallies) > 1 else i
            rec = Record()
            for r in t.per_seat[b]:
                rec.add(r)
            has_winner = use(game, "objectives").has_winner
            row: dict[str, Any] = rec.to_dict() if has_winner else {"games": rec.games}
            if self.seats > 1:
                row["per_seat"] = [r.to_dict() for r in t.per_seat[b]]
            else:
                if has_winner:
                    lo, hi = wilson_interval(rec.wins, rec.games)
                    row.update({"win_rate": rec.wins / rec.games if rec.games else None,
                                "win_rate_ci": [lo, hi]})
                row.update({"mean_turns": t.turns.mean, "turns_ci": list(t.turns.ci95),
                            "capped_games": t.capped})
                row.update(use(game, "tally").summarize_tally(
                    {k: (m.mean, m.ci95) for k, m in t.extra.items()}))
            row["mean_score"] = t.score[b].mean
            row["mean_score_ci"] = list(t.score[b].ci95)
            bots[label] = row
        return {"game": self.game, "games": self.games, "players": self.seats,
                "mean_turns": total.turns.mean, "capped_games": total.capped,
                "tied_games": total.tied, "rotated": self.rotated, "seconds": self.seconds,
                "games_per_second": (self.games * len(self.tallies) / self.seconds
                                     if self.seconds > 0 else None),
                "bots": bots}


ProgressFn = Callable[[int, int, float], None]
#: play_block's arguments: (game, line-up, options, seed, start, count, rotate)
Task = tuple[Any, ...]
#: a task with the index of the line-up whose tally it adds to
Owned = tuple[int, Task]


def tapered_blocks(games: int, size: int, jobs: int) -> Iterator[tuple[int, int]]:
    """Seed blocks of ``size`` games, the last ``jobs`` blocks' worth cut into quarters: the
    workers take the small ones as they come free and finish the match nearly together (one
    worker left alone with a whole last block would leave the other idle for up to a block,
    a large share of a short match). Made one at a time, never listed."""
    if jobs <= 1 or size < 4:
        yield from iter_blocks(games, size)
        return
    tail = min(games, jobs * size)
    head = games - tail
    yield from iter_blocks(head, size)
    yield from iter_blocks(tail, size // 4, head)


def run_match(game_name: str, bots: Sequence[BotSpec], options: dict[str, Any], *,
              games: int, seed: int, pool: WorkerPool | None = None, rotate: bool = True,
              block: int | None = None, progress: ProgressFn | None = None) -> MatchSummary:
    """Play ``games`` games (per bot, in a one-seat game) and tally them as they finish.

    ``options`` must be checked (``Game.check_options``); ``progress(done, total, seconds)``
    is called after every block.
    """
    if games < 1:
        raise InputError(f"the number of games must be at least 1, got {games}")
    game = registry.get(game_name)
    line_ups = [tuple(bots)]
    seats = game.seats(len(bots), options) if len(bots) > 0 else 0
    if seats == 1 and len(bots) > 1:  # solo games: every bot plays its own run
        line_ups = [(b,) for b in bots]
    elif seats == 0:
        raise InputError("name at least one bot")
    pool = pool or WorkerPool()
    opts = dict(options)  # one copy shared by every task
    size = block or max(1, min(DEFAULT_BLOCK, math.ceil(games / (4 * pool.jobs))))
    owned = ((k, (game_name, line_up, opts, seed, s, c, rotate))
             for k, line_up in enumerate(line_ups)
             for s, c in (iter_blocks(games, size) if block
                          else tapered_blocks(games, size, pool.jobs)))
    tallies = [Tally() for _ in line_ups]
    t0 = time.perf_counter()
    done = 0
    if pool.jobs > 1 and not pool.inline and not block:
        probes, rest = _with_probes(owned)
        results = _short_match_here(probes, rest, pool, games * len(line_ups))
    else:
        results = _pooled(owned, pool)
    for k, tally in results:
        tallies[k].add(tally)
        done += tally.games
        if progress:
            progress(done, games * len(line_ups), time.perf_counter() - t0)
    return MatchSummary(game_name, labels_for(bots), games, seats, tallies,
                        time.perf_counter() - t0, rotate)


def _pooled(owned: Iterable[Owned], pool: WorkerPool) -> Iterator[tuple[int, Tally]]:
    """(owner, tally) of each task, played by the pool in task order. Owners wait in a queue
    only while their task is out (a few per worker), never one per block of the match."""
    owners: deque[int] = deque()

    def tasks() -> Iterator[Task]:
        for k, task in owned:
            owners.append(k)
            yield task

    for tally in pool.imap(play_block, tasks()):
        yield owners.popleft(), tally


def _with_probes(owned: Iterator[Owned]) -> tuple[list[Owned], Iterator[Owned]]:
    """The first block cut into one game (it loads the kernel), ``PROBE_GAMES`` games to
    time, and the rest (any split of a block plays the same games); returns the probes (one
    or two) and every task after them, drawn lazily."""
    owner, (name, line_up, opts, seed, start, count, rotate) = next(owned)
    cuts = [c for c in (min(count, 1), min(count - 1, PROBE_GAMES)) if c > 0]
    cuts += [count - sum(cuts)] if count > sum(cuts) else []
    starts = [start + sum(cuts[:i]) for i in range(len(cuts))]
    split = [(owner, (name, line_up, opts, seed, s, c, rotate))
             for s, c in zip(starts, cuts, strict=True)]
    return split[:2], itertools.chain(split[2:], owned)


def _short_match_here(probes: list[Owned], rest: Iterator[Owned], pool: WorkerPool,
                      total: int) -> Iterator[tuple[int, Tally]]:
    """(owner, tally) of the probes, then of ``rest``, in order. The probes are played here,
    the second timed: a match they put under ``SHARE_SECONDS`` is played here whole, in
    blocks as large as one process plays them; a longer one goes to the pool. A first game
    (kernel loading included) over ``SHARE_SECONDS`` goes to the pool at once: the timed
    games would only hold up a match of slow games."""
    t = time.perf_counter()
    yield probes[0][0], play_block(*probes[0][1])
    played = 1
    if len(probes) == 2 and time.perf_counter() - t < SHARE_SECONDS:
        t = time.perf_counter()
        owner, task = probes[1]
        yield owner, play_block(*task)
        played = 2
        if (time.perf_counter() - t) / task[5] * total < SHARE_SECONDS:
            for owner, task in _merged(rest):
                yield owner, play_block(*task)
            return
    yield from _pooled(itertools.chain(probes[played:], rest), pool)


def _merged(owned: Iterable[Owned]) -> Iterator[Owned]:
    """Neighbouring blocks of one line-up joined up to ``DEFAULT_BLOCK`` games: the small
    blocks cut for workers only add calls when one process plays them all."""
    current: list[Any] | None = None
    owner = -1
    for k, task in owned:
        if (current is not None and k == owner and task[4] == current[4] + current[5]
                and current[5] + task[5] <= DEFAULT_BLOCK):
            current[5] += task[5]
            continue
        if current is not None:
            yield owner, tuple(current)
        current, owner = list(task), k
    if current is not None:
        yield owner, tuple(current)
