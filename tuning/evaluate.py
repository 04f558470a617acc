"""Score a candidate over many games: common random numbers, seed blocks, intervals, joblib.

Every candidate of a study is played on the same seed set (game i of the set always gets
``game_seeds(seed, ., i)``), so differences between candidates are not drowned in luck.
Games run in contiguous seed blocks; each block is one picklable task for joblib, whose
backend is a setting (``loky`` on one machine, ``ray`` or ``dask`` on a cluster), and the
result never depends on the number of jobs. Where the game has an exact value (the
deck-building model), the objective's ``exact`` function is used instead of sampling.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from games.core import Z95, Estimate, InputError, seed_blocks
from tuning import objectives

BlockCallback = Callable[[int, float], bool]


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


def derived_seed(seed: int, purpose: str) -> int:
    """A root seed for another purpose (e.g. fresh re-evaluation seeds), stable and distinct."""
    digest = hashlib.sha256(f"{int(seed)}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


@contextlib.contextmanager
def backend_context(backend: str, address: str | None = None) -> Iterator[None]:
    """Connect to a Ray or Dask cluster when asked; loky/threading need nothing."""
    if backend == "ray":
        try:
            import ray
            from ray.util.joblib import register_ray
        except ImportError:
            raise InputError("backend 'ray' needs the ray package (pip install 'ray')") from None
        register_ray()
        if not ray.is_initialized():
            ray.init(address=address)
        yield
    elif backend == "dask":
        try:
            from dask.distributed import Client
        except ImportError:
            raise InputError(
                "backend 'dask' needs dask.distributed (pip install 'dask[distributed]')") from None
        client = Client(address) if address else Client(processes=True)
        try:
            yield
        finally:
            client.close()
    else:
        yield


def _block_results(ref: str, candidate: dict[str, Any], options: dict[str, Any], seed: int,
                   blocks: list[tuple[int, int]], jobs: int,
                   backend: str) -> Iterator[np.ndarray]:
    """Per-block score arrays, in block order, lazily (so a caller can stop early)."""
    if jobs == 1 and backend in ("loky", "sequential", "multiprocessing"):
        for start, count in blocks:
            yield objectives.run_block(ref, candidate, options, seed, start, count)
        return
    from joblib import Parallel, delayed
    parallel = Parallel(n_jobs=jobs, backend=None if backend == "sequential" else backend,
                        return_as="generator")
    gen = parallel(delayed(objectives.run_block)(ref, candidate, options, seed, s, c)
                   for s, c in blocks)
    yield from gen


def evaluate(game: str, candidate: dict[str, Any], options: dict[str, Any], *,
             games: int, seed: int, block: int, jobs: int = 1, backend: str = "loky",
             on_block: BlockCallback | None = None, use_exact: bool = True) -> Evaluation:
    """Score ``candidate`` on games ``0..games-1`` of the seed set with root ``seed``.

    ``on_block(index, block_mean)`` is called after each block in order; returning True stops
    the evaluation (pruning). The result is identical for any ``jobs``: blocks are seeded by
    game index and the callback sees them in order.
    """
    ref = objectives.reference(game)
    t0 = time.perf_counter()
    if use_exact:
        value = objectives.exact(ref, candidate, options)
        if value is not None:
            return Evaluation(mean=value, stderr=0.0, games=0,
                              seconds=time.perf_counter() - t0, exact=True)
    if games <= 0:
        raise InputError("an evaluation needs at least one game")
    blocks = seed_blocks(games, block)
    results: list[np.ndarray] = []
    stopped = False
    stream = _block_results(ref, candidate, options, seed, blocks, jobs, backend)
    try:
        for index, scores in enumerate(stream):
            results.append(scores)
            if on_block is not None and on_block(index, float(scores.mean())):
                stopped = index < len(blocks) - 1
                break
    finally:
        with warnings.catch_warnings():  # cancelling queued blocks after a prune is intended
            warnings.simplefilter("ignore", UserWarning)
            stream.close()
    return Evaluation.from_scores(results, time.perf_counter() - t0, stopped)


def evaluate_with_options(game: str, candidate: dict[str, Any], options: dict[str, Any], *,
                          games: int | None = None, seed: int | None = None,
                          on_block: BlockCallback | None = None) -> Evaluation:
    """:func:`evaluate` with games, block, seed, jobs and backend taken from ``options``."""
    return evaluate(game, candidate, options,
                    games=int(games if games is not None else options["games"]),
                    seed=int(seed if seed is not None else options["seed"]),
                    block=int(options.get("block", 100)), jobs=int(options.get("jobs", 1)),
                    backend=str(options.get("backend", "loky")), on_block=on_block)


def paired_difference(a: Evaluation, b: Evaluation) -> Estimate:
    """Mean of a - b over the same seeds (common random numbers), with its paired stderr."""
    if a.exact or b.exact:
        return Estimate.exact(a.mean - b.mean)
    if a.scores is None or b.scores is None or a.scores.size != b.scores.size:
        raise ValueError("paired differences need full evaluations on the same seed set")
    return Estimate.from_samples(a.scores - b.scores)
