"""Whole strategies (buy list, play order, decision settings): grammar, parameters, the
named base-set bots, the errors a user sees, and their games on base-set kingdoms."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from games.core import BotSpec, InputError, param_ranges, wilson_interval
from games.dominion._bots import (
    NAMED,
    HeuristicBot,
    HeuristicParams,
    build_bot,
    compile_bots,
    spec_from_text,
)
from games.dominion._buylist import format_buylist, parse_buylist
from games.dominion._cards import CARDS, INDEX, KINGDOM_KEYS, initial_supply
from games.dominion._decisions import DECISIONS, default_decisions, play_order
from games.dominion._strategy import (
    PLAYABLE,
    Strategy,
    StrategyParams,
    format_strategy,
    parse_strategy,
    play_param,
)
from games.dominion.game import GAME
from tuning.cli import app

# The shared plan's buy lists, word for word.
BASE_SET_BOTS = {
    "double-witch": "province | gold | witch:2 | silver",
    "double-militia": "province | gold | militia:2 | silver",
    "laboratory-big-money": "province | gold | laboratory | silver",
    "council-room-big-money": "province | gold | council-room:1 | silver",
    "moneylender-big-money": "province | gold | moneylender:1 | silver",
    "bandit-big-money": "province | gold | bandit:1 | silver",
    "bureaucrat-big-money": "province | gold | bureaucrat:1 | silver",
    "moat-big-money": "province | gold | moat:2 | silver",
    "chapel-witch": "province | gold | witch:1 | chapel:1 | silver",
    "workshop-gardens": "province | gardens | workshop | estate@gains<=6 | copper",
}
DW = "province | gold | witch:2 | silver"
SOURCE_BOTS = ("big-money", "big-money-ultimate", "smithy-big-money", "blog-big-money",
               "blog-smithy", "blog-steward")
EVERY_CARD = initial_supply(2, ())
EVERY_CARD[EVERY_CARD < 0] = 10  # a supply holding every card: compile checks pass


def test_the_example_parses_and_formats_back():
    text = ("province | gold | witch:2 | silver | play: throne-room > witch > village | "
            "set: chapel_max=3, chapel_money_floor=5")
    s = parse_strategy(text)
    assert s.buylist == parse_buylist("province | gold | witch:2 | silver")
    assert s.play == ("throne-room", "witch", "village")
    assert s.decisions == (("chapel_max", 3.0), ("chapel_money_floor", 5.0))
    assert format_strategy(s) == text
    same = parse_strategy("province gold witch:2 silver ; play:Throne Room>Witch>village ;"
                          " set: chapel_max = 3 , chapel_money_floor=5")
    assert same == s
    assert parse_strategy("province | set: vassal_play=false").decisions == (
        ("vassal_play", 0.0),)


decisions = st.lists(st.sampled_from(sorted(DECISIONS)), unique=True, max_size=4).flatmap(
    lambda names: st.tuples(*[
        st.integers(int(DECISIONS[n].low), int(DECISIONS[n].high)).map(
            lambda v, n=n: (n, float(v))) for n in names]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([c.key for c in CARDS]), min_size=1, max_size=5),
       st.lists(st.sampled_from(PLAYABLE), unique=True, max_size=4), decisions)
def test_strategy_text_round_trip(cards, play, values):
    s = Strategy(parse_buylist(" | ".join(cards)), tuple(play), tuple(values))
    text = format_strategy(s)
    assert parse_strategy(text) == s
    assert format_strategy(parse_strategy(text)) == text


@pytest.mark.parametrize("name", SOURCE_BOTS)
def test_old_buy_lists_keep_their_meaning(name):
    text = NAMED[name][0]
    s = parse_strategy(text)
    assert s.plain and s.buylist == parse_buylist(text)
    assert s.text() == format_buylist(parse_buylist(text))
    comp = compile_bots([BotSpec(name), BotSpec("t", genome=text)], EVERY_CARD)
    table = parse_buylist(text).table()
    for b in range(2):
        assert np.array_equal(comp.rules[b, :comp.nrules[b]], table)
        assert np.array_equal(comp.dparams[b], default_decisions())
        assert np.array_equal(comp.porder[b], play_order(()))


def test_the_named_base_set_bots_are_the_shared_plans():
    for name, text in BASE_SET_BOTS.items():
        assert NAMED[name][0] == text and NAMED[name][1]
        assert build_bot(BotSpec(name)).params == parse_strategy(text)


def test_settings_and_play_order_reach_the_engine_rows():
    text = ("province | gold | witch:2 | silver | play: witch > throne-room | "
            "set: chapel_max=2")
    comp = compile_bots([BotSpec("t", genome=text), BotSpec("dw", genome=DW),
                         BotSpec("dw", genome=DW, params={"play": "moat", "chapel_max": 1,
                                                  "play_militia": 2.0, "play_witch": 5.0})],
                        EVERY_CARD)
    want = default_decisions()
    want[DECISIONS["chapel_max"].index] = 2
    assert np.array_equal(comp.dparams[0], want)
    assert comp.porder[0, :2].tolist() == [INDEX["witch"], INDEX["throne-room"]]
    assert np.array_equal(comp.porder[1], play_order(()))
    assert comp.dparams[2, DECISIONS["chapel_max"].index] == 1
    # the text order first, then priorities, highest first
    assert comp.porder[2, :3].tolist() == [INDEX["moat"], INDEX["witch"], INDEX["militia"]]
    assert sorted(comp.porder[2][comp.porder[2] >= 0].tolist()) == sorted(
        INDEX[k] for k in PLAYABLE)


def test_strategy_parameters_are_declared_with_ranges():
    ranges = param_ranges(StrategyParams)
    for name, d in DECISIONS.items():
        assert (ranges[name].low, ranges[name].high) == (d.low, d.high)
        assert getattr(StrategyParams(), name) == d.default
    for key in PLAYABLE:
        assert ranges[play_param(key)].high > 0 == getattr(StrategyParams(), play_param(key))
    spec = BotSpec("dw", genome=DW, params={"play_witch": 3.5, "chapel_max": 2})
    assert pickle.loads(pickle.dumps(spec)) == spec
    with pytest.raises(InputError, match="chapel_max"):
        build_bot(BotSpec("dw", genome=DW, params={"chapel_max": 5}))
    with pytest.raises(InputError, match="play_witch"):
        build_bot(BotSpec("dw", genome=DW, params={"play_witch": -1}))


def test_the_heuristic_covers_every_kingdom_card_and_the_decisions():
    fields = {f.name for f in dataclasses.fields(HeuristicParams)}
    for c in CARDS:
        if c.kingdom:
            stem = c.key.replace("-", "_")
            assert {f"{stem}_share", f"{stem}_priority", f"{stem}_cards"} <= fields
    assert set(DECISIONS) <= fields
    for key in KINGDOM_KEYS:  # every card the engine plays is in reach of the tuner
        assert f"{key.replace('-', '_')}_share" in param_ranges(HeuristicParams)
    # defaults: the base set's cards are not bought, so the sources' bot is unchanged
    assert HeuristicBot().buylist().text() == (
        "province@money>=16 | duchy@gains<=4 | estate@gains<=2 | gold | duchy@gains<=6 | "
        "laboratory@share<0.2 | smithy@share<0.1 | silver")
    witch = HeuristicBot(HeuristicParams(witch_share=0.1, witch_priority=9.0)).buylist()
    assert "witch@share<0.1 | gold" in witch.text()
    comp = compile_bots([BotSpec("heuristic", {"chapel_max": 1})], EVERY_CARD)
    assert comp.dparams[0, DECISIONS["chapel_max"].index] == 1
    h = pickle.loads(pickle.dumps(HeuristicParams(witch_share=0.2)))
    assert h.witch_share == 0.2


@pytest.mark.parametrize("text, bad", [
    ("province | wtch | silver", "'wtch'"),
    ("province | gold | play: wtch", "'wtch'"),
    ("province | gold | play: gold", "'gold' is not an Action"),
    ("province | gold | play: witch > witch", "twice"),
    ("province | gold | play:", "play order is empty"),
    ("province | set: chapel_max=9", "chapel_max"),
    ("province | set: chapel_max=1.5", "chapel_max"),
    ("province | set: no_such=1", "'no_such'"),
    ("province | set: chapel_max", "name=value"),
    ("province | set: chapel_max=1, chapel_max=2", "twice"),
    ("province | set: chapel_max=1 | set: mine_copper=0", "twice"),
    ("province ; gold", "';'"),
])
def test_strategy_errors_name_what_is_wrong(text, bad):
    with pytest.raises(InputError) as err:
        spec_from_text(text)
    assert bad in str(err.value) and "\n" not in str(err.value)


def test_a_card_the_kingdom_lacks_is_refused_when_bots_are_compiled():
    supply = initial_supply(2, ("smithy",))
    with pytest.raises(InputError, match="buys witch, which is not"):
        compile_bots([BotSpec("t", genome="province | witch | silver")], supply)
    with pytest.raises(InputError, match="plays village, which is not"):
        compile_bots([BotSpec("t", genome="province | smithy | play: village")], supply)
    with pytest.raises(InputError, match="plays village"):
        compile_bots([BotSpec("big-money", {"play": "village"})], supply)
    comp = compile_bots([BotSpec("big-money", {"play_village": 3.0})], supply)  # only a rank
    assert comp.porder[0, 0] == INDEX["village"]


@pytest.mark.parametrize("bot, bad", [
    ("province | wtch | silver", "wtch"),
    ("province | gold | silver | play: wtch", "wtch"),
    ("province | gold | silver | set: chapel_max=9", "chapel_max"),
    ("province | gold | silver | set: no_such=1", "no_such"),
    ("province | witch | silver", "witch"),
    ("province | gold | silver | play: witch", "witch"),
    ("big-money:chapel_max=7", "chapel_max"),
])
def test_the_command_line_refuses_bad_bots_in_one_line(bot, bad):
    res = CliRunner().invoke(app, ["play", "dominion", "--bots", "big-money", "--bot", bot,
                                   "-n", "2"])
    assert res.exit_code == 2, res.output
    assert bad in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_every_named_base_set_bot_plays_whole_games():
    for name, text in BASE_SET_BOTS.items():
        kingdom = ",".join(c for c in parse_buylist(text).cards if c in KINGDOM_KEYS)
        opts = GAME.check_options({"kingdom": kingdom})
        out = GAME.play([BotSpec(name), BotSpec("big-money")], opts, 5, 0, 20)
        assert out.count == 20 and not out.capped.any(), name
        assert np.all(out.outcome.max(axis=1) >= 0), name


def test_double_witch_beats_big_money():
    opts = GAME.check_options({"kingdom": "witch"})
    out = GAME.play([BotSpec("double-witch"), BotSpec("big-money")], opts, 11, 0, 2000)
    score = out.bot_result()[:, 0]
    lo, _ = wilson_interval(float(score.sum()), 2000)
    assert lo > 0.5, score.mean()


def test_the_play_order_reaches_the_kernel():
    opts = GAME.check_options({"kingdom": "smithy,village"})
    text = "province | gold | smithy:1 | village:2 | silver"
    games = [GAME.play([BotSpec("t", genome=t), BotSpec("big-money")], opts, 4, 0, 200)
             for t in (text, text + " | play: smithy > village")]
    assert not np.array_equal(games[0].score, games[1].score)
    same = GAME.play([BotSpec("t", genome=text, params={"play": "village"}),
                      BotSpec("big-money")], opts, 4, 0, 200)
    assert np.array_equal(games[0].score, same.score)  # village first is the default


def test_the_strategy_genome_evolves_valid_strategies():
    import random

    from games.dominion._strategy_genome import DominionStrategy

    kind = DominionStrategy({"kingdom": "smithy,village,laboratory", "max_play": 2,
                             "decisions": ["chapel_max", "throne_target"]})
    rng = random.Random(3)
    pool = [kind.random(rng) for _ in range(20)]
    seen_play = seen_set = False
    for _ in range(300):
        a, b = rng.sample(pool, 2)
        child = kind.mutate(a, rng) if rng.random() < 0.5 else kind.crossover(a, b, rng)[0]
        kind.validate(child)
        text = kind.to_text(child)
        assert kind.from_text(text) == child
        s = parse_strategy(text)  # the game's own parser reads it as a whole strategy
        assert s.play == tuple(child[1]) and len(s.play) <= 2
        seen_play |= bool(s.play)
        seen_set |= bool(s.decisions)
        pool[rng.randrange(len(pool))] = child
    assert seen_play and seen_set
    with pytest.raises(InputError, match="mine_copper"):
        kind.from_text("province@<=8 | duchy@gains<=4 | estate@gains<=2 | silver | "
                       "set: mine_copper=0")
    with pytest.raises(InputError, match="witch"):
        kind.from_text("province@<=8 | duchy@gains<=4 | estate@gains<=2 | silver | "
                       "play: witch")
    assert GAME.genome_kinds()["dominion-strategy"]({}).name == "dominion-strategy"


def test_decision_settings_reach_the_kernel():
    opts = GAME.check_options({"kingdom": "witch,chapel"})
    base = GAME.play([BotSpec("chapel-witch"), BotSpec("big-money")], opts, 6, 0, 300)
    same = GAME.play([BotSpec("chapel-witch", {"chapel_max": 4}), BotSpec("big-money")],
                     opts, 6, 0, 300)
    idle = GAME.play([BotSpec("chapel-witch", {"chapel_max": 0}), BotSpec("big-money")],
                     opts, 6, 0, 300)
    assert np.array_equal(base.score, same.score)  # 4 is the default
    assert not np.array_equal(base.score, idle.score)


def test_the_heuristic_buys_base_set_cards_when_told():
    opts = GAME.check_options({"kingdom": "witch"})
    tuned = {"witch_share": 0.1, "witch_priority": 9.0}
    out = GAME.play([BotSpec("heuristic", tuned), BotSpec("big-money")], opts, 2, 0, 400)
    plain = GAME.play([BotSpec("heuristic"), BotSpec("big-money")], opts, 2, 0, 400)
    assert out.bot_result()[:, 0].mean() > plain.bot_result()[:, 0].mean()
