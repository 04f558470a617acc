"""The learned player on any kingdom: its features follow the kingdom's cards, it buys and
plays base-set cards, a model is refused in a match on another kingdom, and the models
trained on the sources' kingdoms play as they did."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from games.core import BotSpec, InputError
from games.dominion._bots import compile_bots
from games.dominion._cards import CURSE, INDEX, KINGDOM_KEYS, initial_supply
from games.dominion._encoder import encode
from games.dominion._feature_names import describe
from games.dominion._features import (
    FEATURE_SET_KINGDOM,
    KINGDOM,
    NACTIVE_KINGDOM,
    NCOUNT,
    NF,
    NF_KINGDOM,
    NSTAGE,
    SOURCES,
    layout_for,
    neighbours,
    slot_cards,
)
from games.dominion._kernel import new_state, setup_game
from games.dominion._kingdoms import parse_kingdom
from games.dominion._learned import LearnedModel, load_model, save_model
from games.dominion.game import GAME
from games.dominion.learning import trainer
from games.dominion.learning._options import TrainOptions
from tuning.cli import app

ROOT = Path(__file__).resolve().parents[2]
ATTACK = parse_kingdom("attack")
runner = CliRunner()


def play(bots, seed, start, count, **options):
    return GAME.play(bots, GAME.check_options(options), seed, start, count)


def guided(kind: str = "kingdom") -> np.ndarray:
    """Weights that only follow the guide list (worth 10 each time)."""
    layout = KINGDOM if kind == "kingdom" else SOURCES
    w = np.zeros(layout.nf)
    w[layout.guide + 1:layout.guide + layout.guide_size:2] = 10.0
    return w


def test_a_sources_model_plays_the_same_games_as_before():
    """The committed model of the sources' kingdom, against Smithy Big Money: outcomes, VP
    and turns as hashed before the features followed the kingdom."""
    model = ROOT / "reports" / "dominion-learned" / "bm" / "model.npz"
    r = play([BotSpec("learned", {"path": str(model)}), BotSpec("smithy-big-money")],
             3, 0, 300)
    vp = r.score.astype(np.int64)
    h = hashlib.sha256(r.outcome.tobytes() + vp.tobytes() + r.turns.tobytes()).hexdigest()
    assert h == "29c8b484897a3843dccd7c54e21f469d593bdfb0096b762c3b0a4169e07b8063"
    assert layout_for(load_model(model).kingdom) == SOURCES


def test_the_kingdom_layout_describes_the_kingdoms_cards_curses_and_attacks():
    assert layout_for(ATTACK) == KINGDOM and layout_for(("smithy", "village")) == SOURCES
    slots = slot_cards(KINGDOM, ATTACK)
    assert list(slots[:7]) == list(range(7))  # Copper .. Curse, then the kingdom in order
    assert sorted(slots[7:].tolist()) == sorted(INDEX[k] for k in ATTACK)
    supply = initial_supply(2, ATTACK)
    comp = compile_bots([BotSpec("learned", {"weights": np.zeros(NF_KINGDOM)}),
                         BotSpec("double-witch")], supply)
    lp = comp.lparams[0]
    zones, draw, pinfo, piles, _, rng = new_state(2, supply)
    setup_game(np.uint64(3), supply, 5, zones, draw, pinfo, piles, rng)
    w = np.random.default_rng(1).normal(size=NF_KINGDOM)

    def active(c: int) -> tuple[float, np.ndarray]:
        out = np.zeros(NACTIVE_KINGDOM, dtype=np.int64)
        before = (zones.copy(), piles.copy())
        v = encode(0, c, -2, zones, pinfo, piles, w, lp, out, True)
        assert np.array_equal(zones, before[0]) and np.array_equal(piles, before[1])
        return v, out

    v, base = active(-1)
    assert v == pytest.approx(w[base].sum()) and len(set(base.tolist())) == NACTIVE_KINGDOM
    assert base.min() >= 0 and base.max() < NF_KINGDOM
    witch = int(np.flatnonzero(slots == INDEX["witch"])[0])
    _, gained = active(INDEX["witch"])
    assert gained[witch] == base[witch] + NSTAGE  # one more Witch: the next count bin
    zones[0, 3, CURSE] = 2  # two Curses held
    _, cursed = active(-1)
    assert cursed[CURSE] == (CURSE * NCOUNT + 2) * NSTAGE
    piles[0, CURSE] -= 2
    zones[1, 3, INDEX["witch"]] = 1  # the opponent owns an Attack card
    _, later = active(-1)
    assert later[-2] == base[-2] - 2 * NSTAGE  # Curses left in the supply: 10 -> 8
    assert later[-1] == base[-1] + NSTAGE  # the opponents' Attack cards: 0 -> 1
    assert describe(int(base[witch]), KINGDOM, slots).startswith("0 Witch at turns 1-3")
    assert describe(int(base[-2]), KINGDOM, slots).startswith("10+ Curses left")
    assert describe(int(base[-1]), KINGDOM, slots).startswith("opponents own 0 Attack")
    pairs = neighbours(KINGDOM)
    assert pairs.max() < NF_KINGDOM and (base[-1], base[-1] + NSTAGE) in set(
        map(tuple, pairs.tolist()))


def test_a_guided_kingdom_model_buys_and_plays_witches_like_its_list():
    """Following the guide, the learned player buys what Double Witch buys (Witch, a
    Curse-giving attack, among them) and plays it as Double Witch does: the same games."""
    w = guided()
    bot = BotSpec("learned", {"weights": w, "guide": "double-witch", "endgame": "learned"})
    a = play([bot, BotSpec("big-money")], 4, 0, 200, kingdom="attack")
    b = play([BotSpec("double-witch"), BotSpec("big-money")], 4, 0, 200, kingdom="attack")
    assert np.array_equal(a.score, b.score) and np.array_equal(a.outcome, b.outcome)
    assert a.bot_result()[:, 0].mean() > 0.6  # the Witches curse Big Money


def test_a_model_is_refused_on_another_kingdom_in_one_line(tmp_path):
    path = save_model(LearnedModel(guided(), ATTACK, {"guide": "double-witch"}),
                      tmp_path / "attack.npz")
    model = load_model(path)
    assert model.feature_set == FEATURE_SET_KINGDOM and model.kingdom == ATTACK
    out = runner.invoke(app, ["play", "dominion", "--kingdom", "first-game", "--bots",
                              f"learned:{path},big-money", "-n", "10"])
    assert out.exit_code == 2 and len(out.output.strip().splitlines()) == 1
    assert ",".join(ATTACK) in out.output and "trained on kingdom" in out.output
    first = set(parse_kingdom("first-game"))  # named in card order
    assert "not " + ",".join(k for k in KINGDOM_KEYS if k in first) in out.output
    ok = runner.invoke(app, ["play", "dominion", "--kingdom", "attack", "--bots",
                             f"learned:{path},big-money", "-n", "10"])
    assert ok.exit_code == 0, ok.output
    # weights of the sources' layout cannot describe a base-set kingdom
    with pytest.raises(InputError, match="sources' cards only"):
        play([BotSpec("learned", {"weights": np.zeros(NF)}), BotSpec("big-money")], 1, 0, 1,
             kingdom="attack")
    np.savez(tmp_path / "short.npz", weights=np.zeros(NF), feature_set=np.array(
        FEATURE_SET_KINGDOM), kingdom=np.array(",".join(ATTACK)), meta=np.array("{}"))
    with pytest.raises(InputError, match="weights are damaged"):
        load_model(tmp_path / "short.npz")


def test_the_trainer_learns_in_the_layout_of_its_kingdom():
    options = TrainOptions(estimator="ridge", guide="double-witch", guide_init=4.0)
    learner = trainer.new_learner(options, 3, ATTACK)
    w = learner.weights()
    assert w.shape == (NF_KINGDOM,) and w.max() == 4.0
    assert trainer.new_learner(options, 3, ("smithy",)).weights().shape == (NF,)
    feats, y, _ = trainer.play_block(w, 0.1, BotSpec("double-witch"), None, 5, 0, 20,
                                     ATTACK, options)
    assert feats.shape[1] == NACTIVE_KINGDOM and len(feats) == len(y) > 0
    assert feats.max() < NF_KINGDOM
    learner.update(feats, y)
    assert learner.weights().shape == (NF_KINGDOM,) and np.all(np.isfinite(learner.weights()))
