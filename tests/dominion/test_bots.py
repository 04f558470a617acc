"""Buy-list grammar (parse, format, round trip, errors), named bots, heuristic parameters."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import InputError, param_ranges
from games.dominion import (
    BotSpec,
    BuyList,
    BuyRule,
    Condition,
    HeuristicBot,
    HeuristicParams,
    bot_names,
    build_bot,
    compile_bots,
    format_buylist,
    parse_buylist,
    simple_buylist,
)
from games.dominion._buylist import OPERATORS, VARIABLES, dead_reason
from games.dominion._cards import KEYS, initial_supply
from games.dominion._kingdoms import parse_kingdom
from games.dominion.game import GAME


def play(bots, seed, start, count, **options):
    """Games ``start..start+count-1`` through the game's one entry point."""
    return GAME.play(bots, GAME.check_options(options), seed, start, count)


def test_parse_example():
    bl = parse_buylist("province@8 duchy@<=4 estate@<=2 | gold | smithy:1 | silver")
    assert [r.card for r in bl.rules] == ["province", "duchy", "estate", "gold", "smithy",
                                          "silver"]
    assert bl.rules[0].conditions == (Condition("left", "<=", 8),)
    assert bl.rules[4].limit == 1 and bl.rules[5].limit is None
    assert parse_buylist("smithy:2@cards>=16@gains>3").rules[0].conditions == (
        Condition("cards", ">=", 16), Condition("gains", ">", 3))
    assert parse_buylist("steward@dshare<1/20").rules[0].conditions[0].value == 0.05
    assert parse_buylist("Workers-Village:2").rules[0].card == "workers-village"


def test_simple_buylist_matches_the_menu_text():
    bl = simple_buylist(8, 4, 2, [("gold", None), ("smithy", 1), ("silver", None)])
    assert bl == parse_buylist("province@8 duchy@<=4 estate@<=2 | gold | smithy:1 | silver")


@pytest.mark.parametrize("text, bad", [
    ("province | gld | silver", "'gld'"),
    ("province | smithy:x", "'x'"),
    ("province@money", "@money"),
    ("province@wealth>3", "'wealth'"),
    ("province@>=abc", "@>=abc"),
    ("smithy@1@2@3@4", "smithy@1@2@3@4"),
    ("   ", "empty"),
    (":3", "':3'"),
])
def test_parse_errors_name_the_bad_token(text, bad):
    with pytest.raises(InputError) as err:
        parse_buylist(text)
    assert bad in str(err.value)


conditions = st.builds(Condition, st.sampled_from(VARIABLES), st.sampled_from(OPERATORS),
                       st.one_of(st.integers(-5, 40).map(float),
                                 st.floats(0.0, 1.0, allow_nan=False).map(lambda x: round(x, 6))))
rules = st.builds(BuyRule, st.sampled_from(KEYS), st.one_of(st.none(), st.integers(0, 12)),
                  st.lists(conditions, max_size=3).map(tuple)
                  ).filter(lambda r: dead_reason(r) is None)  # a dead entry is refused


@settings(max_examples=100, deadline=None)
@given(st.lists(rules, min_size=1, max_size=8).map(lambda r: BuyList(tuple(r))))
def test_genome_text_genome_round_trip(bl):
    text = format_buylist(bl)
    again = parse_buylist(text)
    assert again == bl
    assert format_buylist(again) == text


def test_named_bots_and_descriptions():
    names = bot_names()
    for name in ("big-money", "big-money-ultimate", "smithy-big-money", "blog-big-money",
                 "blog-smithy", "blog-steward", "heuristic", "random"):
        assert name in names and names[name]
        build_bot(BotSpec(name))
    with pytest.raises(InputError, match="unknown bot"):
        build_bot(BotSpec("mega-money"))


def test_heuristic_params_declare_ranges_and_drive_the_buy_list():
    ranges = param_ranges(HeuristicParams)
    assert "action_k" in ranges and "smithy_share" in ranges and len(ranges) >= 20
    for name, rng in ranges.items():
        default = getattr(HeuristicParams(), name)
        assert rng.low <= default <= rng.high
    text = HeuristicBot().buylist().text()
    assert "smithy@share<0.1" in text and text.startswith("province@money>=16")
    more = HeuristicBot(HeuristicParams(smithy_priority=9.0, gold_priority=1.0)).buylist()
    cards = [r.card for r in more.rules]
    assert cards.index("smithy") < cards.index("gold")
    with pytest.raises(InputError, match="outside its range"):
        build_bot(BotSpec("heuristic", {"action_k": 0.5}))


def test_deck_size_gates_and_the_penultimate_province_rule():
    text = HeuristicBot(HeuristicParams(gold_cards=11.0, harem_share=0.2, harem_cards=16.0,
                                        ppr_lead=-3.0)).buylist().text()
    assert "gold@cards>=11" in text and "harem@share<0.2@cards>=16" in text
    assert text.startswith("province@money>=16@gains>2 | province@money>=16@lead>=-3")
    base = HeuristicBot().buylist().text()
    assert "cards>=" not in base and "lead" not in base  # defaults: no gate, no lead rule
    gated = play([BotSpec("heuristic", {"gold_cards": 30.0}), BotSpec("big-money")],
                       3, 0, 300)
    plain = play([BotSpec("heuristic"), BotSpec("big-money")], 3, 0, 300)
    assert gated.bot_result()[:, 0].mean() < plain.bot_result()[:, 0].mean()  # no Gold: worse


def test_heuristic_parameters_change_play():
    a = play([BotSpec("heuristic"), BotSpec("big-money")], 3, 0, 200)
    b = play([BotSpec("heuristic", {"laboratory_share": 0.0, "smithy_share": 0.0}),
                    BotSpec("big-money")], 3, 0, 200)
    assert not np.array_equal(a.score, b.score)


def test_compile_rejects_cards_outside_the_kingdom():
    supply = initial_supply(2, parse_kingdom("village"))
    with pytest.raises(InputError, match="smithy"):
        compile_bots([BotSpec("smithy-big-money")], supply)
    comp = compile_bots([BotSpec("heuristic"), BotSpec("x", genome="village:2 | silver")],
                        supply)
    assert comp.nrules.tolist()[1] == 2


def test_a_buy_list_equal_to_a_named_bot_plays_identically():
    named = play([BotSpec("smithy-big-money"), BotSpec("big-money")], 8, 0, 300)
    text = build_bot(BotSpec("smithy-big-money")).params.text()
    typed = play([BotSpec("sbm", genome=text), BotSpec("big-money")], 8, 0, 300)
    assert np.array_equal(named.outcome, typed.outcome)
    assert np.array_equal(named.score, typed.score)


def test_kingdom_parsing():
    assert len(parse_kingdom(None)) == 10 and "steward" not in parse_kingdom(None)
    assert parse_kingdom("blog") == ("smithy", "steward")
    with pytest.raises(InputError, match="unknown kingdom card 'chapl'"):
        parse_kingdom("smithy,chapl")
    with pytest.raises(InputError, match="basic card"):
        parse_kingdom("gold")
    with pytest.raises(InputError, match="twice"):
        parse_kingdom("smithy,Smithy")


def test_action_modes_for_buy_list_bots():
    cfg = dict(kingdom="blog")
    played = play([BotSpec("blog-steward"), BotSpec("big-money")], 6, 0, 300, **cfg)
    idle = play([BotSpec("blog-steward", {"actions": "none"}), BotSpec("big-money")], 6,
                      0, 300, **cfg)
    assert idle.bot_result()[:, 0].mean() < played.bot_result()[:, 0].mean()
    with pytest.raises(InputError, match="actions"):
        build_bot(BotSpec("big-money", {"actions": "sometimes"}))
    with pytest.raises(InputError, match="unknown parameter.*alpha"):
        build_bot(BotSpec("big-money", {"alpha": 1}))
