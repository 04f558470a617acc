"""The ``[train]`` table of a study spec: how a game's learned player is trained.

The training loop's keys (budget, opponent pool, probes, exploration rate, files) are
checked here; the game's own keys (its value model, its reward) by its trainer
(:mod:`games.learning`), found through the study's game. Every key has a default; a wrong
key or value stops with one line naming the file and key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games import registry
from games.capabilities import use
from games.core import InputError
from games.learning import Trainer, check_flag, check_int, check_number
from tuning._limits import JOBS

#: pool entries that are not bot names: the learner itself, its latest snapshot
SELF, SNAPSHOT = "self", "snapshot"


@dataclass(frozen=True)
class TrainSpec:
    """Budget, opponents, exploration and the game's own options of a training run."""

    game: str                       # the registered game whose trainer plays and fits
    options: Any                    # the trainer's own keys (its OPTIONS dataclass)
    opponents: tuple[str, ...]      # the pool: bot names, SELF, SNAPSHOT (game's default)
    probe: tuple[str, ...]          # probe opponents (game's default)
    model: str                      # model file (game's default)
    checkpoint: str                 # checkpoint file (game's default)
    games: int = 2_000_000          # training games in all
    round_games: int = 8_000        # games per round: one model update per round
    block: int = 1_000              # games per worker task (one opponent per block)
    seed: int = 1
    jobs: int = 2
    keep_best: bool = False         # save the model of the best probe (mean score), not the
                                    # last one
    eps_start: float = 0.3          # exploration: epsilon-greedy, linear decay ...
    eps_end: float = 0.02           # ... to this value ...
    eps_decay: float = 0.6          # ... over this fraction of the games
    snapshot_every: int = 25        # rounds between snapshots (the 'snapshot' opponent)
    checkpoint_every: int = 10      # rounds between checkpoints
    probe_games: int = 4_000        # games per probe opponent (a fixed seed set)
    probe_every: int = 25           # rounds between probes

    @property
    def trainer(self) -> Trainer:
        return use(registry.get(self.game), "trainer").trainer()

    def to_dict(self) -> dict[str, Any]:
        """The table's keys, the loop's and the trainer's, as one flat mapping (what a
        checkpoint keeps and :func:`train_spec` reads back)."""
        loop = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name not in ("game", "options")}
        return {**loop, **dataclasses.asdict(self.options)}


def _own_keys(trainer: Trainer) -> set[str]:
    return {f.name for f in dataclasses.fields(trainer.OPTIONS)}


def train_spec(game: str, values: Mapping[str, Any]) -> TrainSpec:
    """A spec from flat ``[train]`` values (as checked by :func:`parse_train` or kept by a
    checkpoint), the game's defaults filled in; lists become tuples."""
    trainer = use(registry.get(game), "trainer").trainer()
    own = _own_keys(trainer)
    merged = {k: tuple(v) if isinstance(v, list) else v
              for k, v in {**trainer.DEFAULTS, **values}.items()}
    options = trainer.OPTIONS(**{k: v for k, v in merged.items() if k in own})
    return TrainSpec(game=game, options=options,
                     **{k: v for k, v in merged.items() if k not in own})


_INT_MIN = {"games": 1, "round_games": 1, "block": 1, "seed": 0, "snapshot_every": 1,
            "checkpoint_every": 1, "probe_games": 0, "probe_every": 1}
_FLOAT_RANGE = {"eps_start": (0.0, 1.0), "eps_end": (0.0, 1.0), "eps_decay": (0.0, 1.0)}
_LOOP_KEYS = {f.name for f in dataclasses.fields(TrainSpec)} - {"game", "options"}


def parse_train(where: str, table: Any, game: str, known_bot: Any = None) -> TrainSpec:
    """Validate a ``[train]`` table for ``game``'s trainer; ``known_bot(text)`` checks an
    opponent name."""
    if not isinstance(table, dict):
        raise InputError(f"{where}: [train]: expected a table")
    trainer = use(registry.get(game), "trainer").trainer()
    own = _own_keys(trainer)
    fields = _LOOP_KEYS | own
    values: dict[str, Any] = {}
    for key, value in table.items():
        at = f"{where}: train.{key}"
        if key not in fields:
            raise InputError(f"{at}: unknown key; allowed keys: {', '.join(sorted(fields))}")
        if key in own:
            value = trainer.check_option(at, key, value)
        elif key == "jobs":  # the rule of -j/--jobs in every command: -1 or 1 .. 1,024
            JOBS.check(value, at)
        elif key in _INT_MIN:
            check_int(at, value, _INT_MIN[key])
        elif key in _FLOAT_RANGE:
            value = check_number(at, value, *_FLOAT_RANGE[key])
        elif key == "keep_best":
            check_flag(at, value)
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
    spec = train_spec(game, values)
    trainer.check_options(where, spec.options)
    if spec.block > spec.round_games:
        raise InputError(f"{where}: train.block: must not exceed train.round_games")
    return spec
