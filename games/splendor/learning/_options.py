"""The learned Splendor player's own keys of a ``[train]`` table: how deep it searches while
it learns, its reward and its value model. The training loop's keys (budget, pool, probes,
exploration rate, files) are checked by the loop; these here, one line naming the key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core import InputError
from games.learning import check_int, check_number


@dataclass(frozen=True)
class TrainOptions:
    """The search, reward and value model of a training run."""

    depth: int = 1          # whole turns the learner searches while it plays (1: fastest)
    margin: float = 0.02    # reward = result (+1/0/-1) + margin * points ahead of the rival
    ridge: float = 1.0      # L2 penalty of the least squares (not on the bias)
    forget: float = 0.9     # a round's statistics weigh this much less each later round
    start: str = ""         # a model file the learner plays with until its first update
                            # ("": points ahead of the rival, as before any game)
    players: int = 2        # seats while it learns (2-4; probes play two)


_INT_RANGE = {"depth": (1, 3), "players": (2, 4)}
_FLOAT_RANGE = {"margin": (0.0, 1.0), "ridge": (0.0, 1e9), "forget": (0.0, 1.0)}


def check_option(at: str, key: str, value: Any) -> Any:
    """One key of :class:`TrainOptions`, checked; ``at`` starts the message."""
    if key == "start":
        if not isinstance(value, str):
            raise InputError(f"{at}: expected a model file's path, got {value!r}")
        if value:
            from games.splendor._learned import load_model
            try:
                load_model(value)
            except InputError as exc:
                raise InputError(f"{at}: {exc}") from None
        return value
    if key in _INT_RANGE:
        low, high = _INT_RANGE[key]
        value = check_int(at, value, low)
        if value > high:
            raise InputError(f"{at}: expected an integer <= {high}, got {value!r}")
        return value
    if key in _FLOAT_RANGE:
        return check_number(at, value, *_FLOAT_RANGE[key])
    raise InputError(f"{at}: not a key of the learned Splendor player (its keys: "
                     f"{', '.join(TrainOptions.__dataclass_fields__)})")


def check_options(where: str, options: TrainOptions) -> None:
    """No rules between the keys: each is checked on its own."""
