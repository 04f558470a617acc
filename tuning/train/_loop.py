"""The training loop: rounds of parallel games, one model update per round, probes,
checkpoints (atomic and self-checking) and an exact resume. It names no game: the study's
game provides its trainer (:mod:`games.learning`), which plays the blocks, fits the value
model and writes the model file.

Round r plays training games ``r * round_games ..`` of the run (game i's seed comes from
``game_seeds``), in blocks of ``block`` games; block j faces ``opponents[j % len]``. The
samples of a round are concatenated in block order, permuted by a Generator seeded with
(seed, round) and fed to the estimator: the model after any round depends only on the spec,
never on the number of jobs or on where a run was interrupted and resumed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from games.checkpoint import load_checked, save_checked, unpickle
from games.core import BotSpec, Estimate, InputError, seed_blocks
from games.learning import Trainer
from tuning._stopping import held_stop, stop_signals
from tuning.evaluation import WorkerPool, derived_seed
from tuning.train._config import SELF, SNAPSHOT, TrainSpec

CHECKPOINT_VERSION = 1
#: the first line of a training checkpoint (:mod:`games.checkpoint`'s format)
HEADER = b"TABLETUNE-TRAINING-CHECKPOINT v1\n"
KIND = "tabletune training checkpoint"
_FAMILY = b"TABLETUNE-"
Progress = Callable[[dict[str, Any]], None]


@dataclass
class TrainState:
    """Everything a resumed run needs to continue exactly."""

    study: str
    spec: dict[str, Any]     # the [train] table, flat (TrainSpec.to_dict)
    setup: tuple[str, ...]   # what the model is trained for (the trainer's setup)
    estimator: Any           # the trainer's learner
    round: int = 0
    games: int = 0
    snapshot: np.ndarray | None = None
    curve: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    best: dict[str, Any] | None = None   # {"games", "score", "weights"} of the best probe

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Checkpoints written before the setup had its game-neutral name still load."""
        if "kingdom" in state:
            state = {**state, "setup": state["kingdom"]}
            del state["kingdom"]
        self.__dict__.update(state)


def epsilon(spec: TrainSpec, games_done: int) -> float:
    """Exploration rate: linear from eps_start to eps_end over eps_decay of the games."""
    span = spec.eps_decay * spec.games
    frac = 1.0 if span <= 0 else min(1.0, games_done / span)
    return spec.eps_start + (spec.eps_end - spec.eps_start) * frac


def save_checkpoint(state: TrainState, path: str | Path, trainer: Trainer) -> None:
    """Write the state in the checked checkpoint format (:mod:`games.checkpoint`): atomic,
    so a crash mid-write leaves the previous checkpoint, and self-checking, so a truncated
    or edited file is refused on resume."""
    save_checked(path, {"version": CHECKPOINT_VERSION, "feature_set": trainer.FEATURE_SET,
                        "state": state}, HEADER)


def _is_plain_pickle(path: Path) -> bool:
    """True for a file written before the checked format: a bare pickle, which never starts
    as every checked checkpoint of this project does (``TABLETUNE-``); a checked file with
    another or a damaged header is left to :func:`load_checked`, which refuses it."""
    if not path.is_file():
        return False
    with open(path, "rb") as fh:
        return fh.read(len(_FAMILY)) != _FAMILY


def _load_plain(path: Path, moved: Mapping[str, str]) -> Any:
    """The payload of a checkpoint written before the checked format (a bare pickle of the
    same payload), read as it always was."""
    try:
        return unpickle(path.read_bytes(), moved)
    except Exception:  # noqa: BLE001 - any unreadable file gets the same one-line refusal
        raise InputError(f"checkpoint {str(path)!r} is damaged or not a training "
                         "checkpoint") from None


def load_checkpoint(path: str | Path, study: str, trainer: Trainer) -> TrainState:
    """Read a checkpoint of this study and trainer (the checked format, or the bare pickle
    of runs before it); anything else is refused in one line naming the file."""
    path = Path(path)
    if _is_plain_pickle(path):
        data = _load_plain(path, trainer.MOVED)
    else:
        data = load_checked(path, HEADER, KIND, trainer.MOVED)
    state = data.get("state") if isinstance(data, dict) else None
    if not isinstance(state, TrainState):
        raise InputError(f"checkpoint {str(path)!r} is damaged or not a training checkpoint")
    if data.get("version") != CHECKPOINT_VERSION or \
            data.get("feature_set") != trainer.FEATURE_SET:
        raise InputError(f"checkpoint {str(path)!r} was written by another version")
    if state.study != study:
        raise InputError(f"checkpoint {str(path)!r} belongs to study {state.study!r}, "
                         f"not {study!r}")
    return state


def new_state(study: str, spec: TrainSpec, setup: tuple[str, ...]) -> TrainState:
    """A run before its first round: the trainer's fresh learner, seeded with the run's."""
    learner = spec.trainer.new_learner(spec.options, spec.seed, setup)
    return TrainState(study, spec.to_dict(), setup, learner)


def probe(pool: WorkerPool, weights: np.ndarray, spec: TrainSpec, opponents: dict[str, BotSpec],
          setup: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Greedy play against each probe opponent on the same fixed seed set every time."""
    out = {}
    seed = derived_seed(spec.seed, "probe")
    probe_block = spec.trainer.probe_block
    for name in spec.probe:
        tasks = [(weights, opponents[name], seed, s, c, setup, spec.options)
                 for s, c in seed_blocks(spec.probe_games, spec.block)]
        scores = np.concatenate(pool.map(probe_block, tasks)) if tasks else np.zeros(0)
        out[name] = Estimate.from_samples(scores).to_dict()
    return out


def model_of(state: TrainState, spec: TrainSpec) -> Any:
    """The model to save: the latest weights, or with ``keep_best`` those of the best probe
    so far (the mean score over the probe opponents on the fixed probe seed set)."""
    run: dict[str, Any] = {"study": state.study, "games_trained": state.games,
                           "seconds": round(state.seconds, 1)}
    w = state.estimator.weights()
    if spec.keep_best and state.best is not None:
        w = state.best["weights"]
        run["kept"] = {"games": state.best["games"], "probe_mean": state.best["score"]}
    return spec.trainer.make_model(w, state.setup, spec.options, run)


def _save(state: TrainState, spec: TrainSpec) -> None:
    """The checkpoint and the model file of the state now."""
    save_checkpoint(state, spec.checkpoint, spec.trainer)
    spec.trainer.save_model(model_of(state, spec), spec.model)


class TrainingStopped(KeyboardInterrupt):
    """Ctrl-C or SIGTERM stopped :func:`train`. ``checkpoint`` holds the last whole round
    (the model file too); it is None when the first round had not finished."""

    def __init__(self, games: int, total: int, checkpoint: str | None) -> None:
        super().__init__(f"stopped after {games} of {total} training games")
        self.games, self.total, self.checkpoint = games, total, checkpoint


def train(state: TrainState, spec: TrainSpec, opponents: dict[str, BotSpec],
          pool: WorkerPool, progress: Progress | None = None,
          stop_after: int | None = None) -> TrainState:
    """Run rounds until the budget is spent (or ``stop_after`` rounds, for tests).

    Ctrl-C or SIGTERM stops it: a round's update, probe and checkpoint happen as one (a stop
    then waits for them), the last whole round is saved to the checkpoint and the model file
    whatever ``checkpoint_every`` says, and :class:`TrainingStopped` is raised; a resume
    from there ends exactly as an uninterrupted run."""
    rounds = math.ceil(spec.games / spec.round_games)
    done_now = 0
    t_start = time.perf_counter()
    games_at_start = state.games
    with stop_signals():
        try:
            while state.round < rounds:
                if stop_after is not None and done_now >= stop_after:
                    break
                played = _round(state, spec, opponents, pool, rounds)
                done_now += 1
                if progress is not None:
                    wall = time.perf_counter() - t_start
                    rate = (state.games - games_at_start) / wall if wall > 0 else 0.0
                    left = (spec.games - state.games) / rate if rate else None
                    last = state.curve[-1]["score_vs"] if state.curve else None
                    progress({"games": state.games, "total": spec.games, "round": state.round,
                              "rounds": rounds, "games_per_s": rate, "seconds_left": left,
                              **played, "score_vs": played["score_vs"] or last})
        except KeyboardInterrupt:
            kept = None
            if state.round > 0:
                with held_stop():
                    _save(state, spec)
                kept = spec.checkpoint
            raise TrainingStopped(state.games, spec.games, kept) from None
    return state


def _round(state: TrainState, spec: TrainSpec, opponents: dict[str, BotSpec],
           pool: WorkerPool, rounds: int) -> dict[str, Any]:
    """Play round ``state.round`` and update ``state`` with it; returns what the progress
    line shows (exploration, samples, training score, the probe's scores if one ran)."""
    t0 = time.perf_counter()
    r = state.round
    first = r * spec.round_games
    count = min(spec.round_games, spec.games - first)
    w = state.estimator.weights()
    eps = epsilon(spec, first)
    seed = derived_seed(spec.seed, "train")
    tasks = []
    for s, c in seed_blocks(count, spec.block):
        start = first + s
        name = spec.opponents[(start // spec.block) % len(spec.opponents)]
        snap = state.snapshot if name == SNAPSHOT else None
        if name == SNAPSHOT and snap is None:
            name = SELF
        opp = None if name in (SELF, SNAPSHOT) else opponents[name]
        tasks.append((w, eps, opp, snap, seed, start, c, state.setup, spec.options))
    parts = pool.map(spec.trainer.play_block, tasks)  # a stop here keeps the round before
    feats = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    order = np.random.default_rng([spec.seed, r]).permutation(len(y))
    with held_stop():  # the model, its probe and the checkpoint change together
        state.estimator.update(feats[order], y[order])
        state.round += 1
        state.games = first + count
        if state.round % spec.snapshot_every == 0:
            state.snapshot = state.estimator.weights().copy()
        probe_now = state.round % spec.probe_every == 0 or state.round == rounds
        scores = None
        if probe_now and spec.probe_games > 0:
            scores = probe(pool, state.estimator.weights(), spec, opponents, state.setup)
            state.curve.append({"games": state.games, "score_vs": scores})
            mean = float(np.mean([e["mean"] for e in scores.values()]))
            if state.best is None or mean > state.best["score"]:
                state.best = {"games": state.games, "score": mean,
                              "weights": state.estimator.weights().copy()}
        state.seconds += time.perf_counter() - t0
        if state.round % spec.checkpoint_every == 0 or state.round == rounds:
            _save(state, spec)
    return {"eps": eps, "samples": int(len(y)),
            "train_score": float(np.mean([p[2] for p in parts])), "score_vs": scores}
