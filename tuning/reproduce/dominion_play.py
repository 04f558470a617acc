"""Dominion runs of many games for the reproduction and the benchmarks, over a worker pool.

The engine plays blocks in one process (``games.dominion.play_games``); here the blocks go
through the run's :class:`~tuning.evaluation.WorkerPool`, so one pool serves a whole report.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from games.blocks import map_blocks
from games.dominion import BotSpec, GameResults, play_games
from tuning.evaluation import WorkerPool


def play_many(bots: Sequence[BotSpec], games: int, seed: int = 0, jobs: int = 1,
              pool: WorkerPool | None = None, block: int | None = None,
              **options: Any) -> GameResults:
    """Games ``0..games-1`` of the run with root ``seed``; ``options`` go to ``play_games``
    (players, rotate, config). Uses ``pool`` when given, else a pool of ``jobs`` for this
    call."""
    if pool is None:
        with WorkerPool(jobs) as own:
            return play_many(bots, games, seed, pool=own, block=block, **options)
    t0 = time.perf_counter()
    parts = map_blocks(play_games, (list(bots), seed), games, pool=pool, block=block,
                       **options)
    res = GameResults.concat(parts)
    res.seconds = time.perf_counter() - t0
    return res
