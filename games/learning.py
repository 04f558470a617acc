"""What a game's trainer provides: the protocol that the game-neutral training loop of
`tabletune train` drives.

A game that ships a trainer sets ``has_trainer`` and returns the trainer from its
``trainer()`` (the ``trainer`` capability of :mod:`games.capabilities`): a module (or any
object) with the attributes of :class:`Trainer`. The loop owns what every training run
shares: rounds of parallel games with seeds derived from the run's seed, the opponent pool
(the learner itself, its latest snapshot, named bots), the exploration schedule, probes on a
fixed seed set, atomic checkpoints and an exact resume, stops on Ctrl-C and SIGTERM. The
trainer owns what only the game knows: its features, the value model fitted on them, how a
block of games is played and scored, its model files and its own keys of a spec's
``[train]`` table.

Worker tasks call ``play_block`` and ``probe_block`` with plain data only (weights, bots,
seeds, the setup and the trainer's options dataclass), so they must be module-level
functions: then a block gives the same result in any process and with any number of jobs.

The checkers below are shared by the loop's keys and a trainer's own, so every ``[train]``
key is refused in the same words.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from games.errors import InputError


class Learner(Protocol):
    """A value model fitted round after round on (features, reward) samples; it is pickled
    into checkpoints, so a resumed run continues it exactly."""

    def update(self, features: np.ndarray, rewards: np.ndarray) -> None:
        """Fit one round's samples (rows of ``features``, one reward each)."""

    def weights(self) -> np.ndarray:
        """The weights a learner plays with now (``N_FEATURES`` numbers)."""


@runtime_checkable
class Trainer(Protocol):
    """What a game's trainer provides to the training loop."""

    #: names the feature layout: a checkpoint written for another one is refused
    FEATURE_SET: str
    #: the number of features, the length of a weight vector (where the features follow
    #: the setup, that of the default setup; ``new_learner`` sizes a run's own)
    N_FEATURES: int
    #: dataclass of the trainer's own ``[train]`` keys, every field with a default
    OPTIONS: type
    #: the game's defaults for the loop's keys that name bots or files: ``opponents``,
    #: ``probe``, ``model``, ``checkpoint`` (each required)
    DEFAULTS: Mapping[str, Any]
    #: old module -> new module of classes pickled in checkpoints that have moved, so a
    #: checkpoint written before the move still resumes
    MOVED: Mapping[str, str]

    def check_option(self, at: str, key: str, value: Any) -> Any:
        """One of the trainer's own keys checked (InputError starting with ``at``),
        normalised (e.g. an integer given for a float)."""

    def check_options(self, where: str, options: Any) -> None:
        """Rules between the trainer's own keys (InputError starting with ``where``)."""

    def setup(self, game_options: Mapping[str, Any]) -> tuple[str, ...]:
        """The fixed setup a model is trained for, from the study's checked ``[game]``
        options (e.g. the cards on the table); it travels with every worker task."""

    def new_learner(self, options: Any, seed: int, setup: tuple[str, ...]) -> Learner:
        """A fresh value model for a run with root ``seed`` and this ``setup`` (the
        features may depend on it: the cards on the table)."""

    def play_block(self, weights: np.ndarray, eps: float, opponent: Any,
                   opp_weights: np.ndarray | None, seed: int, start: int, count: int,
                   setup: tuple[str, ...], options: Any
                   ) -> tuple[np.ndarray, np.ndarray, float]:
        """Training games ``start .. start+count-1`` of the run with root ``seed``: the
        learner (``weights``, exploring with rate ``eps``) against ``opponent`` (a
        ``BotSpec``; None: itself, both seats learning; ``opp_weights``: a frozen snapshot).
        Returns (feature rows, reward per row, the learner's mean score)."""

    def probe_block(self, weights: np.ndarray, opponent: Any, seed: int, start: int,
                    count: int, setup: tuple[str, ...], options: Any) -> np.ndarray:
        """The greedy learner's per-game scores (1 / 0.5 / 0) against ``opponent``."""

    def make_model(self, weights: np.ndarray, setup: tuple[str, ...], options: Any,
                   run: Mapping[str, Any]) -> Any:
        """The model to save (with a ``meta`` dict): ``run`` holds ``study``,
        ``games_trained``, ``seconds`` and, for a kept best probe, ``kept``."""

    def save_model(self, model: Any, path: str | Path) -> Path:
        """Write the model atomically; returns its path."""

    def summary(self, options: Any) -> dict[str, Any]:
        """The trainer's fields in the run's JSON output (e.g. its estimator)."""


def check_int(at: str, value: Any, low: int) -> int:
    """An integer of at least ``low`` (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise InputError(f"{at}: expected an integer >= {low}, got {value!r}")
    return value


def check_number(at: str, value: Any, low: float, high: float) -> float:
    """A number in ``[low, high]``, as a float (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not low <= value <= high:
        raise InputError(f"{at}: expected a number in [{low}, {high}], got {value!r}")
    return float(value)


def check_choice(at: str, value: Any, allowed: tuple[str, ...]) -> str:
    """One of ``allowed``."""
    if value not in allowed:
        raise InputError(f"{at}: {value!r} is not one of {', '.join(allowed)}")
    return value


def check_flag(at: str, value: Any) -> bool:
    """``true`` or ``false``."""
    if not isinstance(value, bool):
        raise InputError(f"{at}: expected true or false, got {value!r}")
    return value
