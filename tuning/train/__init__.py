"""Training a game's learned player: the game-neutral loop of `tabletune train`. Rounds of
parallel self-play and pool play feed the value model of the game's trainer (the protocol
of :mod:`games.learning`, found through the game's ``trainer()``).

Public (everything else is private; each name loads its module on first use):

- :class:`TrainSpec` / :func:`parse_train` / :func:`train_spec`: the ``[train]`` table of a
  study spec (the loop's keys; the trainer's own in ``TrainSpec.options``; ``_config``);
- :func:`train`, :func:`new_state`, :func:`load_checkpoint`: rounds, probes, checkpoints
  (:class:`TrainingStopped`: Ctrl-C or SIGTERM, the last whole round saved; ``_loop``).
"""

from typing import TYPE_CHECKING

from games.lazy_exports import lazy_exports

if TYPE_CHECKING:  # what the names are, for type checkers; loaded on first use
    from tuning.train._config import SELF, SNAPSHOT, TrainSpec, parse_train, train_spec
    from tuning.train._loop import (
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

#: each public name and the private module that defines it
_EXPORTS = {
    "parse_train": "_config",
    "SELF": "_config",
    "SNAPSHOT": "_config",
    "train_spec": "_config",
    "TrainSpec": "_config",
    "epsilon": "_loop",
    "load_checkpoint": "_loop",
    "model_of": "_loop",
    "new_state": "_loop",
    "probe": "_loop",
    "save_checkpoint": "_loop",
    "train": "_loop",
    "TrainingStopped": "_loop",
    "TrainState": "_loop",
}
__all__ = [
    "epsilon", "load_checkpoint", "model_of", "new_state", "parse_train", "probe",
    "save_checkpoint", "SELF", "SNAPSHOT", "train", "train_spec", "TrainingStopped", "TrainSpec",
    "TrainState",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
