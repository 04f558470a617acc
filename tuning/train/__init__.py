"""Training a game's learned player: the game-neutral loop of `tabletune train`. Rounds of
parallel self-play and pool play feed the value model of the game's trainer (the protocol
of :mod:`games.learning`, found through the game's ``trainer()``).

- :class:`TrainSpec` / :func:`parse_train` / :func:`train_spec`: the ``[train]`` table of a
  study spec (the loop's keys; the trainer's own in ``TrainSpec.options``);
- :func:`train`, :func:`new_state`, :func:`load_checkpoint`: rounds, probes, checkpoints
  (:class:`TrainingStopped`: Ctrl-C or SIGTERM, the last whole round saved).
"""

from tuning.train.config import SELF, SNAPSHOT, TrainSpec, parse_train, train_spec
from tuning.train.loop import (
    TrainingStopped,
    TrainState,
    epsilon,
    load_checkpoint,
    model_of,
    new_state,
    probe,
    save_checkpoint,
    train,
)

__all__ = [
    "SELF", "SNAPSHOT", "TrainSpec", "TrainState", "TrainingStopped", "epsilon",
    "load_checkpoint", "model_of", "new_state", "parse_train", "probe", "save_checkpoint",
    "train", "train_spec",
]
