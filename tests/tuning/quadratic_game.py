"""A tiny noisy game used only by the tuning tests: a quadratic bowl plus seeded noise.

Registered through the game registry like any real game (the tests name this file in
``TABLETUNE_GAMES``, so worker processes and CLI subprocesses load it too). Score of one
game: 1 - (x - 0.3)^2 - (y - 0.6)^2 / 4 + small Gaussian noise drawn from the game's seed, so
candidates see common random numbers and results reproduce exactly.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from games import registry
from games.core import BotSpec, game_seeds, tunable


@dataclasses.dataclass
class BowlParams:
    x: float = tunable(0.5, 0.0, 1.0)
    y: float = tunable(0.5, 0.0, 1.0)
    k: int = tunable(3, 1, 9, integer=True)
    shape: str = tunable("round", choices=("round", "flat"))


def value(params: Mapping[str, Any]) -> float:
    x = float(params.get("x", 0.5))
    y = float(params.get("y", 0.5))
    k = int(params.get("k", 3))
    flat = 0.05 if params.get("shape", "round") == "flat" else 0.0
    return 1.0 - (x - 0.3) ** 2 - (y - 0.6) ** 2 / 4 - 0.01 * (k - 5) ** 2 - flat


def _kill_once() -> None:
    """Kill this process (as a crashed cluster worker) if the test armed it: the first task
    to rename ``armed`` to ``fired`` in the folder ``TABLETUNE_TEST_KILL_ONCE`` dies."""
    folder = os.environ.get("TABLETUNE_TEST_KILL_ONCE")
    if not folder:
        return
    try:
        os.rename(os.path.join(folder, "armed"), os.path.join(folder, "fired"))
    except OSError:
        return
    os.kill(os.getpid(), signal.SIGKILL)


class QuadraticGame(registry.Game):
    in_contract_suite = False  # a stand-in for the tuning tests, not a real game
    name = "quadratic"
    summary = "noisy quadratic bowl (tests only)"
    player_counts = (1, 2)
    objectives = ("mean_score", "win_rate")
    options = (registry.Option("noise", float, 0.1, "noise per game", low=0.0),)

    def bots(self) -> dict[str, registry.BotInfo]:
        return {"bowl": registry.BotInfo("bowl", "the bowl", BowlParams),
                "origin": registry.BotInfo("origin", "an opponent"),
                "centre": registry.BotInfo("centre", "an opponent")}

    def play(self, bots: Sequence[BotSpec], options: Mapping[str, Any], seed: int, start: int,
             count: int, *, rotate: bool = True) -> registry.Outcomes:
        # a delay (from the environment, so it is not part of the study's settings) lets
        # tests catch a trial while it runs
        time.sleep(float(os.environ.get("TABLETUNE_TEST_DELAY", "0")))
        _kill_once()
        seeds = game_seeds(seed, count, start)
        noise = np.array([np.random.Generator(np.random.PCG64(int(s))).normal()
                          for s in seeds])
        score = value(bots[0].params) + float(options.get("noise", 0.1)) * noise
        seats = len(bots)
        scores = np.zeros((count, seats))
        scores[:, 0] = score
        outcome = np.full((count, seats), -1, dtype=np.int8)
        outcome[:, 0] = np.where(score > 0.9, 1, -1)
        if seats > 1:
            outcome[:, 1] = -outcome[:, 0]
        return registry.Outcomes(start, np.tile(np.arange(seats), (count, 1)), outcome,
                                 scores, np.ones(count, dtype=np.int64),
                                 np.zeros(count, dtype=np.bool_))


registry.register(QuadraticGame())
