"""The learned Splendor player's trainer: the protocol of :mod:`games.learning`, which the
game-neutral loop of `tabletune train` drives.

A model is a linear value over :mod:`games.splendor._features` (``learned`` and ``expert``
read it at their search leaves); the samples are (position after one of the learner's
turns, final reward) pairs from the games of :mod:`games.splendor.learning._selfplay`; the
value model is the ridge least squares of :mod:`games.splendor.learning._value`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from games.core import BotSpec
from games.splendor._features import FEATURE_SET, NV
from games.splendor._learned import LearnedModel, load_model
from games.splendor._learned import save_model as _save_model
from games.splendor.learning import _selfplay as selfplay
from games.splendor.learning._options import TrainOptions, check_option, check_options
from games.splendor.learning._value import RidgeValue

__all__ = [
    "DEFAULTS", "FEATURE_SET", "MOVED", "N_FEATURES", "OPTIONS", "check_option",
    "check_options", "make_model", "new_learner", "play_block", "probe_block", "save_model",
    "setup", "summary",
]

N_FEATURES = NV
OPTIONS = TrainOptions
DEFAULTS: Mapping[str, Any] = {
    "opponents": ("self", "greedy", "minimax:2"),
    "probe": ("greedy",),
    "model": "runs/splendor-learned/model.npz",
    "checkpoint": "runs/splendor-learned/checkpoint.pkl",
}
MOVED: Mapping[str, str] = {}


def setup(game_options: Mapping[str, Any]) -> tuple[str, ...]:
    """Nothing: a model is for the game's default rules, two players."""
    return ()


def new_learner(options: TrainOptions, seed: int, setup: tuple[str, ...] = ()) -> RidgeValue:
    """A fresh value model (deterministic: the seed is not needed), playing with the
    ``start`` model's weights until its first update."""
    start = load_model(options.start).weights if options.start else None
    return RidgeValue(options.ridge, options.forget, start)


def play_block(weights: np.ndarray, eps: float, opponent: BotSpec | None,
               opp_weights: np.ndarray | None, seed: int, start: int, count: int,
               setup: tuple[str, ...], options: TrainOptions
               ) -> tuple[np.ndarray, np.ndarray, float]:
    """Training games of the learner (:func:`games.splendor.learning._selfplay.play_block`)."""
    return selfplay.play_block(weights, eps, opponent, opp_weights, seed, start, count,
                               options.depth, options.margin, options.players)


def probe_block(weights: np.ndarray, opponent: BotSpec, seed: int, start: int, count: int,
                setup: tuple[str, ...], options: TrainOptions) -> np.ndarray:
    """The learner's per-game scores against a probe opponent."""
    return selfplay.probe_block(weights, opponent, seed, start, count, options.depth)


def make_model(weights: np.ndarray, setup: tuple[str, ...], options: TrainOptions,
               run: Mapping[str, Any]) -> LearnedModel:
    """The model file's content: the weights and the run's facts."""
    meta: dict[str, Any] = {"study": run["study"], "games_trained": run["games_trained"],
                            "seconds": run["seconds"], "depth": options.depth,
                            "margin": options.margin, "start": options.start,
                            "players": options.players}
    if "kept" in run:
        meta["kept"] = run["kept"]
    return LearnedModel(np.asarray(weights, dtype=np.float64), meta)


def save_model(model: LearnedModel, path: str | Path) -> Path:
    """Write the model file atomically."""
    return _save_model(model, path)


def summary(options: TrainOptions) -> dict[str, Any]:
    """The value model, for the run's JSON output."""
    return {"estimator": "ridge", "depth": options.depth}
