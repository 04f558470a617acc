"""The learned player of every kingdom (the ``general`` layout): a fixed feature count, the
older layouts untouched, the committed model loads and plays on different random kingdoms,
and its training draws a new kingdom per block."""

from __future__ import annotations

from games.core import BotSpec
from games.dominion._features import (
    FEATURE_SET,
    FEATURE_SET_GENERAL,
    FEATURE_SET_KINGDOM,
    GENERAL,
    KINGDOM,
    NACTIVE_MAX,
    NF,
    NF_GENERAL,
    NF_KINGDOM,
    SOURCES,
    layout_of,
    neighbours,
)
from games.dominion._kingdoms import parse_kingdom
from games.dominion._learned import GENERAL_MODEL, LEARNED_GENERAL, load_model
from games.dominion.game import GAME
from games.dominion.learning import trainer
from games.dominion.learning._options import TrainOptions


def test_the_general_layout_has_a_fixed_size():
    assert NF_GENERAL == 2893 and GENERAL.nf == NF_GENERAL
    assert GENERAL.nactive == 27 and GENERAL.cards == 0
    assert FEATURE_SET_GENERAL == "dominion-general-v1:11x8:2893"
    assert layout_of(FEATURE_SET_GENERAL) == GENERAL and layout_of(size=NF_GENERAL) == GENERAL
    pairs = neighbours(GENERAL)
    assert pairs.min() >= 0 and pairs.max() < NF_GENERAL


def test_the_older_layouts_are_unchanged():
    assert (NF, NF_KINGDOM) == (3865, 3899)
    assert FEATURE_SET == "dominion-indicators-v2:18x12x8:3865"
    assert FEATURE_SET_KINGDOM == "dominion-kingdom-v3:17x12x8:3899"
    assert (SOURCES.nactive, KINGDOM.nactive, NACTIVE_MAX) == (32, 33, 33)
    assert (SOURCES.code, KINGDOM.code, GENERAL.code) == (0, 1, 2)


def test_the_committed_model_plays_on_two_random_kingdoms():
    model = load_model(GENERAL_MODEL)
    assert model.feature_set == FEATURE_SET_GENERAL and model.kingdom == ()
    bot = GAME.parse_bot(LEARNED_GENERAL)
    seen = []
    for k in ("random:7", "random:8"):
        opts = GAME.check_options({"kingdom": k})
        r = GAME.play([bot, BotSpec("big-money-ultimate")], opts, 5, 0, 40)
        assert r.outcome.shape[0] == 40 and not r.capped.any()
        seen.append(parse_kingdom(k))
    assert seen[0] != seen[1]


def test_training_draws_a_kingdom_per_block():
    opts = TrainOptions(layout="general")
    a = trainer.block_kingdom(("smithy",), opts, 11, 0)
    b = trainer.block_kingdom(("smithy",), opts, 11, 500)
    assert len(a) == 10 and a != b and a == trainer.block_kingdom(("smithy",), opts, 11, 0)
    assert trainer.block_kingdom(("smithy",), TrainOptions(), 11, 0) == ("smithy",)
    assert len(trainer.new_learner(opts, 1, ("smithy",)).weights()) == NF_GENERAL


def test_the_trait_features_have_names():
    from games.dominion._feature_names import describe
    from games.dominion._features import OFF_TRAITS
    assert describe(OFF_TRAITS, GENERAL) == "0 actions owned at turns 1-3"
    assert describe(NF_GENERAL - 1, GENERAL) == "7+ kingdom cards costing $5+ owned at turns 22+"
