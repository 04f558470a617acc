"""Training the learned Dominion player: value models over engine features, fitted on
(features after a buy, final reward) pairs from parallel self-play and pool play.

- :class:`TrainSpec` / :func:`parse_train`: the ``[train]`` table of a study spec;
- :func:`train`, :func:`new_state`, :func:`load_checkpoint`: rounds, probes, checkpoints
  (:class:`TrainingStopped`: Ctrl-C or SIGTERM, the last whole round saved);
- :class:`SGDValue`, :class:`AverageRewardValue`: the linear value models.
"""

from tuning.train.config import ESTIMATORS, SELF, SNAPSHOT, TrainSpec, parse_train
from tuning.train.estimators import AverageRewardValue, SGDValue, make_estimator, one_hot
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
    "ESTIMATORS", "SELF", "SNAPSHOT", "AverageRewardValue", "SGDValue", "TrainSpec",
    "TrainState", "TrainingStopped", "epsilon", "load_checkpoint", "make_estimator",
    "model_of", "new_state", "one_hot", "parse_train", "probe", "save_checkpoint", "train",
]
