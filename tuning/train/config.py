"""The ``[train]`` table of a study spec: how a learned Dominion player is trained.

Every key has a default; a wrong key or value stops with one line naming the file and key.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from games.core import InputError
from tuning.commands.limits import JOBS

ESTIMATORS = ("sgd", "ridge", "average")
EXPLORE = ("random", "runner-up")
#: pool entries that are not bot names: the learner itself, its latest snapshot
SELF, SNAPSHOT = "self", "snapshot"


@dataclass(frozen=True)
class TrainSpec:
    """Budget, opponents, exploration and the value model of a training run."""

    games: int = 2_000_000          # training games in all
    round_games: int = 8_000        # games per round: one model update per round
    block: int = 1_000              # games per worker task (one opponent per block)
    seed: int = 1
    jobs: int = 2
    opponents: tuple[str, ...] = (SELF, "big-money", "smithy-big-money")
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
    keep_best: bool = False         # save the model of the best probe (mean score), not the
                                    # last one
    explore: str = "random"         # exploration: random legal buys or the runner-up
    visit_cap: int = 250            # the seed's rule: visits counted up to this cap
    margin: float = 0.01            # reward = outcome (+1/0/-1) + margin * VP difference
    eps_start: float = 0.3          # exploration: epsilon-greedy, linear decay ...
    eps_end: float = 0.02           # ... to this value ...
    eps_decay: float = 0.6          # ... over this fraction of the games
    snapshot_every: int = 25        # rounds between snapshots (the 'snapshot' opponent)
    checkpoint_every: int = 10      # rounds between checkpoints
    probe: tuple[str, ...] = ("big-money",)
    probe_games: int = 4_000        # games per probe opponent (a fixed seed set)
    probe_every: int = 25           # rounds between probes
    model: str = "runs/dominion-learned/model.npz"
    checkpoint: str = "runs/dominion-learned/checkpoint.pkl"

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


_INT_MIN = {"games": 1, "round_games": 1, "block": 1, "seed": 0, "visit_cap": 1,
            "sgd_average": 0, "snapshot_every": 1, "checkpoint_every": 1, "probe_games": 0,
            "probe_every": 1}
_FLOAT_RANGE = {"forget": (0.0, 1.0), "ridge": (1e-9, 1e9), "smooth": (0.0, 1e9),
                "guide_init": (0.0, 1000.0), "weight_ema": (0.0, 0.999), "eta0": (0.0, 10.0),
                "alpha": (0.0, 10.0),
                "margin": (0.0, 10.0), "eps_start": (0.0, 1.0), "eps_end": (0.0, 1.0),
                "eps_decay": (0.0, 1.0)}


def parse_train(where: str, table: Any, known_bot: Any = None) -> TrainSpec:
    """Validate a ``[train]`` table; ``known_bot(text)`` checks an opponent name."""
    if not isinstance(table, dict):
        raise InputError(f"{where}: [train]: expected a table")
    fields = {f.name for f in dataclasses.fields(TrainSpec)}
    values: dict[str, Any] = {}
    for key, value in table.items():
        at = f"{where}: train.{key}"
        if key not in fields:
            raise InputError(f"{at}: unknown key; allowed keys: {', '.join(sorted(fields))}")
        if key == "jobs":  # the rule of -j/--jobs in every command: -1 or 1 .. 1,024
            JOBS.check(value, at)
        elif key in _INT_MIN:
            if isinstance(value, bool) or not isinstance(value, int) or value < _INT_MIN[key]:
                raise InputError(f"{at}: expected an integer >= {_INT_MIN[key]}, got {value!r}")
        elif key in _FLOAT_RANGE:
            lo, hi = _FLOAT_RANGE[key]
            if isinstance(value, bool) or not isinstance(value, int | float) \
                    or not lo <= value <= hi:
                raise InputError(f"{at}: expected a number in [{lo}, {hi}], got {value!r}")
            value = float(value)
        elif key == "estimator":
            if value not in ESTIMATORS:
                raise InputError(f"{at}: {value!r} is not one of {', '.join(ESTIMATORS)}")
        elif key == "explore":
            if value not in EXPLORE:
                raise InputError(f"{at}: {value!r} is not one of {', '.join(EXPLORE)}")
        elif key == "keep_best":
            if not isinstance(value, bool):
                raise InputError(f"{at}: expected true or false, got {value!r}")
        elif key == "guide":
            if not isinstance(value, str):
                raise InputError(f"{at}: expected a buy list (text), got {value!r}")
            if value.strip():
                from games.dominion.bots import guide_list
                try:
                    guide_list(value)
                except InputError as exc:
                    raise InputError(f"{at}: {exc}") from None
        elif key in ("opponents", "probe"):
            if not isinstance(value, list) or not value or \
                    not all(isinstance(v, str) for v in value):
                raise InputError(f"{at}: expected a non-empty list of bot names")
            for v in value:
                if v in (SELF, SNAPSHOT) and key == "opponents":
                    continue
                if known_bot is not None:
                    try:
                        known_bot(v)
                    except InputError as exc:
                        raise InputError(f"{at}: {exc}") from None
            value = tuple(value)
        elif not isinstance(value, str) or not value:
            raise InputError(f"{at}: expected a non-empty string, got {value!r}")
        values[key] = value
    spec = TrainSpec(**values)
    if spec.guide_init > 0 and spec.estimator != "ridge":
        raise InputError(f"{where}: train.guide_init: only the ridge estimator starts from "
                         "given weights")
    if spec.block > spec.round_games:
        raise InputError(f"{where}: train.block: must not exceed train.round_games")
    return spec
