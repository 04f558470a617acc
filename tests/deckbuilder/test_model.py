"""Card sets, reachability/efficiency checks and the buy-rule text form."""

from __future__ import annotations

import numpy as np
import pytest

from games.core import InputError
from games.deckbuilder import DEFAULT, BuyRule, make_card_set
from games.deckbuilder._model import parse_cards
from games.deckbuilder._states import StateSpace, binom_int, rank


def test_thesis_set_is_reachable_and_efficient():
    report = DEFAULT.check()
    assert report == {"reachable": True, "unreachable": [], "efficient": True,
                      "inefficient": []}
    assert DEFAULT.start_points == 3
    assert DEFAULT.start_counts.tolist() == [7, 0, 0, 3]


def test_thesis_example_4_2_has_an_unreachable_card():
    # treasures 1 (c1 v1), 2 (c5 v3), 3 (c16 v4); victory 4 (c16 p1); start {1, 4 x5}
    cs = make_card_set("one:t1:c1,two:t3:c5,three:t4:c16,four:v1:c16", "one=1,four=5")
    reach = cs.reachable()
    assert reach == {"one": True, "two": True, "three": False, "four": True}
    assert cs.check()["unreachable"] == ["three"]


def test_dominated_card_is_inefficient():
    cs = make_card_set("copper:t1:c0,brass:t1:c3,silver:t2:c3,estate:v1:c2",
                       "copper=7,estate=3")
    assert cs.inefficient() == ["brass"]


@pytest.mark.parametrize("cards,start,msg", [
    ("copper:t1:c0,estate:t0:c2", None, "victory"),
    ("estate:v1:c2", "estate=7", "treasure"),
    (None, "copper=3", "fewer than the hand"),
    ("copper:t1:c-2,estate:v1:c2", None, "cost"),
    ("copper:x1:c0", None, "bad card"),
    (None, "copper=7,gold=x", "not an integer"),
    (None, "copper=7,platinum=3", "unknown card"),
])
def test_bad_card_sets_are_refused(cards, start, msg):
    with pytest.raises(InputError, match=msg):
        make_card_set(cards, start)


def test_card_text_round_trip():
    assert parse_cards(DEFAULT.text()) == DEFAULT.cards


def test_buy_rule_round_trip_and_errors():
    text = "province@8 | duchy@5,left<=6 | gold@6 | estate@2,left<=2 | silver@3,count<9"
    rule = BuyRule.parse(text, DEFAULT)
    assert rule.text() == text
    assert BuyRule.parse(rule.text()) == rule
    with pytest.raises(InputError, match="'dutchy@5'"):
        BuyRule.parse("province@8 | dutchy@5", DEFAULT)
    with pytest.raises(InputError, match="'left<6'"):
        BuyRule.parse("province@8,left<6")
    with pytest.raises(InputError, match="'gold'"):
        BuyRule.parse("gold | silver@3")
    with pytest.raises(InputError, match="'gold@x'"):
        BuyRule.parse("gold@x")


def test_composition_ranks_are_consecutive():
    space = StateSpace(DEFAULT, 12)
    cb = binom_int(20, 6)
    ranks = [rank(row.astype(np.int64), cb) for row in space.comps]
    assert ranks == list(range(len(space.comps)))
    sums = space.comps.sum(axis=1)
    assert np.all(np.diff(sums) >= 0)  # sum-major order: "at most s cards" is a prefix
    assert space.layer_size[12] == len(space.comps)


def test_hand_tails_of_the_starting_deck():
    # 7 Copper + 3 Estate: money = coppers in hand, at least 2; P(5 coppers) = 21/252
    g = StateSpace(DEFAULT, 3).tails((0, 2, 3, 5, 6, 8))
    assert g[0].tolist() == pytest.approx([1, 1, 1 - 21 / 252, 21 / 252, 0, 0, 0])
    assert np.all(np.diff(g, axis=1) <= 1e-15)  # tails decrease


def test_hand_tails_cache_keeps_the_recent_threshold_sets():
    from games.deckbuilder._states import TAILS_KEPT

    space = StateSpace(DEFAULT, 4)
    sets = [(0, 2, 3, 5, 6, m) for m in range(7, 8 + TAILS_KEPT)]
    first = space.tails(sets[0]).copy()
    for thr in sets[1:]:
        space.tails(thr)
        space.tails(sets[-1])  # used again: stays the most recent
    assert len(space._tails) == TAILS_KEPT and sets[0] not in space._tails
    assert sets[-1] in space._tails
    assert np.array_equal(space.tails(sets[0]), first)  # recomputed the same


def test_hand_tails_equal_enumeration_of_hands():
    # zero-valued and equal-valued treasures, four treasure kinds, hands of 4
    import itertools

    from games.deckbuilder._states import enumerate_compositions, tail_table

    cs = make_card_set("tin:t0:c0,copper:t1:c1,brass:t1:c2,silver:t2:c3,estate:v1:c2",
                       "tin=2,copper=3,estate=2", hand_size=4)
    thr = np.array([0, 1, 2, 3, 5, 7], dtype=np.int64)
    comps = enumerate_compositions(3, cs.dims)
    got = tail_table(comps, cs.start_counts, cs.slot_values, cs.hand_size, thr, cs.max_money)
    for row, comp in zip(got, comps, strict=True):
        counts = cs.start_counts + comp
        deck = [v for v, n in zip(cs.slot_values, counts, strict=True) for _ in range(n)]
        hands = [sum(h) for h in itertools.combinations(deck, cs.hand_size)]
        want = [np.mean([m >= x for m in hands]) for x in thr] + [0.0]
        assert row.tolist() == pytest.approx(want, abs=1e-12)
