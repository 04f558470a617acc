"""Each value function against a value worked out by hand on a small position."""

from __future__ import annotations

import math

import numpy as np
import pytest

from games.thegame._positions import position_value
from games.thegame._rules import legal_sequences, shuffled_deck

TOPS = (30, 40, 60, 70)
UNLAID = {5, 15, 25, 35, 50, 95}
LAID = set(range(2, 100)) - UNLAID - set(TOPS)
HAND = [15, 50]  # unknown cards: 5, 25, 35, 95 (|D| = 4)
A = 3.5


def value(player, params=None, hand=HAND, **kw):
    return position_value(player, params, TOPS, hand, LAID, **kw)


def test_perceived_capacity_is_room_left():
    assert value("perceived-capacity") == pytest.approx(70 + 60 + 59 + 69)
    w = 0.675
    assert value("weighted-perceived-capacity") == pytest.approx(w * 70 + 60 + w * 59 + 69)


def test_real_capacity_counts_unlaid_playable_cards():
    # up 30: 35 50 95 | up 40: 50 95 (30 is laid) | down 60: 5 15 25 35 50 | down 70: same
    assert value("real-capacity") == pytest.approx(3 + 2 + 5 + 5)
    assert value("weighted-real-capacity") == pytest.approx(0.6 * 3 + 2 + 0.6 * 5 + 5)


def test_penalize_playability_sums_exp_of_pile_counts():
    # piles each card can go on: 5, 15, 25 -> 2; 35 -> 3 (up 30, both downs); 50 -> 4; 95 -> 2
    expected = -(4 * math.exp(-3.0) + math.exp(-4.5) + math.exp(-6.0))
    assert value("penalize-playability") == pytest.approx(expected)


def test_recoverability_multiplies_alpha_per_blocked_pile():
    expected = -(4 * A ** 2 + A + 1)  # 5, 15, 25, 95 blocked twice; 35 once; 50 never
    assert value("recoverability") == pytest.approx(expected)


def test_recovery_using_distance():
    def pen(g):
        return A - math.exp(-0.03 * (g - 1))
    expected = -(pen(25) * pen(35) + pen(15) * pen(25) + pen(5) * pen(15) + pen(5)
                 + pen(35) * pen(25) + 1)
    assert value("recovery-distance") == pytest.approx(expected)


def test_single_bridges_use_the_chance_of_drawing_the_chain():
    # 5 onto up-30 needs 15 (hand), 25, 35: two to draw from 4 -> rho = 2/4 * 1/3
    # 15 onto up-30 needs 25, 35 -> 1/6; 25 onto up-30 needs 35 -> 2/4
    # every chain onto up-40 or onto the down piles for 95 needs a laid card -> alpha
    def pen(rho):
        return 1 + (A - 1) * (1 - rho)
    expected = -(pen(1 / 6) * A + pen(1 / 6) * A + pen(0.5) * A + A + A * A + 1)
    assert value("single-bridges") == pytest.approx(expected)


def test_fallback_uses_bridges_near_the_top_and_distance_beyond():
    def dist(g):
        return A - math.exp(-0.03 * (g - 1))
    near = 1 + (A - 1) * (1 - 0.5 ** 0.2)  # 25 onto up-30: gap 5, rho = 2/4, amplified
    # 35 onto up-40: gap 5 but its bridge 45 is laid -> alpha
    expected = -(dist(25) * dist(35) + dist(15) * dist(25) + near * dist(15) + A
                 + dist(35) * dist(25) + 1)
    assert value("recovery-fallback") == pytest.approx(expected)
    outer = 1 + (A - 1) * (1 - 0.5) ** 0.2
    expected_outer = expected + (near - outer) * dist(15)
    assert value("recovery-fallback", {"form": "outer"}) == pytest.approx(expected_outer)


def test_a_bridge_in_the_hand_makes_recovery_certain_unless_it_is_laid():
    hand = [35, 50]  # 25 onto up-30 can now be recovered with 35 from the hand
    base = value("single-bridges", hand=hand)
    seed_literal = value("single-bridges", {"hand_bridges": 0}, hand=hand)
    assert base > seed_literal  # the hand bridge lowers the penalty
    # laying 35 on a down pile breaks that chain: the value is that of a fresh turn
    after = value("single-bridges", hand=hand, plays=[(35, 2)])
    fresh = position_value("single-bridges", None, (30, 40, 35, 70), [50], LAID | {35, 60},
                           unknown=4)
    assert after == pytest.approx(fresh)


@pytest.mark.parametrize("player", ["single-bridges", "recovery-fallback",
                                    "single-bridges-amplified", "recovery-distance"])
def test_values_after_plays_equal_values_computed_from_scratch(player):
    """The search values a child from the turn's start rows plus corrections: exact."""
    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(40):
        deck = [int(c) for c in shuffled_deck(np.uint64(seed + 11))]
        laid = set(deck[:int(rng.integers(10, 60))])
        asc = sorted(c for c in laid)[:2]
        tops = [asc[0], asc[1], max(laid), sorted(laid)[-2]]
        rest = [c for c in deck if c not in laid]
        hand = rest[:8]
        unknown = len(rest) - 8
        for seq in legal_sequences(tops, hand, 2)[:6]:
            new_tops = list(tops)
            for card, pile in seq:
                new_tops[pile] = card
            left = [c for c in hand if c not in {c for c, _ in seq}]
            scratch = position_value(player, None, new_tops, left,
                                     laid | {c for c, _ in seq}, unknown=unknown)
            assert value_at(player, tops, hand, laid, seq, unknown) == pytest.approx(scratch)
            checked += 1
    assert checked > 50


def value_at(player, tops, hand, laid, seq, unknown):
    return position_value(player, None, tops, hand, laid, plays=list(seq), unknown=unknown)


@pytest.mark.parametrize("hand_bridges", [0, 1])
def test_one_bridge_fill_matches_the_general_chain_fill(hand_bridges):
    """The fast fill for bounds below 11 writes what the general chain walk writes."""
    from games.thegame._players import build_params, encode
    from games.thegame._values import (
        BEHIND_SIZE,
        P_BOUND,
        bridge_penalties,
        fill_bridge_rows,
        static_rows,
    )

    prm = encode("recovery-fallback", build_params(
        "recovery-fallback", {"bound": 9, "hand_bridges": hand_bridges, "w_first": 1.3}))
    wide = prm.copy()
    wide[P_BOUND] = 1000.0  # general path: chains of any length
    rng = np.random.default_rng(5)
    cells = 0
    for seed in range(30):
        deck = [int(c) for c in shuffled_deck(np.uint64(seed + 101))]
        laid = set(deck[:int(rng.integers(5, 70))])
        rest = [c for c in deck if c not in laid]
        hand = np.array(rest[:8], dtype=np.int64)
        tops = np.array([min(laid), sorted(laid)[1], max(laid), sorted(laid)[-2]],
                        dtype=np.int64)
        unlaid = np.zeros(101, dtype=np.bool_)
        unlaid[rest] = True
        in_hand = np.zeros(101, dtype=np.bool_)
        in_hand[hand] = True
        bpen = np.empty((4, 5))
        bridge_penalties(bpen, prm, len(rest) - 8)
        near, general = static_rows(prm), static_rows(prm)
        fill_bridge_rows(near, prm, tops, hand, 8, in_hand, unlaid, bpen,
                         np.full((4, BEHIND_SIZE), np.nan))
        fill_bridge_rows(general, wide, tops, hand, 8, in_hand, unlaid, bpen,
                         np.full((4, BEHIND_SIZE), np.nan))
        for pile in range(4):
            for top in [int(tops[pile])] + [int(h) for h in hand]:
                for gap in range(1, 10):
                    card = top - gap if pile < 2 else top + gap
                    if 2 <= card <= 99 and unlaid[card]:
                        assert near[pile, top, card] == general[pile, top, card]
                        cells += 1
    assert cells > 1000
