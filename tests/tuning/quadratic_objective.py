"""A tiny noisy objective used only by the tuning tests: a quadratic bowl plus seeded noise.

Score of one game: 1 - (x - 0.3)^2 - (y - 0.6)^2 / 4 + small Gaussian noise drawn from the
game's seed, so candidates see common random numbers and results reproduce exactly.
"""

from __future__ import annotations

import dataclasses
import os
import time
from typing import Any

import numpy as np

from games.core import InputError, game_seeds, tunable

OBJECTIVES = ("mean_score", "win_rate")


@dataclasses.dataclass
class BowlParams:
    x: float = tunable(0.5, 0.0, 1.0)
    y: float = tunable(0.5, 0.0, 1.0)
    k: int = tunable(3, 1, 9, integer=True)
    shape: str = tunable("round", choices=("round", "flat"))


def strategies() -> dict[str, type | None]:
    return {"bowl": BowlParams}


def check_options(options: dict[str, Any]) -> None:
    for name in options.get("opponents", []):
        if name not in ("origin", "centre"):
            raise InputError(f"evaluation.opponents: unknown opponent {name!r}; "
                             "allowed: origin, centre")


def value(params: dict[str, Any]) -> float:
    x = float(params.get("x", 0.5))
    y = float(params.get("y", 0.5))
    k = int(params.get("k", 3))
    flat = 0.05 if params.get("shape", "round") == "flat" else 0.0
    return 1.0 - (x - 0.3) ** 2 - (y - 0.6) ** 2 / 4 - 0.01 * (k - 5) ** 2 - flat


def run_block(candidate: dict[str, Any], options: dict[str, Any], seed: int, start: int,
              count: int) -> np.ndarray:
    # a delay (from the environment, so it is not part of the study's settings) lets tests
    # catch a trial while it runs
    time.sleep(float(os.environ.get("TABLETUNE_TEST_DELAY", "0")))
    seeds = game_seeds(seed, count, start)
    noise = np.array([np.random.Generator(np.random.PCG64(int(s))).normal() for s in seeds])
    return value(candidate["params"]) + float(options.get("noise", 0.1)) * noise
