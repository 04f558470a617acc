"""Rules of The Game (Benndorf): cards, piles, legal plays, dealing.

Cards are the integers 2..99. Piles 0 and 1 ascend from 1, piles 2 and 3 descend from 100.
A card goes on an ascending pile if it is higher than the top or exactly 10 lower (the
backwards trick); on a descending pile if it is lower or exactly 10 higher. Everything
here is numba-compiled so the engine's inner loops can call it, with thin Python helpers
for tests and users.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.rng import GOLDEN, mix, to_unit

LOW_CARD = 2
HIGH_CARD = 99
N_CARDS = HIGH_CARD - LOW_CARD + 1  # 98
N_PILES = 4
ASC_START = 1
DESC_START = 100
START_TOPS = (ASC_START, ASC_START, DESC_START, DESC_START)


def hand_size_for(players: int) -> int:
    """Hand size of the rules: 8 solo, 7 for two players, 6 for three to five."""
    return {1: 8, 2: 7}.get(players, 6)


@njit(cache=True, inline="always")
def is_playable(pile: int, top: int, card: int) -> bool:
    """Whether ``card`` may go on ``pile`` whose top is ``top`` (backwards trick included)."""
    if pile < 2:
        return card > top or card == top - 10
    return card < top or card == top + 10


@njit(cache=True, inline="always")
def is_backwards(pile: int, top: int, card: int) -> bool:
    """Whether laying ``card`` on ``pile`` is a backwards trick (a step of exactly 10 back)."""
    if pile < 2:
        return card == top - 10
    return card == top + 10


@njit(cache=True, inline="always")
def gap(pile: int, top: int, card: int) -> int:
    """Distance from the top to a card that lies behind it (positive when not playable)."""
    if pile < 2:
        return top - card
    return card - top


# --------------------------------------------------------------------------- random deals

@njit(cache=True)
def shuffled_deck(seed: np.uint64) -> np.ndarray:
    """The 98 cards in the order of a game with integer ``seed`` (SplitMix64 Fisher-Yates).

    The seed comes from games.core.game_seeds, so game i of a run is the same deal whatever
    process plays it.
    """
    deck = np.arange(LOW_CARD, HIGH_CARD + 1).astype(np.int64)
    state = np.uint64(seed)
    for i in range(N_CARDS - 1, 0, -1):
        state = state + GOLDEN
        j = int(to_unit(mix(state)) * (i + 1))
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
    return deck


# --------------------------------------------------------------------------- Python helpers


def legal_plays(tops: tuple[int, ...] | list[int], hand: list[int]) -> list[tuple[int, int]]:
    """Every single play (card, pile) available from ``hand`` on piles with ``tops``."""
    return [(card, pile) for card in hand for pile in range(N_PILES)
            if is_playable(pile, int(tops[pile]), int(card))]


def legal_sequences(tops: tuple[int, ...] | list[int], hand: list[int],
                    length: int) -> list[tuple[tuple[int, int], ...]]:
    """Every ordered sequence of exactly ``length`` plays from ``hand`` (brute force).

    A slow reference for tests: the engine's search enumerates the same sequences.
    """
    out: list[tuple[tuple[int, int], ...]] = []

    def walk(cur: list[int], left: list[int], seq: list[tuple[int, int]]) -> None:
        if len(seq) == length:
            out.append(tuple(seq))
            return
        for card in left:
            for pile in range(N_PILES):
                if is_playable(pile, cur[pile], card):
                    nxt = list(cur)
                    nxt[pile] = card
                    walk(nxt, [c for c in left if c != card], [*seq, (card, pile)])

    walk(list(tops), list(hand), [])
    return out


def minimum_play(draw_pile_size: int, expert: bool = False) -> int:
    """Cards a turn must lay: 2 (3 in expert mode) while the draw pile has cards, then 1."""
    if draw_pile_size > 0:
        return 3 if expert else 2
    return 1
