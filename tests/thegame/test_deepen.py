"""Selective deepening: the k best candidates of the d-search valued again, deeper."""

from __future__ import annotations

import pytest

from games.thegame import play_games
from games.thegame._positions import choose_turn
from games.thegame._rules import legal_sequences
from tests.thegame.test_search import positions as search_positions
from tests.thegame.test_search import v_deep

PLAYER = "recovery-fallback"
FITTED = {"alpha": 5.137766281766317, "beta": 0.07623242763683438,
          "gamma": 0.005042452797870999, "lam": 0.17236899328960764, "bound": 23,
          "w_first": 1.0775416458161158, "hand_weight": 1.4663887372635531}


def positions(count: int, seed: int, hand_size: int = 8):
    """Mid-game positions of their own shuffles (test_search's kind)."""
    return search_positions(count, seed, hand_size, base=5000)


def final(tops, seq):
    """The position a sequence reaches: its tops and the set of cards laid."""
    cur = list(tops)
    for card, pile in seq:
        cur[pile] = card
    return tuple(cur), frozenset(c for c, _ in seq)


@pytest.mark.parametrize(("depth", "plies", "tmin"), [(0, 1, 2), (1, 1, 2), (0, 2, 2),
                                                      (1, 2, 1)])
def test_keeping_every_candidate_is_the_full_deeper_search(depth, plies, tmin):
    checked = 0
    for tops, hand, laid, unknown in positions(5, seed=depth + 3 * plies + tmin, hand_size=5):
        deep, count = choose_turn(PLAYER, FITTED, tops, hand, laid, depth + plies, tmin=tmin,
                                  unknown=unknown)
        if not 1 < count <= 128:
            continue
        params = {**FITTED, "deepen_k": 128, "deepen_plies": plies}
        got, got_count = choose_turn(PLAYER, params, tops, hand, laid, depth, tmin=tmin,
                                     unknown=unknown)
        assert got_count == count
        assert final(tops, got) == final(tops, deep)
        checked += 1
    assert checked >= 3


def test_deepening_off_or_one_kept_leaves_every_choice_unchanged():
    for tops, hand, laid, unknown in positions(6, seed=11):
        plain = choose_turn(PLAYER, FITTED, tops, hand, laid, 1, unknown=unknown)
        for extra in ({"deepen_k": 0, "deepen_plies": 2}, {"deepen_k": 1}):
            assert choose_turn(PLAYER, {**FITTED, **extra}, tops, hand, laid, 1,
                               unknown=unknown) == plain
    base = play_games(PLAYER, FITTED, 1, 41, 0, 6)
    assert (play_games(PLAYER, {**FITTED, "deepen_k": 1, "deepen_plies": 2}, 1, 41, 0, 6)
            == base).all()


@pytest.mark.parametrize("k", [2, 3])
def test_the_choice_is_the_best_deeper_value_among_the_k_best(k):
    params = {**FITTED, "deepen_k": k, "deepen_plies": 1}
    checked = 0
    for tops, hand, laid, unknown in positions(8, seed=20 + k, hand_size=6):
        seqs = legal_sequences(tops, hand, 2)
        reached = {}
        for s in seqs:  # one sequence per position reached, the first in the search's order
            reached.setdefault(final(tops, s), s)
        if len(reached) <= k:
            continue
        v0 = sorted((v_deep(PLAYER, FITTED, tops, hand, laid, s, unknown, 0), key)
                    for key, s in reached.items())[::-1]
        if abs(v0[k - 1][0] - v0[k][0]) < 1e-9 * abs(v0[k][0]):
            continue  # a tie at the k-th place: which one is kept is the search's order
        kept = {key for _, key in v0[:k]}
        chosen, _ = choose_turn(PLAYER, params, tops, hand, laid, 0, unknown=unknown)
        assert final(tops, chosen) in kept
        deeper = {key: v_deep(PLAYER, FITTED, tops, hand, laid, reached[key], unknown, 1)
                  for key in kept}
        assert deeper[final(tops, chosen)] == pytest.approx(max(deeper.values()), rel=1e-9)
        plain, _ = choose_turn(PLAYER, FITTED, tops, hand, laid, 0, unknown=unknown)
        assert final(tops, plain) == v0[0][1] or v0[0][0] == pytest.approx(
            v_deep(PLAYER, FITTED, tops, hand, laid, plain, unknown, 0), rel=1e-9)
        checked += 1
    assert checked >= 4
