"""The learned Dominion player's trainer: the protocol of :mod:`games.learning`, which the
game-neutral loop of `tabletune train` drives.

A model is a linear value of the engine's indicator features (``games.dominion._features``)
over the kingdom it is trained for, in that kingdom's layout (the sources' cards for their
kingdoms, else the kingdom's own cards); the samples are (features after a buy, final reward)
pairs from the games of :mod:`games.dominion.learning._selfplay`; the value models are those
of :mod:`games.dominion.learning._estimators`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from games.core import BotSpec
from games.dominion._features import FEATURE_SET, GENERAL, NF, SOURCES, Layout, layout_for
from games.dominion._kingdoms import draw_random, parse_kingdom
from games.dominion._learned import LearnedModel
from games.dominion._learned import save_model as _save_model
from games.dominion.learning import _selfplay as selfplay
from games.dominion.learning._estimators import make_estimator
from games.dominion.learning._options import TrainOptions, check_option, check_options

__all__ = [
    "DEFAULTS", "FEATURE_SET", "MOVED", "N_FEATURES", "OPTIONS", "check_option",
    "check_options", "initial_weights", "make_model", "new_learner", "play_block",
    "probe_block", "save_model", "setup", "summary",
]

#: the sources' layout; a kingdom with other cards has the kingdom layout's size
#: (``games.dominion._features.layout_for``)
N_FEATURES = NF
OPTIONS = TrainOptions
DEFAULTS: Mapping[str, Any] = {
    "opponents": ("self", "big-money", "smithy-big-money"),
    "probe": ("big-money",),
    "model": "runs/dominion-learned/model.npz",
    "checkpoint": "runs/dominion-learned/checkpoint.pkl",
}
#: where the value models were pickled from before they moved beside the game
MOVED: Mapping[str, str] = {"tuning.train.estimators": "games.dominion.learning._estimators",
                            "games.dominion.learning.estimators":
                                "games.dominion.learning._estimators"}


def setup(game_options: Mapping[str, Any]) -> tuple[str, ...]:
    """The kingdom of the study's checked ``[game]`` options."""
    kingdom = game_options["kingdom"]
    return parse_kingdom(kingdom[0] if len(kingdom) == 1 else list(kingdom))


def initial_weights(options: TrainOptions, layout: Layout = SOURCES) -> np.ndarray:
    """Zero weights, except a bonus ``guide_init`` for following the guide list."""
    w = np.zeros(layout.nf)
    if options.guide:
        w[layout.guide + 1:layout.guide + layout.guide_size:2] = options.guide_init
    return w


def new_learner(options: TrainOptions, seed: int, setup: tuple[str, ...] | None = None
                ) -> Any:
    """The value model the options name, seeded with the run's root seed, sized for the
    layout of the kingdom ``setup`` (None: the sources')."""
    o = options
    layout = SOURCES if setup is None else layout_for(setup)
    if o.layout == "general":
        layout = GENERAL
    return make_estimator(o.estimator, eta0=o.eta0, alpha=o.alpha, visit_cap=o.visit_cap,
                          seed=seed, average=o.sgd_average, ema=o.weight_ema,
                          forget=o.forget, ridge=o.ridge, smooth=o.smooth,
                          init=initial_weights(o, layout), layout=layout)


def play_block(weights: np.ndarray, eps: float, opponent: BotSpec | None,
               opp_weights: np.ndarray | None, seed: int, start: int, count: int,
               setup: tuple[str, ...], options: TrainOptions
               ) -> tuple[np.ndarray, np.ndarray, float]:
    """Training games of the learner: see :func:`games.dominion.learning._selfplay.play_block`
    (the general layout plays a random kingdom of its own, see :func:`block_kingdom`)."""
    return selfplay.play_block(weights, eps, opponent, opp_weights, seed, start, count,
                               block_kingdom(setup, options, seed, start),
                               options.margin, options.guide, options.explore)


def block_kingdom(setup: tuple[str, ...], options: TrainOptions, seed: int, start: int
                  ) -> tuple[str, ...]:
    """The kingdom of a block of games: the run's own, or for the general layout ten
    base-set cards drawn from (seed, first game of the block), so every block of a run
    meets a new board and a resumed run meets the same ones."""
    if options.layout != "general":
        return setup
    mixed = np.random.SeedSequence([int(seed) & (2**64 - 1), int(start)])
    return draw_random(int(mixed.generate_state(1, np.uint64)[0]))


def probe_block(weights: np.ndarray, opponent: BotSpec, seed: int, start: int, count: int,
                setup: tuple[str, ...], options: TrainOptions) -> np.ndarray:
    """The greedy learner's per-game scores against a probe opponent."""
    return selfplay.probe_block(weights, opponent, seed, start, count,
                                block_kingdom(setup, options, seed, start), options.guide,
                                options.margin)


def make_model(weights: np.ndarray, setup: tuple[str, ...], options: TrainOptions,
               run: Mapping[str, Any]) -> LearnedModel:
    """The model file's content: weights, kingdom, and what a reader needs to play it as it
    was trained (its reward margin and guide list) beside the run's facts."""
    meta: dict[str, Any] = {"study": run["study"], "games_trained": run["games_trained"],
                            "estimator": options.estimator, "seconds": run["seconds"],
                            "margin": options.margin}
    if options.guide:
        meta["guide"] = options.guide
    if "kept" in run:
        meta["kept"] = run["kept"]
    if options.layout == "general":  # trained on random kingdoms: it names none
        meta["layout"] = "general"
        return LearnedModel(weights, (), meta)
    return LearnedModel(weights, setup, meta)


def save_model(model: LearnedModel, path: str | Path) -> Path:
    """Write the model file atomically."""
    return _save_model(model, path)


def summary(options: TrainOptions) -> dict[str, Any]:
    """The estimator, for the run's JSON output."""
    return {"estimator": options.estimator}
