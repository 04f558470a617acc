"""The training loop names no game: a toy game's trainer (four arms; the learner keeps each
arm's mean reward) trains, probes, checkpoints and resumes through it, and `tabletune train`
runs it, as it does Dominion's.

This module is the toy trainer itself (the attributes of ``games.learning.Trainer``), so
worker processes find its functions by name.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from games import registry
from games.atomic import atomic_open
from games.core import BotSpec, InputError, game_seeds
from games.learning import Trainer, check_number
from tuning.cli import app
from tuning.evaluation import WorkerPool
from tuning.train import (
    TrainingStopped,
    load_checkpoint,
    new_state,
    parse_train,
    save_checkpoint,
    train,
    train_spec,
)

# ---------------------------------------------------------------- the toy trainer

ARMS = np.array([0.1, 0.5, 0.3, 0.2])  # mean reward of each arm: arm 1 is best
FEATURE_SET = "toy-arms-v1"
N_FEATURES = len(ARMS)
MOVED: Mapping[str, str] = {}
DEFAULTS: Mapping[str, Any] = {"opponents": ("self",), "probe": ("rival",),
                               "model": "runs/toy/model.json", "checkpoint": "runs/toy/ck.pkl"}


@dataclasses.dataclass(frozen=True)
class ToyOptions:
    noise: float = 0.5


OPTIONS = ToyOptions


@dataclasses.dataclass
class ToyModel:
    weights: np.ndarray
    setup: tuple[str, ...]
    meta: dict[str, Any]


class MeanReward:
    """Each arm's mean reward so far."""

    def __init__(self) -> None:
        self.total = np.zeros(N_FEATURES)
        self.count = np.zeros(N_FEATURES)

    def update(self, features: np.ndarray, rewards: np.ndarray) -> None:
        np.add.at(self.total, features[:, 0], rewards)
        np.add.at(self.count, features[:, 0], 1)

    def weights(self) -> np.ndarray:
        return self.total / np.maximum(self.count, 1)


def check_option(at: str, key: str, value: Any) -> Any:
    return check_number(at, value, 0.0, 5.0)


def check_options(where: str, options: ToyOptions) -> None:
    pass


def setup(game_options: Mapping[str, Any]) -> tuple[str, ...]:
    return ("four-arms",)


def new_learner(options: ToyOptions, seed: int, setup: tuple[str, ...]) -> MeanReward:
    return MeanReward()


def play_block(weights: np.ndarray, eps: float, opponent: Any, opp_weights: Any, seed: int,
               start: int, count: int, setup: tuple[str, ...], options: ToyOptions
               ) -> tuple[np.ndarray, np.ndarray, float]:
    arms, rewards = [], []
    for s in game_seeds(seed, count, start):
        rng = np.random.default_rng(int(s))
        arm = int(rng.integers(N_FEATURES)) if rng.random() < eps else int(np.argmax(weights))
        arms.append([arm])
        rewards.append(ARMS[arm] + options.noise * rng.normal())
    y = np.array(rewards)
    return np.array(arms, dtype=np.int64), y, float(np.mean(y > 0.3))


def probe_block(weights: np.ndarray, opponent: Any, seed: int, start: int, count: int,
                setup: tuple[str, ...], options: ToyOptions) -> np.ndarray:
    rng = np.random.default_rng([seed, start])
    return (ARMS[int(np.argmax(weights))] + 0.1 * rng.normal(size=count) > 0.3) * 1.0


def make_model(weights: np.ndarray, setup: tuple[str, ...], options: ToyOptions,
               run: Mapping[str, Any]) -> ToyModel:
    return ToyModel(weights, setup, {**run, "noise": options.noise})


def save_model(model: ToyModel, path: str | Path) -> Path:
    with atomic_open(path, "w") as fh:
        json.dump({"weights": model.weights.tolist(), "setup": list(model.setup),
                   "meta": model.meta}, fh)
    return Path(path)


def summary(options: ToyOptions) -> dict[str, Any]:
    return {"noise": options.noise}


class ToyLearnerGame(registry.Game):
    in_contract_suite = False  # a stand-in for these tests, not a real game
    name = "toy-learner"
    summary = "four arms (tests only)"
    has_trainer = True
    default_opponents = ("rival",)

    def bots(self) -> dict[str, registry.BotInfo]:
        return {"learner": registry.BotInfo("learner", "the learned player"),
                "rival": registry.BotInfo("rival", "a probe opponent")}

    def trainer(self) -> Any:
        return sys.modules[__name__]


@pytest.fixture(autouse=True)
def toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._GAMES, ToyLearnerGame.name, ToyLearnerGame())


# ---------------------------------------------------------------- the tests


def _spec(folder: Path, **kw: Any) -> Any:
    values = dict(games=1200, round_games=200, block=50, probe_games=100, probe_every=2,
                  checkpoint_every=1, snapshot_every=1, eps_start=0.6, keep_best=True,
                  opponents=("self", "snapshot", "rival"), model=str(folder / "m.json"),
                  checkpoint=str(folder / "ck.pkl"))
    return train_spec("toy-learner", {**values, **kw})


def test_the_toy_module_is_a_trainer():
    assert isinstance(registry.get("toy-learner").trainer(), Trainer)


def test_the_loop_trains_any_game_the_same_with_any_jobs_and_after_a_resume(tmp_path):
    rival = {"rival": BotSpec("rival")}
    whole_spec, part_spec = _spec(tmp_path / "whole"), _spec(tmp_path / "part")
    with WorkerPool(1) as pool:
        whole = train(new_state("t", whole_spec, ("four-arms",)), whole_spec, rival, pool)
    assert whole.games == 1200 and int(np.argmax(whole.estimator.weights())) == 1
    assert [p["games"] for p in whole.curve] == [400, 800, 1200]
    with WorkerPool(2) as pool:
        part = train(new_state("t", part_spec, ("four-arms",)), part_spec, rival, pool,
                     stop_after=2)
    assert part.games == 400
    kept = load_checkpoint(part_spec.checkpoint, "t", part_spec.trainer)
    with WorkerPool(2) as pool:
        resumed = train(kept, part_spec, rival, pool)
    assert np.array_equal(resumed.estimator.weights(), whole.estimator.weights())
    assert resumed.curve == whole.curve
    model = json.loads(Path(part_spec.model).read_text())
    assert model["setup"] == ["four-arms"] and model["meta"]["noise"] == 0.5
    assert model["meta"]["kept"]["games"] in (400, 800, 1200)
    assert model["meta"]["games_trained"] == 1200


def test_a_stop_keeps_the_last_whole_round(tmp_path):
    spec = _spec(tmp_path, checkpoint_every=1000)

    def stop_at_round_3(event: dict) -> None:
        if event["round"] == 3:
            raise KeyboardInterrupt

    with WorkerPool(1) as pool, pytest.raises(TrainingStopped) as info:
        train(new_state("t", spec, ("four-arms",)), spec, {"rival": BotSpec("rival")}, pool,
              progress=stop_at_round_3)
    assert info.value.games == 600 and info.value.checkpoint == spec.checkpoint
    assert load_checkpoint(spec.checkpoint, "t", spec.trainer).round == 3


def _write_plain_checkpoint(state: Any, path: Path) -> None:
    """The writer of training checkpoints before the checked format, as it was: a bare
    atomic pickle of the payload."""
    import pickle

    with atomic_open(path) as fh:
        pickle.dump({"version": 1, "feature_set": FEATURE_SET, "state": state}, fh)


def test_a_checkpoint_is_checked_and_one_of_the_plain_format_still_resumes(tmp_path):
    from tuning.train._loop import HEADER

    rival = {"rival": BotSpec("rival")}
    whole_spec, part_spec = _spec(tmp_path / "whole"), _spec(tmp_path / "part")
    with WorkerPool(1) as pool:
        whole = train(new_state("t", whole_spec, ("four-arms",)), whole_spec, rival, pool)
        part = train(new_state("t", part_spec, ("four-arms",)), part_spec, rival, pool,
                     stop_after=2)
    checked = Path(part_spec.checkpoint).read_bytes()
    assert checked.startswith(HEADER) and part.round == 2
    old = tmp_path / "old.pkl"
    _write_plain_checkpoint(part, old)
    assert not old.read_bytes().startswith(b"TABLETUNE-")
    kept = load_checkpoint(old, "t", part_spec.trainer)
    assert kept.round == 2 and kept.curve == part.curve
    with WorkerPool(1) as pool:
        resumed = train(kept, part_spec, rival, pool)
    assert np.array_equal(resumed.estimator.weights(), whole.estimator.weights())
    assert resumed.curve == whole.curve
    # the next checkpoint of a run resumed from the plain format is a checked one
    assert Path(part_spec.checkpoint).read_bytes().startswith(HEADER)
    assert load_checkpoint(part_spec.checkpoint, "t", part_spec.trainer).games == 1200


@pytest.mark.parametrize("damage,says", [
    (lambda raw: raw[: len(raw) // 2], "corrupt (checksum mismatch)"),
    (lambda raw: raw[:-1] + bytes([raw[-1] ^ 1]), "corrupt (checksum mismatch)"),
    (lambda raw: raw[:5], "damaged or not a training checkpoint"),
    (lambda raw: b"", "damaged or not a training checkpoint"),
    (lambda raw: b"TABLETUNE-EVOLUTION-CHECKPOINT v1\n" + raw.partition(b"\n")[2],
     "is not a tabletune training checkpoint (wrong header)"),
    (lambda raw: b"garbage, not a pickle", "damaged or not a training checkpoint"),
])
def test_tabletune_train_refuses_a_damaged_checkpoint_in_one_line(tmp_path, damage, says):
    path = tmp_path / "toy.toml"
    path.write_text(
        '[study]\nname = "toy"\ngame = "toy-learner"\noptimizer = "train"\n'
        'strategy = "learner"\n\n[train]\ngames = 400\nround_games = 200\nblock = 50\n'
        'probe_games = 0\njobs = 1\n'
        f'model = "{tmp_path}/m.json"\ncheckpoint = "{tmp_path}/ck.pkl"\n')
    spec = train_spec("toy-learner", {"games": 400, "round_games": 200, "block": 50,
                                      "probe_games": 0})
    ck = tmp_path / "ck.pkl"
    save_checkpoint(new_state("toy", spec, ("four-arms",)), ck, spec.trainer)
    ck.write_bytes(damage(ck.read_bytes()))
    out = CliRunner().invoke(app, ["train", str(path), "--resume"])
    assert out.exit_code == 2, out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and "ck.pkl" in lines[0] and says in lines[0], out.output
    assert "Traceback" not in out.output and not (tmp_path / "m.json").exists()


def test_the_train_table_holds_the_loops_keys_and_the_trainers(tmp_path):
    spec = parse_train("s.toml", {"noise": 1, "games": 100, "round_games": 100,
                                  "block": 20}, "toy-learner")
    assert spec.options == ToyOptions(1.0) and spec.opponents == ("self",)
    assert train_spec("toy-learner", spec.to_dict()) == spec
    with pytest.raises(InputError, match=r"^s\.toml: train\.noise: expected a number in "
                                         r"\[0\.0, 5\.0\], got 9$"):
        parse_train("s.toml", {"noise": 9}, "toy-learner")
    # another game's keys are not this trainer's
    with pytest.raises(InputError, match=r"train\.estimator: unknown key; allowed keys: "
                                         r"block, .*noise, "):
        parse_train("s.toml", {"estimator": "ridge"}, "toy-learner")
    # a checkpoint of another trainer's features is refused in one line
    save_checkpoint(new_state("t", spec, ("four-arms",)), tmp_path / "ck.pkl", spec.trainer)
    dominion = registry.get("dominion").trainer()
    with pytest.raises(InputError, match="written by another version"):
        load_checkpoint(tmp_path / "ck.pkl", "t", dominion)


def test_tabletune_train_runs_the_toy_trainer(tmp_path):
    path = tmp_path / "toy.toml"
    path.write_text(
        '[study]\nname = "toy"\ngame = "toy-learner"\noptimizer = "train"\n'
        'strategy = "learner"\n\n[train]\ngames = 400\nround_games = 200\nblock = 50\n'
        'probe_games = 100\nprobe_every = 1\njobs = 1\nnoise = 0.2\n'
        f'model = "{tmp_path}/m.json"\ncheckpoint = "{tmp_path}/ck.pkl"\n')
    out = CliRunner().invoke(app, ["train", str(path), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert list(data)[:6] == ["study", "games_trained", "model", "checkpoint", "noise",
                              "seconds"]
    assert data["games_trained"] == 400 and data["noise"] == 0.2
    assert set(data["score_vs"]) == {"rival"} and data["meta"]["study"] == "toy"
    again = CliRunner().invoke(app, ["train", str(path), "--resume", "-n", "800"])
    assert again.exit_code == 2 and "checkpoint's run has --games 400" in again.output
