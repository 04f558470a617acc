"""The buy-list variables that count cards by type (treasures, actions, adensity, curses,
tshare, attacks, kattacks): their values in the kernel, a whole game driven by one, and that
old buy lists compile exactly as before."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.core import BotSpec
from games.dominion._bots import compile_bots
from games.dominion._buylist import VARIABLES, format_buylist, parse_buylist
from games.dominion._cards import INDEX, initial_supply
from games.dominion._engine import (
    OWNED,
    VAR_ACTIONS,
    VAR_ADENSITY,
    VAR_ATTACKS,
    VAR_CURSES,
    VAR_EMPTY,
    VAR_KATTACKS,
    VAR_LEFT,
    VAR_TREASURES,
    VAR_TSHARE,
)
from games.dominion._kernel import new_record, new_state, setup_game
from games.dominion._matcher import choose_buy, condition_value
from games.dominion._play import take_turn
from tests.dominion.state import State

NEW = {"treasures": VAR_TREASURES, "actions": VAR_ACTIONS, "adensity": VAR_ADENSITY,
       "curses": VAR_CURSES, "tshare": VAR_TSHARE, "attacks": VAR_ATTACKS,
       "kattacks": VAR_KATTACKS}


def value(s: State, var: str, card: str = "smithy", p: int = 0) -> float:
    return condition_value(NEW[var], p, INDEX[card], s.zones, s.pinfo, s.piles, s.ts)


def test_new_codes_are_appended_after_the_old_ones():
    assert VARIABLES[:11] == ("left", "gains", "money", "cards", "turn", "coins", "count",
                              "share", "dshare", "lead", "empty")
    assert (VAR_LEFT, VAR_EMPTY) == (0, 10)
    for name, code in NEW.items():
        assert VARIABLES.index(name) == code >= 11


def test_each_new_variable_on_a_built_state():
    s = State(players=3, kingdom=("smithy", "militia", "witch", "moat"))
    s.hand(0, copper=3, silver=1, smithy=1, estate=1, curse=2)
    s.discard(0, gold=1, harem=1, village=2, militia=1)
    s.hand(1, witch=2, copper=5)
    s.discard(2, militia=1, bandit=1, smithy=4)
    assert value(s, "treasures") == 6  # 3 Copper, Silver, Gold, Harem
    assert value(s, "actions") == 4  # Smithy, 2 Village, Militia
    assert value(s, "adensity") == pytest.approx(4 / 13)
    assert value(s, "curses") == 2
    assert value(s, "tshare") == pytest.approx(1 / 6)
    assert value(s, "tshare", "village") == pytest.approx(2 / 6)
    assert value(s, "attacks") == 4  # 2 Witch, Militia, Bandit of both opponents
    assert value(s, "attacks", p=1) == 3  # Militia of seat 0, Militia and Bandit of seat 2
    assert value(s, "kattacks") == 2  # Militia and Witch piles; Moat is no attack
    s.piles[0, INDEX["witch"]] = 0
    assert value(s, "kattacks") == 2  # an empty pile is still in this game's supply


def test_empty_decks_and_attack_free_kingdoms_give_zero():
    s = State(players=2, kingdom=("smithy", "moat"))
    for var in NEW:
        assert value(s, var) == 0.0, var
    s.hand(1, smithy=1)
    assert value(s, "kattacks") == 0 and value(s, "attacks") == 0


def test_moat_only_when_attacks_are_around():
    rule = "moat:1@kattacks>=1 | silver"
    for kingdom, want in ((("moat",), "silver"), (("moat", "militia"), "moat")):
        s = State(players=2, kingdom=kingdom).hand(copper=2)
        s.ts[2] = 3
        _, _, _, _, rules, nrule = s.bot_rows(rule)
        c = choose_buy(0, rules, nrule, s.zones, s.pinfo, s.piles, s.ts)
        assert c == INDEX[want], kingdom


@pytest.mark.parametrize("text", [
    "province | gold | smithy@tshare<1/11 | silver",
    "moat:1@kattacks>=1 | witch:2@attacks<=0@curses<3 | laboratory@adensity<=0.25",
    "gold@treasures>=12 | village@actions<4@tshare=0 | province@left<=6",
])
def test_parse_and_format_round_trip(text):
    bl = parse_buylist(text)
    assert parse_buylist(format_buylist(bl)) == bl
    assert {c.var for r in bl.rules for c in r.conditions} <= set(VARIABLES)


def test_an_old_buy_list_compiles_to_the_identical_rule_table():
    text = "province@8 duchy@<=4 estate@gains<=2 | gold@money>18 | smithy:1@share<0.1 | silver"
    expected = np.array([
        [INDEX["province"], -1, 1, 0, 0, 8, 0, 0, 0, 0, 0, 0],
        [INDEX["duchy"], -1, 1, 0, 0, 4, 0, 0, 0, 0, 0, 0],
        [INDEX["estate"], -1, 1, 1, 0, 2, 0, 0, 0, 0, 0, 0],
        [INDEX["gold"], -1, 1, 2, 3, 18, 0, 0, 0, 0, 0, 0],
        [INDEX["smithy"], 1, 1, 7, 1, 0.1, 0, 0, 0, 0, 0, 0],
        [INDEX["silver"], -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    ], dtype=np.float64)
    assert np.array_equal(parse_buylist(text).table(), expected)
    supply = initial_supply(2, ("smithy",))
    comp = compile_bots([BotSpec("t", genome=text)], supply)
    assert np.array_equal(comp.rules[0, :comp.nrules[0]], expected)


def _treasures(zones: np.ndarray) -> int:
    return int(sum(zones[0, OWNED, INDEX[k]] for k in ("copper", "silver", "gold")))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_smithies_are_bought_only_under_the_treasure_ratio(seed):
    supply = initial_supply(2, ("smithy",))
    comp = compile_bots([BotSpec("t", genome="province | gold | smithy@tshare<1/11 | silver")],
                        supply)
    zones, draw, pinfo, piles, ts, rng = new_state(1, supply)
    rec_idx, rec_meta, rec_n = new_record(1)
    setup_game(np.uint64(seed), supply, 5, zones, draw, pinfo, piles, rng)
    smithy, bought = INDEX["smithy"], 0
    for _ in range(40):
        before, treasures = int(zones[0, OWNED, smithy]), _treasures(zones)
        take_turn(0, 0, comp.rules, comp.nrules, comp.amode, comp.bmode, comp.fparams,
                  comp.weights, comp.lparams, comp.dparams, comp.porder,
                  np.zeros(1, dtype=np.int64), zones, draw, pinfo, piles, ts, rng,
                  rec_idx, rec_meta, rec_n)
        after = int(zones[0, OWNED, smithy])
        assert after - before <= 1  # one buy a turn, nothing else gains a Smithy
        if after > before:
            bought += 1
            assert before / treasures < 1 / 11
        assert 11 * (after - 1) < _treasures(zones)
    assert bought >= 2  # the ratio lets a second Smithy in once treasures pass 11


def test_the_pyminion_players_read_the_new_variables_as_the_kernel_does():
    from collections import Counter

    from games.dominion.crosscheck._lineup import BOTS, kingdom_of
    from games.dominion.crosscheck._players import CARD, _value, keys, make_player
    from games.dominion.crosscheck._runner import CrossGame

    rng = random.Random(3)
    bots = ("double-militia", "big-money")
    me, other = (make_player(b, BOTS[b], rng) for b in bots)
    game = CrossGame([me, other], kingdom_of(bots))
    game.start()
    me.discard_pile.cards += [CARD["militia"], CARD["curse"], CARD["silver"]]
    owned = Counter(keys(me.get_all_cards()))
    got = {v: _value(v, "copper", owned, me, game, 0) for v in NEW}
    assert got == {"treasures": 8, "actions": 1, "adensity": 1 / 13, "curses": 1,
                   "tshare": 7 / 8, "attacks": 0, "kattacks": 1}
    theirs = Counter(keys(other.get_all_cards()))
    assert _value("attacks", "copper", theirs, other, game, 0) == 1
