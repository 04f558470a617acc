"""The turn search against brute force, and transpositions merged without changing choices."""

from __future__ import annotations

import numpy as np
import pytest

from games.thegame._positions import choose_turn, position_value
from games.thegame._rules import legal_plays, legal_sequences, shuffled_deck

PLAYERS = ["perceived-capacity", "real-capacity", "penalize-playability", "recovery-distance",
           "single-bridges", "recovery-fallback"]


def positions(count, seed=0, hand_size=8, base=1000):
    """Mid-game positions: some cards laid, tops among them, a hand (decks from shuffle
    seeds ``base + 100 * seed + k``)."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        deck = [int(c) for c in shuffled_deck(np.uint64(base + seed * 100 + k))]
        n_laid = int(rng.integers(4, 50))
        laid = set(deck[:n_laid])
        low = sorted(c for c in laid if c < 50) or [1]
        high = sorted(c for c in laid if c >= 50) or [100]
        tops = [low[-1], low[0] if len(low) > 1 else 1, high[0], high[-1] if len(high) > 1
                else 100]
        rest = deck[n_laid:]
        out.append((tops, rest[:hand_size], laid, len(rest) - hand_size))
    return out


def v(player, tops, hand, laid, seq, unknown):
    return position_value(player, None, tops, hand, laid, plays=list(seq), unknown=unknown)


def v_deep(player, params, tops, hand, laid, seq, unknown, depth):
    """v_d by brute force: best value over 0..depth further plays after ``seq`` (all
    orders), for ``player`` with ``params`` (None: its defaults)."""
    best = position_value(player, params, tops, hand, laid, plays=list(seq), unknown=unknown)
    if depth == 0:
        return best
    cur = list(tops)
    for card, pile in seq:
        cur[pile] = card
    left = [c for c in hand if c not in {c for c, _ in seq}]
    for card, pile in legal_plays(cur, left):
        best = max(best, v_deep(player, params, tops, hand, laid, [*seq, (card, pile)],
                                unknown, depth - 1))
    return best


@pytest.mark.parametrize("player", PLAYERS)
def test_depth_0_choice_is_the_brute_force_maximum(player):
    checked = 0
    for tops, hand, laid, unknown in positions(12, seed=1):
        seqs = legal_sequences(tops, hand, 2)
        chosen, count = choose_turn(player, None, tops, hand, laid, 0, unknown=unknown)
        if not seqs:
            assert chosen == [] and count == 0
            continue
        best = max(v(player, tops, hand, laid, s, unknown) for s in seqs)
        assert tuple(chosen) in seqs
        assert v(player, tops, hand, laid, chosen, unknown) == pytest.approx(best, rel=1e-9)
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize("player", ["penalize-playability", "recovery-fallback"])
def test_depth_1_choice_is_the_brute_force_maximum(player):
    for tops, hand, laid, unknown in positions(4, seed=2):
        hand = hand[:6]  # keep the brute force small
        seqs = legal_sequences(tops, hand, 2)
        chosen, _ = choose_turn(player, None, tops, hand, laid, 1, unknown=unknown)
        if not seqs:
            continue
        best = max(v_deep(player, None, tops, hand, laid, s, unknown, 1) for s in seqs)
        got = v_deep(player, None, tops, hand, laid, chosen, unknown, 1)
        assert got == pytest.approx(best, rel=1e-9)


@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("player", ["recovery-fallback", "real-capacity"])
def test_merging_transpositions_does_not_change_the_choice(player, depth):
    for tops, hand, laid, unknown in positions(5, seed=3):
        with_table = choose_turn(player, None, tops, hand, laid, depth, unknown=unknown)
        without = choose_turn(player, None, tops, hand, laid, depth, unknown=unknown,
                              transpositions=False)
        assert with_table[0] == without[0]


def test_last_cards_need_one_play_when_the_draw_pile_is_empty():
    tops, hand, laid = [40, 50, 60, 70], [41], set(range(2, 100)) - {41, 40, 50, 60, 70}
    chosen, count = choose_turn("recovery-fallback", None, tops, hand, laid, 0, unknown=0)
    assert count > 0 and len(chosen) == 1 and chosen[0][0] == 41


@pytest.mark.parametrize("params", [
    {"bound": 6},                                   # one-bridge cells only
    {"bound": 23, "hand_weight": 1.5, "lam": 0.17},  # chains of two, hand cards weighted
    {"form": "outer", "hand_bridges": 0, "w_first": 1.3},
])
def test_two_play_kernel_matches_brute_force_on_bridge_rich_hands(params):
    """d = 0 turns run a flat kernel of their own: it must pick a best sequence too."""
    checked = 0
    for tops, hand, laid, unknown in positions(25, seed=4):
        # put bridges in the hand: swap in the card 10 above or below a hand card
        pool = [c for c in range(2, 100) if c not in laid and c not in hand
                and c not in tops]
        for k in range(0, 6, 2):
            for c in (hand[k] + 10, hand[k] - 10):
                if c in pool:
                    hand = [*hand[:k + 1], c, *hand[k + 2:]]
                    pool.remove(c)
                    break
        hand = list(dict.fromkeys(hand))
        seqs = legal_sequences(tops, hand, 2)
        chosen, count = choose_turn("recovery-fallback", params, tops, hand, laid, 0,
                                    unknown=unknown)
        if not seqs:
            assert count == 0
            continue
        values = [position_value("recovery-fallback", params, tops, hand, laid, list(s),
                                 unknown=unknown) for s in seqs]
        got = position_value("recovery-fallback", params, tops, hand, laid, chosen,
                             unknown=unknown)
        assert tuple(chosen) in seqs
        assert got == pytest.approx(max(values), rel=1e-9)
        checked += 1
    assert checked >= 15
