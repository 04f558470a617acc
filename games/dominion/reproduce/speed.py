"""Dominion engine speed: games per second with one and two jobs, and peak memory.

Shared by the Dominion reproduction's Performance table and ``benchmarks/dominion.py``, so
the report and the benchmark measure the same way.
"""

from __future__ import annotations

import resource
from pathlib import Path

from games.dominion import BotSpec
from tuning.evaluation import WorkerPool
from tuning.reproduce.dominion_play import play_many

MATCHUPS = {
    "big-money mirror": [BotSpec("big-money"), BotSpec("big-money")],
    "smithy-big-money vs big-money-ultimate": [BotSpec("smithy-big-money"),
                                               BotSpec("big-money-ultimate")],
    "heuristic vs big-money": [BotSpec("heuristic"), BotSpec("big-money")],
}


def best_rate(bots: list[BotSpec], games: int, pool: WorkerPool,
              repeats: int) -> tuple[float, float, float]:
    """Best wall-clock games/s over ``repeats`` runs of ``games`` games, that run's seconds,
    and the best games per CPU-second of the simulating processes (less sensitive to other
    load on the machine)."""
    best = (0.0, 0.0, 0.0)
    for r in range(repeats):
        res = play_many(bots, games, seed=100 + r, pool=pool)
        rate = games / res.seconds
        cpu = games / res.cpu_seconds if res.cpu_seconds > 0 else float("nan")
        best = (max(best[0], rate), res.seconds if rate > best[0] else best[1],
                max(best[2], cpu))
    return best


def peak_kib() -> int:
    """Peak resident memory of this process in KiB: VmHWM on Linux (ru_maxrss would carry
    over the parent's peak into a forked worker), else ru_maxrss."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def worker_peak_mib(pool: WorkerPool) -> float:
    """Largest peak RSS among the pool's worker processes (they live for the whole run, so
    RUSAGE_CHILDREN never sees them); 0 for a pool without workers."""
    return max(pool.on_workers(peak_kib), default=0) / 1024
