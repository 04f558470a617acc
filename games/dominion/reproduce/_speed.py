"""Dominion engine speed: games per second with one and two jobs, and peak memory.

Shared by the Dominion reproduction's Performance table and ``benchmarks/dominion.py``, so
the report and the benchmark measure the same way: the game's ``play`` in blocks over a
worker pool (any object with ``jobs``, an ordered ``map`` and ``on_workers``).
"""

from __future__ import annotations

import resource
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.blocks import map_blocks
from games.core import BotSpec
from games.dominion.game import GAME

MATCHUPS = {
    "big-money mirror": [BotSpec("big-money"), BotSpec("big-money")],
    "smithy-big-money vs big-money-ultimate": [BotSpec("smithy-big-money"),
                                               BotSpec("big-money-ultimate")],
    "heuristic vs big-money": [BotSpec("heuristic"), BotSpec("big-money")],
    "double-witch mirror": [BotSpec("double-witch"), BotSpec("double-witch")],
    "double-militia vs double-witch": [BotSpec("double-militia"), BotSpec("double-witch")],
}
# Options of a match-up other than the defaults: the base-set bots need their cards.
MATCHUP_OPTIONS: dict[str, dict[str, Any]] = {
    "double-witch mirror": {"kingdom": ["witch"]},
    "double-militia vs double-witch": {"kingdom": ["militia", "witch"]},
}


def timed_block(bots: Sequence[BotSpec], options: dict[str, Any], seed: int, start: int,
                count: int) -> float:
    """Play one block with the game's ``play``; the CPU seconds of the thread that played."""
    c0 = time.thread_time()
    GAME.play(bots, options, seed, start, count)
    return time.thread_time() - c0


def timed_run(bots: Sequence[BotSpec], games: int, seed: int, pool: Any,
              options: dict[str, Any] | None = None) -> tuple[float, float]:
    """Games ``0..games-1`` of the run with root ``seed`` on ``pool`` (default options unless
    given): (wall-clock seconds, CPU seconds of the simulating threads summed over workers)."""
    options = GAME.check_options(options or {})
    t0 = time.perf_counter()
    cpu = sum(map_blocks(timed_block, (list(bots), options, seed), games, pool=pool))
    return time.perf_counter() - t0, cpu


def best_rate(bots: list[BotSpec], games: int, pool: Any, repeats: int,
              options: dict[str, Any] | None = None) -> tuple[float, float, float]:
    """Best wall-clock games/s over ``repeats`` runs of ``games`` games, that run's seconds,
    and the best games per CPU-second of the simulating processes (less sensitive to other
    load on the machine)."""
    best = (0.0, 0.0, 0.0)
    for r in range(repeats):
        seconds, cpu_seconds = timed_run(bots, games, 100 + r, pool, options)
        rate = games / seconds
        cpu = games / cpu_seconds if cpu_seconds > 0 else float("nan")
        best = (max(best[0], rate), seconds if rate > best[0] else best[1], max(best[2], cpu))
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


def worker_peak_mib(pool: Any) -> float:
    """Largest peak RSS among the pool's worker processes (they live for the whole run, so
    RUSAGE_CHILDREN never sees them); 0 for a pool without workers."""
    return max(pool.on_workers(peak_kib), default=0) / 1024
