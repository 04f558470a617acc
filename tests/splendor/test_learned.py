"""The learned Splendor player: honest features, its value at the search leaves, the model
file, and its trainer under the game-neutral training loop."""

from __future__ import annotations

import json

import numpy as np
import pytest

from games.core import BotSpec, InputError
from games.splendor._features import (
    FEATURE_NAMES,
    NF,
    NV,
    features,
    learned_value,
)
from games.splendor._kernel import CFG_SIZE, CFG_W
from games.splendor._learned import LearnedModel, load_model, save_model
from games.splendor._players import bot_row, learned_row
from games.splendor._rules import O_CUR, O_DONE, seat_result
from games.splendor._search import view
from games.splendor._state import SplendorState
from games.splendor.game import GAME
from games.splendor.learning import trainer
from games.splendor.learning._value import RidgeValue, initial_weights


def _positions(count: int = 60, seed: int = 3):
    """Positions from random games, 2-4 players."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        st = SplendorState.new(2 + i % 3, seed, i, 100)
        for _ in range(int(rng.integers(0, 60))):
            if st.is_terminal():
                break
            moves = st.legal_moves()
            st.apply(moves[int(rng.integers(len(moves)))])
        out.append(st.array.copy())
    return out


def test_features_read_nothing_a_player_cannot_see():
    """A seat's features of a position and of its search view (hidden decks and the
    opponents' blind reserves replaced or resampled) are the same."""
    a, b = np.empty(NF), np.empty(NF)
    out = np.empty_like(_positions(1)[0])
    stream = np.array([7], dtype=np.uint64)
    for s in _positions():
        for p in range(int(s[1])):
            features(s, p, a)
            for sampled in (0, 1):
                view(s, p, sampled, stream, out)
                features(out, p, b)
                assert np.array_equal(a, b)


def test_a_finished_game_scores_its_result():
    w = np.zeros(NV)
    for s in _positions(30):
        if s[O_DONE]:
            for p in range(int(s[1])):
                assert learned_value(s, p, w) == seat_result(s, p)
    s = _positions(1)[0]
    w[FEATURE_NAMES.index("p_points")] = 1.0
    f = np.empty(NF)
    features(s, int(s[O_CUR]), f)
    assert learned_value(s, int(s[O_CUR]), w) == pytest.approx(f[0])


def test_other_bots_rows_are_unchanged_by_the_learned_weights():
    row = bot_row("minimax", GAME.bots()["minimax"].params_type())
    assert row.shape == (CFG_SIZE,) and not row[CFG_W + 10:].any()
    lr = learned_row(np.arange(NV, dtype=np.float64), 2)
    assert np.array_equal(lr[CFG_W + 10:], np.arange(NV))


def test_the_ridge_value_fits_a_linear_target():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(4000, NF))
    true = rng.normal(size=NV)
    y = x @ true[:NF] + true[NF]
    model = RidgeValue(ridge=1e-6, forget=1.0)
    assert np.array_equal(model.weights(), initial_weights())
    model.update(x[:2000], y[:2000])
    model.update(x[2000:], y[2000:])
    assert np.allclose(model.weights(), true, atol=1e-4)


def _model(tmp_path, weights=None, **meta):
    w = initial_weights() if weights is None else weights
    return save_model(LearnedModel(w, meta), tmp_path / "m.npz")


def test_learned_and_expert_play_a_model_file(tmp_path):
    path = _model(tmp_path)
    options = GAME.check_options({})
    for text in (f"learned:{path}", f"expert:{path}"):
        out = GAME.play([GAME.parse_bot(text), BotSpec("greedy")], options, 5, 0, 20)
        assert out.outcome.shape == (20, 2)
    again = GAME.play([GAME.parse_bot(f"expert:{path}"), BotSpec("greedy")], options, 5, 0, 20)
    assert np.array_equal(again.outcome, GAME.play([GAME.parse_bot(f"expert:{path}"),
                                                    BotSpec("greedy")], options, 5, 0,
                                                   20).outcome)


def test_a_bad_model_file_is_one_line(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_model(tmp_path / "none.npz")
    with pytest.raises(InputError, match="is a folder"):
        load_model(tmp_path)
    (tmp_path / "text.npz").write_text("not a model")
    with pytest.raises(InputError, match="damaged or not a model file"):
        load_model(tmp_path / "text.npz")
    np.savez(tmp_path / "other.npz", weights=np.zeros(3))
    with pytest.raises(InputError, match="not a Splendor model file"):
        load_model(tmp_path / "other.npz")
    np.savez(tmp_path / "foreign.npz", weights=np.zeros(NV), feature_set=np.array("x"),
             meta=np.array(json.dumps({})))
    with pytest.raises(InputError, match="feature set 'x'"):
        load_model(tmp_path / "foreign.npz")
    np.savez(tmp_path / "short.npz", weights=np.zeros(3),
             feature_set=np.array(trainer.FEATURE_SET), meta=np.array("{}"))
    with pytest.raises(InputError, match="weights are damaged"):
        load_model(tmp_path / "short.npz")


def test_the_game_provides_its_trainer_and_it_keeps_the_protocol():
    from games.learning import Trainer

    assert GAME.trainer() is trainer
    assert isinstance(trainer, Trainer)
    assert trainer.N_FEATURES == NV


def test_a_block_gives_the_same_samples_wherever_it_is_played():
    w = initial_weights()
    one = trainer.play_block(w, 0.2, None, None, 9, 0, 6, (), trainer.OPTIONS())
    halves = [trainer.play_block(w, 0.2, None, None, 9, s, 3, (), trainer.OPTIONS())
              for s in (0, 3)]
    x = np.vstack([h[0] for h in halves])
    assert one[0].shape[1] == NF and len(one[0]) == len(one[1]) > 6
    assert np.array_equal(one[0][:len(halves[0][0])], halves[0][0])
    assert len(x) == len(one[0])
    scores = trainer.probe_block(w, BotSpec("greedy"), 9, 0, 10, (), trainer.OPTIONS())
    assert scores.shape == (10,) and set(np.unique(scores)) <= {0.0, 0.5, 1.0}


def test_the_difficulty_levels_are_greedy_the_published_best_and_the_expert():
    """``novice`` plays as Greedy and ``intermediate`` as the published best of
    splendor-minimax-heuristic (its run.json), seed for seed."""
    from pathlib import Path

    best = json.loads((Path(__file__).resolve().parents[2] / "reports"
                       / "splendor-minimax-heuristic" / "run.json").read_text())
    params = best["best_params"]
    options = GAME.check_options({})
    tuned = GAME.parse_bot("minimax2:" + ",".join(f"{k}={v}" for k, v in params.items()))
    for level, same in (("novice", BotSpec("greedy")), ("intermediate", tuned)):
        a = GAME.play([GAME.parse_bot(level), BotSpec("minimax", {"depth": 2})], options, 3,
                      0, 40)
        b = GAME.play([same, BotSpec("minimax", {"depth": 2})], options, 3, 0, 40)
        assert np.array_equal(a.outcome, b.outcome) and np.array_equal(a.score, b.score)
    assert set(GAME.bots()) >= {"novice", "intermediate", "expert", "learned"}


def test_a_run_may_start_from_a_model_and_a_bad_start_is_one_line():
    """``start``: the learner plays with a model's weights until its first update (the
    first round's games are at that model's strength); anything but a model file stops the
    spec in one line."""
    from games.splendor._learned import load_model
    from games.splendor.learning._options import check_option

    committed = load_model().weights
    options = trainer.OPTIONS(start="reports/splendor-learned/model.npz")
    learner = trainer.new_learner(options, 0)
    assert np.array_equal(learner.weights(), committed)
    assert not np.array_equal(trainer.new_learner(trainer.OPTIONS(), 0).weights(), committed)
    with pytest.raises(InputError, match="train.start.*no such file"):
        check_option("spec: train.start", "start", "no-such-model.npz")
    with pytest.raises(InputError, match="train.start.*model file"):
        check_option("spec: train.start", "start", 3)


def test_the_expert_reads_its_own_refitted_model_and_learned_the_self_play_one():
    from games.splendor._learned import DEFAULT_MODEL, EXPERT_MODEL, load_model

    start = load_model(EXPERT_MODEL).meta["start"]
    assert start == "reports/splendor-learned-deep/two-player.npz"
    options = GAME.check_options({})
    for name, path in (("expert", EXPERT_MODEL), ("learned", DEFAULT_MODEL)):
        a = GAME.play([GAME.parse_bot(name), BotSpec("greedy")], options, 4, 0, 12)
        b = GAME.play([GAME.parse_bot(f"{name}:{path}"), BotSpec("greedy")], options, 4, 0, 12)
        assert np.array_equal(a.outcome, b.outcome) and np.array_equal(a.score, b.score)


def test_a_run_may_learn_at_a_table_of_three_or_four():
    """``players``: the learner's seat rotates and every seat of a self-play game records;
    the reward counts points ahead of the best other seat."""
    from games.splendor.learning._selfplay import rewards

    w = trainer.new_learner(trainer.OPTIONS(), 0).weights()
    for players in (3, 4):
        options = trainer.OPTIONS(players=players)
        feats, reward, score = trainer.play_block(w, 0.1, None, None, 5, 0, 4, (), options)
        assert len(feats) == len(reward) > 4 * 10 * players and 0.0 <= score <= 1.0
        against = trainer.play_block(w, 0.1, BotSpec("greedy"), None, 5, 0, 4, (), options)
        assert 0 < len(against[0]) < len(feats)  # the learner's seat alone records
    points = np.array([[10, 15, 12]])
    meta = np.array([[0, 0], [0, 1], [0, 2]])
    got = rewards(np.array([[-1, 1, -1]]), points, meta, 0.1)
    assert np.allclose(got, [-1 - 0.5, 1 + 0.3, -1 - 0.3])
