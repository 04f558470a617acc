"""The learned bot: engine features, model files, its CLI name, and training runs that are
deterministic whatever the job count and resume exactly."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from games.core import BotSpec, InputError
from games.dominion._cards import DEFAULT_KINGDOM, INDEX, initial_supply
from games.dominion._encoder import encode
from games.dominion._engine import NLP
from games.dominion._features import (
    FEATURE_SET,
    NACTIVE,
    NCOUNT,
    NF,
    NPROV,
    NSTAGE,
    OFF_CARD,
    OFF_GUIDE,
    OFF_LEADP,
    neighbours,
)
from games.dominion._kernel import new_state, setup_game
from games.dominion._learned import LearnedModel, load_model, save_model
from games.dominion.game import GAME
from tuning.cli import app
from tuning.evaluation import WorkerPool
from tuning.train import TrainSpec, load_checkpoint, train, train_spec
from tuning.train import new_state as new_train

runner = CliRunner()


def play(bots, seed, start, count, **options):
    """Games ``start..start+count-1`` through the game's one entry point."""
    return GAME.play(bots, GAME.check_options(options), seed, start, count)


def _model(tmp_path: Path, weights: np.ndarray | None = None, kingdom=DEFAULT_KINGDOM,
           name: str = "m.npz") -> Path:
    w = np.zeros(NF) if weights is None else weights
    return save_model(LearnedModel(w, tuple(kingdom)), tmp_path / name)


def test_existing_bots_play_the_same_games_as_before():
    r = play([BotSpec("smithy-big-money"), BotSpec("big-money")], 11, 0, 500)
    vp = r.score.astype(np.int64)  # the engine's integer VP, as the hash was taken
    h = hashlib.sha256(r.outcome.tobytes() + vp.tobytes() + r.turns.tobytes()).hexdigest()
    assert h == "b6c3d4cfec8cc4ef009d84c56c29a369e33daf4db30ce2a7ae35acc27af79cca"


def test_encode_scores_a_gain_without_changing_the_state():
    supply = initial_supply(2, DEFAULT_KINGDOM)
    zones, draw, pinfo, piles, _, rng = new_state(2, supply)
    setup_game(np.uint64(5), supply, 5, zones, draw, pinfo, piles, rng)
    before = (zones.copy(), piles.copy())
    w = np.random.default_rng(0).normal(size=NF)
    lp = np.zeros(NLP)  # the sources' layout
    out = np.zeros(NACTIVE, dtype=np.int64)
    gold = INDEX["gold"]
    v = encode(0, gold, -2, zones, pinfo, piles, w, lp, out, True)
    assert np.array_equal(zones, before[0]) and np.array_equal(piles, before[1])
    assert 0 <= out.min() and out.max() < NF and len(set(out.tolist())) == NACTIVE
    assert v == pytest.approx(w[out].sum())
    nothing = np.zeros(NACTIVE, dtype=np.int64)
    encode(0, -1, -2, zones, pinfo, piles, w, lp, nothing, True)
    assert not np.array_equal(out, nothing)  # the Gold count and money features moved
    assert out[-1] == nothing[-1]  # no guide: its feature does not tell the buys apart
    guided = np.zeros(NACTIVE, dtype=np.int64)
    encode(0, gold, gold, zones, pinfo, piles, w, lp, guided, True)
    assert np.array_equal(guided[:-1], out[:-1]) and (guided[-1] - OFF_GUIDE) % 2 == 1
    other = np.zeros(NACTIVE, dtype=np.int64)
    encode(0, INDEX["silver"], gold, zones, pinfo, piles, w, lp, other, True)
    assert other[-1] == guided[-1] - 1  # the same guide choice, not followed


def test_neighbour_pairs_tie_bins_of_one_quantity():
    pairs = neighbours()
    assert pairs.min() >= 0 and pairs.max() < NF and np.all(pairs[:, 0] != pairs[:, 1])
    gold2 = OFF_CARD + (INDEX["gold"] * NCOUNT + 2) * NSTAGE + 3
    tied = {tuple(p) for p in pairs.tolist()}
    assert (gold2, gold2 + NSTAGE) in tied and (gold2, gold2 + 1) in tied  # count, stage
    assert (gold2, gold2 + NCOUNT * NSTAGE) not in tied  # Gold and Estate are not ordered


def test_model_file_round_trips_and_bad_files_are_refused(tmp_path):
    w = np.arange(NF, dtype=np.float64)
    path = _model(tmp_path, w)
    assert np.array_equal(load_model(path).weights, w)
    assert load_model(path).feature_set == FEATURE_SET
    (tmp_path / "junk.npz").write_bytes(b"not a zip file")
    with pytest.raises(InputError, match="damaged"):
        load_model(tmp_path / "junk.npz")
    np.savez(tmp_path / "foreign.npz", weights=w, feature_set=np.array("other-v9"),
             kingdom=np.array(""), meta=np.array("{}"))
    with pytest.raises(InputError, match="feature set"):
        load_model(tmp_path / "foreign.npz")
    with pytest.raises(InputError, match="no such file"):
        load_model(tmp_path / "missing.npz")


def test_learned_bot_from_the_cli_name_plays_and_checks_its_kingdom(tmp_path):
    w = np.zeros(NF)
    # a crude hand-made value (on the reward's scale, which the estimated endgame assumes): VP
    # lead is good, Golds too, Silvers a little
    for card, per in (("gold", 0.04), ("silver", 0.015)):
        for k in range(NCOUNT):
            base = OFF_CARD + (INDEX[card] * NCOUNT + k) * NSTAGE
            w[base:base + NSTAGE] = per * k
    for lead in range(-15, 16):
        w[OFF_LEADP + (lead + 15) * NPROV:OFF_LEADP + (lead + 16) * NPROV] = 0.01 * lead
    path = _model(tmp_path, w)
    spec = GAME.parse_bot(f"learned:{path}")
    res = play([spec, BotSpec("big-money")], 3, 0, 400)
    again = play([spec, BotSpec("big-money")], 3, 0, 400)
    assert np.array_equal(res.outcome, again.outcome)
    assert res.bot_result()[:, 0].mean() > 0.2  # it buys money and Provinces: it competes
    other = _model(tmp_path, w, ("smithy",), "other.npz")
    with pytest.raises(InputError, match="trained on kingdom"):
        play([GAME.parse_bot(f"learned:{other}"), BotSpec("big-money")], 3, 0, 10,
                   kingdom="default")
    out = runner.invoke(app, ["play", "dominion", "--bots", f"learned:{tmp_path}/nope.npz,"
                              "big-money", "-n", "10"])
    assert out.exit_code == 2 and "no such file" in out.output
    # --param reaches a saved model's play options
    args = ["play", "dominion", "--bots", f"learned:{path},big-money", "-n", "200", "--json"]
    scores = [json.loads(runner.invoke(app, [*args, "--param", f"endgame={e}"]).output)
              for e in ("estimated", "learned")]
    assert json.loads(runner.invoke(app, args).output)["bots"] == scores[0]["bots"]  # default
    assert scores[0]["bots"] != scores[1]["bots"]  # the estimated endgame changes some games
    out = runner.invoke(app, [*args, "--param", "endgame=maybe"])
    assert out.exit_code == 2 and "endgame='maybe'" in out.output


def _spec(tmp_path: Path, **kw) -> TrainSpec:
    base = dict(games=1200, round_games=400, block=200, probe_games=200, probe_every=2,
                checkpoint_every=1, snapshot_every=1, eps_start=0.2,
                opponents=("self", "big-money", "snapshot"),
                model=str(tmp_path / "model.npz"), checkpoint=str(tmp_path / "ck.pkl"))
    base.update(kw)
    return train_spec("dominion", base)


@pytest.mark.parametrize("estimator,ema", [("sgd", 0.0), ("average", 0.0), ("sgd", 0.9),
                                           ("ridge", 0.0)])
def test_training_is_the_same_with_two_jobs_and_after_a_resume(tmp_path, estimator, ema):
    opps = {"big-money": BotSpec("big-money")}
    extra = {"guide": "smithy-big-money", "guide_init": 5.0, "keep_best": True,
             "explore": "runner-up"} if estimator == "ridge" else {}
    spec = _spec(tmp_path, estimator=estimator, weight_ema=ema, **extra)
    with WorkerPool(1) as pool:
        whole = train(new_train("t", spec, DEFAULT_KINGDOM), spec, opps, pool)
    assert whole.games == 1200 and np.any(whole.estimator.weights() != 0)
    spec2 = _spec(tmp_path / "b", estimator=estimator, weight_ema=ema, **extra)
    with WorkerPool(2) as pool:
        part = train(new_train("t", spec2, DEFAULT_KINGDOM), spec2, opps, pool, stop_after=1)
    assert part.games == 400
    resumed = load_checkpoint(spec2.checkpoint, "t", spec2.trainer)
    with WorkerPool(2) as pool:
        resumed = train(resumed, spec2, opps, pool)
    assert np.array_equal(resumed.estimator.weights(), whole.estimator.weights())
    assert resumed.curve == whole.curve
    saved = load_model(spec2.model)
    if estimator == "ridge":  # the kept model is the best probe's, and names its guide
        assert np.array_equal(saved.weights, whole.best["weights"])
        assert saved.meta["guide"] == "smithy-big-money"
        assert saved.meta["kept"]["games"] in [p["games"] for p in whole.curve]
    else:
        assert np.array_equal(saved.weights, whole.estimator.weights())
    with pytest.raises(InputError, match="belongs to study"):
        load_checkpoint(spec2.checkpoint, "other", spec2.trainer)


def test_train_spec_errors_are_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[study]\ngame = "dominion"\noptimizer = "train"\nstrategy = "learned"\n'
                   '[train]\nopponents = ["self", "no-such-bot"]\n')
    out = runner.invoke(app, ["train", str(bad)])
    assert out.exit_code == 2 and "train.opponents" in out.output
    assert len(out.output.strip().splitlines()) == 1
    listed = runner.invoke(app, ["studies"])
    assert "dominion-learned" in listed.output


@pytest.mark.parametrize("line,where", [
    ('guide = "province | no-such-card"', "train.guide"),
    ('explore = "sideways"', "train.explore"),
    ('keep_best = "yes"', "train.keep_best"),
    ('estimator = "sgd"\nguide_init = 5.0', "train.guide_init"),
    ('forget = 1.5', "train.forget"),
])
def test_new_train_keys_are_checked_in_one_line(tmp_path, line, where):
    bad = tmp_path / "bad.toml"
    bad.write_text('[study]\ngame = "dominion"\noptimizer = "train"\nstrategy = "learned"\n'
                   f'[train]\n{line}\n')
    out = runner.invoke(app, ["train", str(bad)])
    assert out.exit_code == 2 and where in out.output
    assert len(out.output.strip().splitlines()) == 1


def test_a_guide_with_a_large_weight_plays_exactly_like_its_list():
    w = np.zeros(NF)
    w[OFF_GUIDE + 1::2] = 10.0
    guided = BotSpec("learned", {"weights": w, "guide": "smithy-big-money",
                                 "endgame": "learned"})
    a = play([guided, BotSpec("big-money")], 4, 0, 300)
    b = play([BotSpec("smithy-big-money"), BotSpec("big-money")], 4, 0, 300)
    assert np.array_equal(a.score, b.score) and np.array_equal(a.outcome, b.outcome)
    # with the estimated endgame (the default) it leaves the list only in the last gains
    estimated = BotSpec("learned", {"weights": w, "guide": "smithy-big-money"})
    c = play([estimated, BotSpec("big-money")], 4, 0, 300)
    assert not np.array_equal(a.score, c.score)
    assert c.bot_result()[:, 0].mean() >= a.bot_result()[:, 0].mean() - 0.02
    for bad, what in (({"endgame": "maybe"}, "endgame="), ({"margin": -1}, "margin"),
                      ({"margin": "x"}, "margin")):
        with pytest.raises(InputError, match=what):
            play([BotSpec("learned", {"weights": w, **bad}), BotSpec("big-money")],
                       4, 0, 1)


def test_a_study_result_may_be_a_training_opponent(tmp_path, monkeypatch):
    import tuning._best
    found = tuning._best.BestBot("evolved", "dominion", "province | gold | smithy:1 | silver",
                                "ck.pkl", "best:evolved = ...", {})
    monkeypatch.setattr(tuning._best, "resolve_best",
                        lambda text, game=None: found if "evolved" in text else
                        (_ for _ in ()).throw(InputError(f"{text}: no study spec")))
    # loading the spec checks that the study a reference names exists; the run resolves it
    (tmp_path / "evolved.toml").write_text('[study]\ngame = "dominion"\n')
    evolved = f"best:{tmp_path}/evolved.toml"
    spec = tmp_path / "t.toml"
    spec.write_text(
        '[study]\nname = "t"\ngame = "dominion"\noptimizer = "train"\nstrategy = "learned"\n'
        '[train]\ngames = 400\nround_games = 400\nblock = 200\nprobe_games = 100\n'
        f'probe_every = 1\njobs = 1\nopponents = ["self", "{evolved}"]\n'
        f'probe = ["{evolved}"]\nmodel = "{tmp_path}/m.npz"\n'
        f'checkpoint = "{tmp_path}/ck.pkl"\n')
    out = runner.invoke(app, ["train", str(spec), "--json"])
    assert out.exit_code == 0, out.output
    assert evolved in json.loads(out.stdout)["score_vs"]
    spec.write_text(spec.read_text().replace(f'"self", "{evolved}"', '"best:nope"'))
    out = runner.invoke(app, ["train", str(spec)])
    assert out.exit_code == 2 and "train.opponents" in out.output and "nope" in out.output
    assert len(out.output.strip().splitlines()) == 1


def test_final_decks_replay_what_each_side_buys(tmp_path):
    from games.dominion.learning.explain import final_decks
    w = np.zeros(NF)
    w[OFF_GUIDE + 1::2] = 10.0
    path = save_model(LearnedModel(w, tuple(DEFAULT_KINGDOM), {"guide": "smithy-big-money"}),
                      tmp_path / "g.npz")
    decks = final_decks(str(path), "big-money", games=40)
    mine, theirs = decks["model"], decks["big-money"]
    assert mine[INDEX["smithy"]] >= 1.0 and theirs[INDEX["smithy"]] == 0.0  # the guide's plan
    assert theirs[INDEX["copper"]] == 7.0 and mine.sum() > 10 and theirs.sum() > 10
