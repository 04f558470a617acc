"""The learned player's trainer beside its game: it keeps the trainer protocol, is found
through the game's description, imports no tuning module, and resumes checkpoints written
before it moved."""

from __future__ import annotations

import importlib.util
import pickle
from pathlib import Path

import numpy as np
import pytest

from games import registry
from games.core import InputError
from games.dominion._cards import DEFAULT_KINGDOM
from games.dominion._features import NACTIVE
from games.dominion.learning import trainer
from games.dominion.learning._estimators import AverageRewardValue
from games.dominion.learning._options import ESTIMATORS, TrainOptions
from games.learning import Trainer
from tuning.train import load_checkpoint, new_state, parse_train, train_spec
from tuning.train._loop import CHECKPOINT_VERSION

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "games" / "dominion" / "learning"


def test_the_game_provides_its_trainer_and_it_keeps_the_protocol():
    game = registry.get("dominion")
    assert game.has_trainer and game.trainer() is trainer
    assert isinstance(trainer, Trainer)
    for estimator in ESTIMATORS:
        options = TrainOptions(estimator=estimator)
        learner = trainer.new_learner(options, seed=3)
        assert learner.weights().shape == (trainer.N_FEATURES,)
    guided = TrainOptions(estimator="ridge", guide="smithy-big-money", guide_init=4.0)
    w = trainer.new_learner(guided, seed=3).weights()
    assert w.max() == 4.0 and w.min() == 0.0  # it starts as its guide list
    assert trainer.setup(game.check_options({})) == tuple(DEFAULT_KINGDOM)


def test_the_loop_and_the_trainer_share_one_train_table():
    spec = parse_train("s.toml", {"estimator": "ridge", "margin": 1, "games": 100,
                                  "round_games": 100, "block": 50}, "dominion")
    assert spec.options == TrainOptions(estimator="ridge", margin=1.0)
    assert spec.opponents == trainer.DEFAULTS["opponents"]
    assert spec.model == trainer.DEFAULTS["model"]
    assert train_spec("dominion", spec.to_dict()) == spec  # what a checkpoint keeps
    with pytest.raises(InputError, match=r"^s\.toml: train\.nope: unknown key; allowed "
                                         r"keys: .*block, .*estimator, .*visit_cap"):
        parse_train("s.toml", {"nope": 1}, "dominion")
    with pytest.raises(InputError, match=r"^s\.toml: train\.margin: expected a number in "
                                         r"\[0\.0, 10\.0\], got 11$"):
        parse_train("s.toml", {"margin": 11}, "dominion")


def test_a_checkpoint_written_before_the_move_still_resumes(tmp_path):
    """Old checkpoints pickled the value model from tuning.train.estimators and named the
    setup 'kingdom'; both are read where they are now."""
    assert importlib.util.find_spec("tuning.train.estimators") is None
    spec = train_spec("dominion", {"estimator": "average", "games": 400, "round_games": 400,
                                   "block": 200})
    state = new_state("t", spec, tuple(DEFAULT_KINGDOM))
    state.estimator.update(np.arange(2 * NACTIVE).reshape(2, NACTIVE),
                           np.array([1.0, -0.5]))
    data = pickle.dumps({"version": CHECKPOINT_VERSION, "feature_set": trainer.FEATURE_SET,
                         "state": state}, protocol=0)
    old = data.replace(b"games.dominion.learning._estimators", b"tuning.train.estimators")
    old = old.replace(b"Vsetup\n", b"Vkingdom\n")
    assert old != data and b"tuning.train.estimators" in old and b"Vkingdom\n" in old
    path = tmp_path / "old.pkl"
    path.write_bytes(old)
    kept = load_checkpoint(path, "t", trainer)
    assert isinstance(kept.estimator, AverageRewardValue)
    assert kept.setup == tuple(DEFAULT_KINGDOM) and not hasattr(kept, "kingdom")
    assert np.array_equal(kept.estimator.weights(), state.estimator.weights())
    assert np.any(kept.estimator.weights() != 0)


def test_the_trainer_plays_the_games_of_the_games_one_entry_point():
    """Training and probe games are the games ``DominionGame.play`` gives (the one results
    type, Outcomes); the kernel call adds only the samples; no second results type is
    exported."""
    import games.dominion
    from games.core import BotSpec
    from games.dominion._learned import load_model
    from games.dominion.learning import _selfplay as selfplay

    assert not {"GameResults", "play_games"} & set(dir(games.dominion))
    model = load_model(ROOT / "reports" / "dominion-learned" / "model.npz")
    game, bm = registry.get("dominion"), BotSpec("big-money")
    options = game.check_options({"kingdom": list(model.kingdom)})
    probe = trainer.probe_block(model.weights, bm, 11, 40, 30, model.kingdom, TrainOptions())
    out = game.play([selfplay.learner(model.weights), bm], options, 11, 40, 30)
    assert np.array_equal(probe, out.bot_result()[:, 0]) and 0 < probe.mean() < 1
    feats, y, score = trainer.play_block(model.weights, 0.0, bm, None, 11, 40, 30,
                                         model.kingdom, TrainOptions(margin=0.01))
    assert score == probe.mean()  # greedy (eps 0): the probe's games, now recorded
    assert len(feats) == len(y) > 0 and feats.shape[1] == NACTIVE
    # each sample's reward is its game's outcome and VP margin, from the Outcomes
    assert set(np.round(np.abs(y), 6)) <= {round(1 + 0.01 * d, 6) for d in range(-30, 31)} | \
        {round(0.01 * d, 6) for d in range(-30, 31)}
