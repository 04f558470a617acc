"""Exact play at the end of a solo game (games.thegame._endgame) against a plain expectimax."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from games.core import InputError
from games.thegame import play_games
from games.thegame._positions import exact_turn
from games.thegame._rules import is_playable

FITTED = {"alpha": 5.137766281766317, "beta": 0.07623242763683438,
          "gamma": 0.005042452797870999, "lam": 0.17236899328960764, "bound": 23,
          "w_first": 1.0775416458161158, "hand_weight": 1.4663887372635531}


def brute_chance(tops: tuple[int, ...], hand: tuple[int, ...], pile: tuple[int, ...],
                 tmin: int, hand_size: int) -> float:
    """Chance of laying every card under best play, by plain recursion over every choice."""

    @functools.lru_cache(maxsize=None)
    def value(tops: tuple[int, ...], hand: tuple[int, ...], pile: tuple[int, ...],
              laid: int) -> float:
        if not hand and not pile:
            return 1.0
        best = 0.0
        if pile and laid >= tmin:  # end the turn: every subset of the pile equally likely
            k = min(hand_size - len(hand), len(pile))
            draws = list(itertools.combinations(pile, k))
            best = sum(value(tops, tuple(sorted(hand + d)),
                             tuple(c for c in pile if c not in d), 0) for d in draws) / len(draws)
        for card in hand:
            for p in range(4):
                if is_playable(p, tops[p], card):
                    t = list(tops)
                    t[p] = card
                    rest = tuple(c for c in hand if c != card)
                    best = max(best, value(tuple(t), rest, pile, min(laid + 1, tmin)))
                    if best == 1.0:
                        return best
        return best

    return value(tops, tuple(sorted(hand)), tuple(sorted(pile)), 0)


def random_position(rng: np.random.Generator, hand_size: int, pile: int
                    ) -> tuple[list[int], list[int], list[int], list[int]]:
    """Tops, hand, draw pile and laid cards of a plausible end of game."""
    cards = [int(c) for c in rng.choice(np.arange(2, 100), hand_size + pile, replace=False)]
    others = sorted(int(c) for c in rng.choice(
        [c for c in range(2, 100) if c not in cards], 4, replace=False))
    tops = [others[0], others[1], others[3], others[2]]
    if rng.random() < 0.3:
        tops = [1, others[0], 100, others[3]]
    laid = [c for c in range(2, 100) if c not in cards and c not in tops]
    return tops, cards[:hand_size], cards[hand_size:], laid


@pytest.mark.parametrize("tmin", [2, 1, 3])
def test_chance_and_turn_match_brute_force(tmin: int) -> None:
    rng = np.random.default_rng(20261126 + tmin)
    for _ in range(40):
        hand_size = int(rng.integers(3, 6))
        pile = int(rng.integers(0, 4))
        tops, hand, rest, laid = random_position(rng, hand_size, pile)
        want = brute_chance(tuple(tops), tuple(hand), tuple(rest), tmin, hand_size)
        plays, chance = exact_turn(tops, hand, laid, tmin=tmin, hand_size=hand_size)
        assert chance == pytest.approx(want, abs=1e-12)
        if chance == 0:
            assert plays == []
            continue
        # the turn is legal, long enough, and keeps the chance
        cur, held = list(tops), list(hand)
        for card, p in plays:
            assert card in held and is_playable(p, cur[p], card)
            cur[p] = card
            held.remove(card)
        assert len(plays) >= (min(tmin, len(hand)) if rest else len(hand))
        if rest:
            k = min(hand_size - len(held), len(rest))
            draws = list(itertools.combinations(rest, k))
            after = sum(brute_chance(tuple(cur), tuple(held) + d,
                                     tuple(c for c in rest if c not in d), tmin, hand_size)
                        for d in draws) / len(draws)
            assert after == pytest.approx(chance, abs=1e-12)


def test_turn_ignores_the_order_of_the_pile() -> None:
    # only which cards are unseen is known: the same position gives the same turn
    tops, hand, rest, laid = random_position(np.random.default_rng(7), 8, 3)
    assert exact_turn(tops, hand, laid) == exact_turn(list(tops), list(reversed(hand)), laid)


def test_too_many_cards_left_is_an_error() -> None:
    with pytest.raises(InputError, match="at most 16"):
        exact_turn([30, 40, 70, 60], [31, 32, 33, 34, 35, 36, 37, 38], laid=range(2, 20))


def test_exact_play_only_from_the_given_pile_and_only_solo() -> None:
    off = play_games("recovery-fallback", FITTED, 1, 11, 0, 40)
    on = play_games("recovery-fallback", {**FITTED, "endgame_pile": 4}, 1, 11, 0, 40)
    assert np.all((on >= 0) & (on <= 98))
    # a game lost before the pile reached 4 cards is unchanged
    early = off > 12
    assert np.array_equal(on[early], off[early])
    assert (on == 0).sum() >= (off == 0).sum() - 2
    trio = play_games("recovery-fallback", FITTED, 1, 11, 0, 20, players=3)
    trio_on = play_games("recovery-fallback", {**FITTED, "endgame_pile": 4}, 1, 11, 0, 20,
                         players=3)
    assert np.array_equal(trio, trio_on)


def test_a_backwards_trick_off_the_starting_top_is_seen() -> None:
    # from a game: 62 goes back onto the descending 52 although 56 could lower... raise it
    # first; pruning that forgot 52 once 56 was counted called this position lost
    tops, hand, pile = [79, 95, 52, 2], [14, 36, 39, 43, 51, 56, 62, 93], [8, 32, 45, 46, 81, 98]
    laid = [c for c in range(2, 100) if c not in hand + pile + tops]
    plays, chance = exact_turn(tops, hand, laid)
    assert chance == brute_chance(tuple(tops), tuple(hand), tuple(pile), 2, 8) == 1.0
    assert len(plays) >= 2
