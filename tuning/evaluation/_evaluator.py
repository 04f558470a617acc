"""Score candidates over many games: common random numbers, seed blocks, intervals.

Every candidate of a study is played on the same seed set (game i of the set always gets
``game_seeds(seed, ., i)``), so differences between candidates are not drowned in luck.
Games run in contiguous seed blocks, each one task for the run's :class:`WorkerPool`; the
result never depends on the number of jobs. Where the game has an exact value (the
deck-building model) it is used instead of sampling. This one path serves Optuna trials,
DEAP generations, re-evaluations and matches.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from games.core import Z95, BotSpec, Estimate, InputError, seed_blocks
from tuning.evaluation._pool import WorkerPool
from tuning.evaluation._scoring import Scorer, score_block, score_exact

BlockCallback = Callable[[int, float], bool]
K = TypeVar("K")


@dataclass
class Evaluation:
    """Outcome of scoring one candidate: per-block means, mean, stderr, interval, speed."""

    mean: float
    stderr: float
    games: int
    seconds: float
    block_means: list[float] = field(default_factory=list)
    block_games: list[int] = field(default_factory=list)
    exact: bool = False
    stopped_early: bool = False
    scores: np.ndarray | None = field(default=None, repr=False)

    @property
    def estimate(self) -> Estimate:
        return Estimate(self.mean, self.stderr, self.games)

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.mean - Z95 * self.stderr, self.mean + Z95 * self.stderr)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 and self.games else float("nan")

    def to_dict(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "stderr": self.stderr,
            "ci95": list(self.ci95),
            "games": self.games,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "exact": self.exact,
            "stopped_early": self.stopped_early,
            "block_means": list(self.block_means),
        }

    @classmethod
    def from_scores(cls, blocks: list[np.ndarray], seconds: float,
                    stopped_early: bool = False) -> Evaluation:
        scores = np.concatenate(blocks) if blocks else np.zeros(0)
        est = Estimate.from_samples(scores)
        return cls(mean=est.mean, stderr=est.stderr, games=int(scores.size), seconds=seconds,
                   block_means=[float(b.mean()) for b in blocks],
                   block_games=[int(b.size) for b in blocks], stopped_early=stopped_early,
                   scores=scores)

    @classmethod
    def exact_value(cls, value: float, seconds: float) -> Evaluation:
        return cls(mean=value, stderr=0.0, games=0, seconds=seconds, exact=True)


def derived_seed(seed: int, purpose: str) -> int:
    """A root seed for another purpose (e.g. fresh re-evaluation seeds), stable and distinct."""
    digest = hashlib.sha256(f"{int(seed)}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def evaluate(scorer: Scorer, bot: BotSpec, *, games: int, seed: int, block: int,
             pool: WorkerPool | None = None, on_block: BlockCallback | None = None,
             use_exact: bool = True, stoppable: bool = True, start: int = 0) -> Evaluation:
    """Score ``bot`` on games ``start..start+games-1`` of the seed set with root ``seed``.

    ``start`` past the games another evaluation played on the same root gives a seed set
    disjoint from that one (a confirmation after a re-evaluation).

    ``on_block(index, block_mean)`` is called after each block in order; returning True stops
    the evaluation (pruning). The result is identical for any pool: blocks are seeded by game
    index and the callback sees them in order. ``stoppable=False`` says the callback only
    watches (progress, reports without a pruner): the blocks then go to the workers whole
    and as far ahead as the pool likes, as without a callback.
    """
    t0 = time.perf_counter()
    if use_exact:
        value, _ = score_exact(scorer, bot)
        if value is not None:
            return Evaluation.exact_value(value, time.perf_counter() - t0)
    if games <= 0:
        raise InputError("an evaluation needs at least one game")
    pool = pool or WorkerPool()
    blocks = [(start + s, c) for s, c in seed_blocks(games, block)]
    # with pruning, each block is split into one part per job: the parts of one block are
    # played side by side, so a stopped evaluation leaves at most a block of queued parts
    # behind (whole blocks ahead on every worker would waste several); the callback still
    # sees whole blocks in order, so the result is the same for any pool
    may_stop = on_block is not None and stoppable
    parts = pool.jobs if may_stop and not pool.inline else 1
    # without pruning, the last block alone is split, in two parts per worker: whichever
    # worker is free takes the next small part, so the workers end the evaluation nearly
    # together (whole blocks would leave one idle for up to a block; a study waits on it)
    last = len(blocks) - 1
    splits = [split_block(s, c, parts if i < last or parts > 1 or pool.inline
                          else 2 * pool.jobs)
              for i, (s, c) in enumerate(blocks)]
    tasks = [(scorer, bot, seed, s2, c2) for split in splits for s2, c2 in split]
    per_block = [len(split) for split in splits]
    results: list[np.ndarray] = []
    stopped = False
    # one part of the next block ahead: the workers never wait for the callback, and a stop
    # leaves at most one part behind
    ahead = pool.jobs + 1 if parts > 1 else None
    stream = pool.imap(score_block, tasks, ahead=ahead)
    try:
        pending: list[np.ndarray] = []
        for scores, _ in stream:
            pending.append(scores)
            if len(pending) < per_block[len(results)]:
                continue
            results.append(np.concatenate(pending) if len(pending) > 1 else pending[0])
            pending = []
            index = len(results) - 1
            if on_block is not None and on_block(index, float(results[-1].mean())) and may_stop:
                stopped = index < len(blocks) - 1
                break
    finally:
        stream.close()
    return Evaluation.from_scores(results, time.perf_counter() - t0, stopped)


def evaluate_stream(scorer: Scorer, candidates: Iterable[tuple[K, BotSpec]], *, games: int,
                    seed: int, block: int, pool: WorkerPool,
                    on_block: Callable[[K, int, float], None] | None = None
                    ) -> Iterator[tuple[K, Evaluation]]:
    """Score a stream of candidates through one pass over the pool, yielding ``(key,
    evaluation)`` as each one's games are in.

    The next candidate is drawn (lazily: drawing it may claim an Optuna trial) and its first
    blocks handed out while the current one's last blocks are still being played, so the
    workers never wait between candidates. Each candidate gets exactly the games and blocks
    that :func:`evaluate` gives it (same seeds, same block means), for any pool. No early
    stop and no exact values: the caller uses :func:`evaluate` where either applies.
    ``on_block(key, index, mean)`` sees every block in order; ``seconds`` of an evaluation
    is the time from its first block handed out to its last block back.
    """
    if games <= 0:
        raise InputError("an evaluation needs at least one game")
    blocks = seed_blocks(games, block)
    drawn: list[tuple[K, float]] = []  # candidates whose blocks were handed out, in order

    def tasks() -> Iterator[tuple[Any, ...]]:
        for key, bot in candidates:
            drawn.append((key, time.perf_counter()))
            for start, count in blocks:
                yield scorer, bot, seed, start, count

    results: list[np.ndarray] = []
    current = 0
    stream = pool.imap(score_block, tasks())
    try:
        for scores, _ in stream:
            results.append(scores)
            key, t0 = drawn[current]
            if on_block is not None:
                on_block(key, len(results) - 1, float(scores.mean()))
            if len(results) == len(blocks):
                evaluation = Evaluation.from_scores(results, time.perf_counter() - t0)
                results, current = [], current + 1
                yield key, evaluation
    finally:
        stream.close()


def split_block(start: int, count: int, parts: int) -> list[tuple[int, int]]:
    """A seed block ``(start, count)`` as up to ``parts`` contiguous blocks of near-equal size."""
    parts = max(1, min(parts, count))
    size, extra = divmod(count, parts)
    out, s = [], start
    for k in range(parts):
        c = size + (1 if k < extra else 0)
        out.append((s, c))
        s += c
    return out


def evaluate_many(scorer: Scorer, bots: Sequence[BotSpec], *, games: int, seed: int,
                  block: int, pool: WorkerPool | None = None, start: int = 0
                  ) -> list[Evaluation]:
    """Score several bots on one seed set in one pass over the pool (a DEAP generation):
    games ``start..start+games-1`` of the root ``seed``.

    ``Evaluation.seconds`` is the time spent inside the simulations, summed over the bot's
    blocks, which is what throughput figures compare with wall time.
    """
    pool = pool or WorkerPool()
    out: dict[int, Evaluation] = {}
    if not scorer.pool:
        for i, (value, seconds) in enumerate(pool.map(score_exact,
                                                      [(scorer, b) for b in bots])):
            if value is not None:
                out[i] = Evaluation.exact_value(value, seconds)
    tasks = [(i, start + s, c) for i in range(len(bots)) if i not in out
             for s, c in seed_blocks(games, block)]
    per: dict[int, list[tuple[np.ndarray, float]]] = {}
    results = pool.map(score_block, [(scorer, bots[i], seed, s, c) for i, s, c in tasks])
    for (i, *_), res in zip(tasks, results, strict=True):
        per.setdefault(i, []).append(res)
    for i, parts in per.items():
        out[i] = Evaluation.from_scores([p[0] for p in parts], sum(p[1] for p in parts))
    return [out[i] for i in range(len(bots))]


def paired_difference(a: Evaluation, b: Evaluation) -> Estimate:
    """Mean of a - b over the same seeds (common random numbers), with its paired stderr."""
    if a.exact or b.exact:
        return Estimate.exact(a.mean - b.mean)
    if a.scores is None or b.scores is None or a.scores.size != b.scores.size:
        raise ValueError("paired differences need full evaluations on the same seed set")
    return Estimate.from_samples(a.scores - b.scores)
