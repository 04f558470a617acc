"""The learned Dominion player's own keys of a ``[train]`` table: its value model, the
reward, the guide list and how it explores.

The training loop's keys (budget, pool, probes, exploration rate, files) are checked by the
loop; these are checked here, one line naming the key for a wrong value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core import InputError
from games.learning import check_choice, check_int, check_number

ESTIMATORS = ("sgd", "ridge", "average")
EXPLORE = ("random", "runner-up")
#: feature layouts a run may ask for: the kingdom's own ("kingdom": the sources' or the
#: kingdom layout, by its cards) or the general one (random kingdoms, any kingdom)
LAYOUT_CHOICES = ("kingdom", "general")


@dataclass(frozen=True)
class TrainOptions:
    """The value model and the reward of a training run."""

    estimator: str = "sgd"
    eta0: float = 0.002             # SGD step size (constant)
    alpha: float = 1e-7             # SGD L2 penalty
    sgd_average: int = 0            # > 0: averaged SGD, averaging from this many samples on
    weight_ema: float = 0.0         # > 0: play with an exponential average of the weights
                                    # over rounds (this decay per round): a smoother policy
    forget: float = 0.9             # ridge: old rounds' statistics shrink by this per round
    ridge: float = 1.0              # ridge: L2 penalty
    smooth: float = 1000.0          # ridge: penalty on differences of neighbouring bins
    guide: str = ""                 # a buy list whose choice is one more feature ("": none)
    guide_init: float = 0.0         # initial weight of following the guide (large: start
                                    # as the guide list)
    explore: str = "random"         # exploration: random legal buys or the runner-up
    visit_cap: int = 250            # the seed's rule: visits counted up to this cap
    margin: float = 0.01            # reward = outcome (+1/0/-1) + margin * VP difference
    layout: str = "kingdom"         # "general": cards by what they do, a new random
                                    # base-set kingdom per block of games


_INT_MIN = {"visit_cap": 1, "sgd_average": 0}
_FLOAT_RANGE = {"forget": (0.0, 1.0), "ridge": (1e-9, 1e9), "smooth": (0.0, 1e9),
                "guide_init": (0.0, 1000.0), "weight_ema": (0.0, 0.999), "eta0": (0.0, 10.0),
                "alpha": (0.0, 10.0), "margin": (0.0, 10.0)}


def check_option(at: str, key: str, value: Any) -> Any:
    """One key of :class:`TrainOptions`, checked; ``at`` starts the message."""
    if key in _INT_MIN:
        return check_int(at, value, _INT_MIN[key])
    if key in _FLOAT_RANGE:
        return check_number(at, value, *_FLOAT_RANGE[key])
    if key == "estimator":
        return check_choice(at, value, ESTIMATORS)
    if key == "explore":
        return check_choice(at, value, EXPLORE)
    if key == "layout":
        return check_choice(at, value, LAYOUT_CHOICES)
    if key == "guide":
        if not isinstance(value, str):
            raise InputError(f"{at}: expected a buy list (text), got {value!r}")
        if value.strip():
            from games.dominion._bots import guide_list
            try:
                guide_list(value)
            except InputError as exc:
                raise InputError(f"{at}: {exc}") from None
        return value
    raise InputError(f"{at}: not a key of the learned player")


def check_options(where: str, options: TrainOptions) -> None:
    """Rules between keys: only the ridge estimator starts from given weights."""
    if options.guide_init > 0 and options.estimator != "ridge":
        raise InputError(f"{where}: train.guide_init: only the ridge estimator starts from "
                         "given weights")
