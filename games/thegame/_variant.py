"""The Game under any table: 2-8 piles and any backwards-trick step, played by gap-greedy.

The value-function players (:mod:`games.thegame._search`) are built for the printed table:
four piles and a backwards trick of exactly 10 shape their bridge and chain tables. A rule
study that changes the piles or the trick needs a player that reads neither, so this kernel
plays the whole game with one rule-generic policy, as many people play it at the table:

* lay the cheapest play first: the one that moves its pile least (``card - top`` on an
  ascending pile, ``top - card`` on a descending one); a backwards trick costs ``-step``,
  so it always goes first; ties go to the lower card, then the lower pile;
* once the turn's minimum is laid, keep laying while the cheapest play costs at most
  ``lay_more_gap``.

Piles ``0 .. piles/2 - 1`` ascend from 1 and the others descend from 100; ``step`` 0 plays
without the trick. Deals, turn minimums, skipped empty hands and the end-of-game conventions
are :mod:`games.thegame._engine`'s: a turn that cannot reach its minimum lays the longest
sequence it can (``short_turn``), or nothing, and the game ends.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.thegame._rules import N_CARDS, shuffled_deck

MAX_PILES = 8
#: a play that cannot be made
NO_PLAY = 1 << 30


@njit(cache=True, inline="always")
def play_cost(pile: int, half: int, top: int, card: int, step: int) -> int:
    """How far ``card`` moves ``pile`` (``-step`` for a backwards trick); NO_PLAY when it
    may not go there."""
    if pile < half:
        if card > top:
            return card - top
        return -step if step > 0 and card == top - step else NO_PLAY
    if card < top:
        return top - card
    return -step if step > 0 and card == top + step else NO_PLAY


@njit(cache=True)
def cheapest_play(hand: np.ndarray, n: int, tops: np.ndarray, piles: int,
                  step: int) -> tuple[int, int, int]:
    """(hand slot, pile, cost) of the cheapest play (lower card, then lower pile, on ties);
    slot -1 when nothing can be laid."""
    half = piles // 2
    best_slot, best_pile, best_cost, best_card = -1, -1, NO_PLAY, 0
    for k in range(n):
        card = hand[k]
        for p in range(piles):
            c = play_cost(p, half, tops[p], card, step)
            if c < best_cost or (c == best_cost and c < NO_PLAY and card < best_card):
                best_slot, best_pile, best_cost, best_card = k, p, c, card
    return best_slot, best_pile, best_cost


@njit(cache=True)
def longest_short_turn(hand: np.ndarray, n: int, tops: np.ndarray, piles: int, step: int,
                       limit: int, out_cards: np.ndarray, out_piles: np.ndarray) -> int:
    """The longest sequence of at most ``limit`` (0-2) plays, the first such in the order of
    cards, then piles, ascending; written to ``out_*``, its length returned. (A turn's
    minimum is 3 at most, so a short turn lays 2 at most.)"""
    half = piles // 2
    order = np.sort(hand[:n])
    if limit >= 2:
        for i in range(n):
            a = order[i]
            for p in range(piles):
                if play_cost(p, half, tops[p], a, step) == NO_PLAY:
                    continue
                old = tops[p]
                tops[p] = a
                for j in range(n):
                    b = order[j]
                    if j == i:
                        continue
                    for p2 in range(piles):
                        if play_cost(p2, half, tops[p2], b, step) != NO_PLAY:
                            tops[p] = old
                            out_cards[0], out_piles[0] = a, p
                            out_cards[1], out_piles[1] = b, p2
                            return 2
                tops[p] = old
    if limit >= 1:
        for i in range(n):
            for p in range(piles):
                if play_cost(p, half, tops[p], order[i], step) != NO_PLAY:
                    out_cards[0], out_piles[0] = order[i], p
                    return 1
    return 0


@njit(cache=True, nogil=True)
def play_variant(seeds: np.ndarray, piles: int, step: int, players: int, hand_size: int,
                 tmin_full: int, short_turn: bool, lay_more_gap: int, cards_left: np.ndarray,
                 backwards: np.ndarray, turns: np.ndarray) -> None:
    """Play one game per seed with gap-greedy at every seat; per game write cards left,
    backwards tricks and turns (as :func:`games.thegame._engine.play_batch`)."""
    half = piles // 2
    tops = np.zeros(MAX_PILES, dtype=np.int64)
    saved = np.zeros(MAX_PILES, dtype=np.int64)
    hands = np.zeros((players, hand_size), dtype=np.int64)
    hn = np.zeros(players, dtype=np.int64)
    before = np.zeros(hand_size, dtype=np.int64)
    short_cards = np.zeros(2, dtype=np.int64)
    short_piles = np.zeros(2, dtype=np.int64)
    for g in range(seeds.size):
        deck = shuffled_deck(seeds[g])
        pos = 0
        for q in range(players):
            for k in range(hand_size):
                hands[q, k] = deck[pos]
                pos += 1
            hn[q] = hand_size
        for p in range(piles):
            tops[p] = 1 if p < half else 100
        laid = 0
        back = 0
        nturns = 0
        cur = 0
        while laid < N_CARDS:
            if hn[cur] == 0:
                cur = (cur + 1) % players
                continue
            tmin = tmin_full if pos < N_CARDS else 1
            hand = hands[cur]
            n = hn[cur]
            for p in range(piles):
                saved[p] = tops[p]
            for k in range(n):
                before[k] = hand[k]
            n_before, laid_before, back_before = n, laid, back
            now = 0
            while n > 0:
                k, p, c = cheapest_play(hand, n, tops, piles, step)
                if k < 0 or (now >= tmin and c > lay_more_gap):
                    break
                if c < 0:
                    back += 1
                tops[p] = hand[k]
                hand[k] = hand[n - 1]
                n -= 1
                now += 1
                laid += 1
            nturns += 1
            if now < tmin and laid < N_CARDS:  # short of the minimum: the game ends
                for p in range(piles):
                    tops[p] = saved[p]
                for k in range(n_before):
                    hand[k] = before[k]
                n, laid, back = n_before, laid_before, back_before
                if short_turn:
                    got = longest_short_turn(hand, n, tops, piles, step, tmin - 1,
                                             short_cards, short_piles)
                    for i in range(got):
                        p = short_piles[i]
                        if play_cost(p, half, tops[p], short_cards[i], step) < 0:
                            back += 1
                        tops[p] = short_cards[i]
                    laid += got
                break
            while n < hand_size and pos < N_CARDS:
                hand[n] = deck[pos]
                pos += 1
                n += 1
            hn[cur] = n
            cur = (cur + 1) % players
        cards_left[g] = N_CARDS - laid
        backwards[g] = back
        turns[g] = nturns
