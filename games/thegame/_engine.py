"""The game loop: deal, turns of exactly t_min cards, refill, the end and its score.

Solo and 2-5 players (no communication: each player sees the piles, its own hand and which
cards are not yet laid). A turn lays t_min cards: 2 (3 in expert mode) while the draw pile
has cards, 1 once it is empty; players with an empty hand are skipped.

End-of-game convention (the seed's): when the minimum cannot be laid, the player lays the
longest sequence it can, and the score is the number of cards not laid afterwards (hand(s)
plus draw pile). With ``short_turn=False`` the official reading is used instead: the short
turn lays nothing. A win (score 0) is the same under both conventions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.thegame._endgame import C_SIZE, endgame_turn, start_exact, table_size
from games.thegame._rules import N_CARDS, is_backwards, shuffled_deck
from games.thegame._search import (
    I_KCTL,
    K_ALLOW,
    K_KEEP,
    K_KEPT,
    MAX_KEEP,
    W_ACC,
    W_BEST,
    longest_sequence,
    search_turn,
    table_bits,
    workspace,
)
from games.thegame._values import (
    P_DEEPEN_K,
    P_DEEPEN_PLIES,
    P_DRAWS,
    P_ENDGAME,
    P_FAMILY,
    P_HAND,
    P_LAY_MARGIN,
    is_product_family,
    product_value,
    static_rows,
)


@njit(cache=True)
def deeper_depth(prm: np.ndarray, depth: int) -> int:
    """The depth selective deepening searches its kept candidates to (4 at most), or
    ``depth`` itself when the player does not deepen."""
    if prm[P_DEEPEN_K] > 1 and is_product_family(int(prm[P_FAMILY])):
        return min(4, depth + int(prm[P_DEEPEN_PLIES]))
    return depth


@njit(cache=True, nogil=True)
def deepened_turn(prm: np.ndarray, static: np.ndarray, rows: np.ndarray, turn: int,
                  tops: np.ndarray, hand: np.ndarray, n: int, tmin: int, depth: int, deep: int,
                  m: np.ndarray, in_hand: np.ndarray, unlaid: np.ndarray, unknown: int,
                  keys: np.ndarray, vals: np.ndarray, gens: np.ndarray, keys2: np.ndarray,
                  vals2: np.ndarray, gens2: np.ndarray, affected: np.ndarray, loo: np.ndarray,
                  crow: np.ndarray, iw: np.ndarray, fw: np.ndarray, out_slots: np.ndarray,
                  out_piles: np.ndarray) -> int:
    """The turn's t_min plays by selective deepening; returns the number of candidates.

    The d-search values every candidate by v_d and keeps the ``prm[P_DEEPEN_K]`` best (ties:
    first found); a second search, restricted to those, values them by v_deep
    (``deep`` > d, its own transposition table ``keys2``/``vals2``/``gens2``) and plays the
    best of them (ties: first found). With k at least the number of candidates this is the
    full deeper search; with one candidate kept it is the d-search.
    """
    iw[I_KCTL, K_KEEP] = min(int(prm[P_DEEPEN_K]), MAX_KEEP)
    iw[I_KCTL, K_ALLOW] = 0
    found = search_turn(prm, static, rows, turn, tops, hand, n, tmin, depth, m, in_hand,
                        unlaid, unknown, keys, vals, gens, affected, loo, crow, iw, fw,
                        out_slots, out_piles)
    iw[I_KCTL, K_KEEP] = 0
    if found > 1 and iw[I_KCTL, K_KEPT] > 1 and deep > depth:
        iw[I_KCTL, K_ALLOW] = iw[I_KCTL, K_KEPT]
        search_turn(prm, static, rows, turn, tops, hand, n, tmin, deep, m, in_hand, unlaid,
                    unknown, keys2, vals2, gens2, affected, loo, crow, iw, fw, out_slots,
                    out_piles)
        iw[I_KCTL, K_ALLOW] = 0
    return found


@njit(cache=True, nogil=True)
def extra_play(prm: np.ndarray, static: np.ndarray, rows: np.ndarray, turn: int,
               tops: np.ndarray, hand: np.ndarray, n: int, depth: int, m: np.ndarray,
               in_hand: np.ndarray, unlaid: np.ndarray, unknown: int, keys: np.ndarray,
               vals: np.ndarray, gens: np.ndarray, affected: np.ndarray, loo: np.ndarray,
               crow: np.ndarray, iw: np.ndarray, fw: np.ndarray, out_slots: np.ndarray,
               out_piles: np.ndarray) -> tuple[int, int]:
    """The card and pile of one more play after the turn's minimum, or (0, -1) to stop.

    A product-family player lays one more card when the best single play, valued by
    v_(d-1) (v at d = 0), beats the position's own v by more than the margin
    ``prm[P_LAY_MARGIN]``. Values are those of the position as it stands: the hand without
    the cards laid so far, the same unknown cards (the refill comes after the turn), and
    the bridge chances of the usual number of draws.
    """
    in_hand[:] = False
    for k in range(n):
        in_hand[hand[k]] = True
    for c in range(2, 100):
        m[c] = (prm[P_HAND] if in_hand[c] else 1.0) if unlaid[c] else 0.0
    found = search_turn(prm, static, rows, turn, tops, hand, n, 1, max(depth - 1, 0), m,
                        in_hand, unlaid, unknown, keys, vals, gens, affected, loo, crow, iw,
                        fw, out_slots, out_piles)
    if found == 0:
        return 0, -1
    stay = product_value(rows, prm, tops, m, out_slots, 0, affected)
    if fw[W_ACC, W_BEST] > stay + prm[P_LAY_MARGIN]:
        return hand[out_slots[0]], out_piles[0]
    return 0, -1


@njit(cache=True, nogil=True)
def play_batch(seeds: np.ndarray, prm_in: np.ndarray, depth: int, players: int,
               hand_size: int, expert: bool, short_turn: bool, bits: int,
               cards_left: np.ndarray, backwards: np.ndarray, turns: np.ndarray,
               trace: np.ndarray) -> None:
    """Play one game per seed; per game write cards left, backwards tricks and turns.

    ``bits`` is log2 of the d-search's transposition-table size
    (games.thegame._search.table_bits). When ``trace`` has one (98, 3) slab per game, play k
    of game g is written to trace[g, k] as (card, pile, turn); unused rows stay as they were
    (fill with -1).
    """
    tracing = trace.shape[0] == seeds.size
    prm = prm_in.copy()
    tmin_full = 3 if expert else 2
    prm[P_DRAWS] = tmin_full
    static = static_rows(prm)
    rows = static.copy()
    size = 1 << bits
    keys = np.zeros(size, dtype=np.int64)
    vals = np.zeros(size)
    gens = np.full(size, -1, dtype=np.int64)
    # selective deepening: the k best candidates valued again by v_deep (4 plies at most)
    deep = deeper_depth(prm, depth)
    deepen = deep > depth
    size2 = 1 << table_bits(deep, tmin_full) if deepen else 1
    keys2 = np.zeros(size2, dtype=np.int64)
    vals2 = np.zeros(size2)
    gens2 = np.full(size2, -1, dtype=np.int64)
    affected = np.empty(64, dtype=np.int64)
    loo = np.zeros((deep + tmin_full + 1, 4, static.shape[2]))
    crow = np.zeros((4, hand_size + 1, static.shape[2]))
    iw, fw = workspace()
    out_slots = np.empty(8, dtype=np.int64)
    out_piles = np.empty(8, dtype=np.int64)
    hands = np.zeros((players, hand_size), dtype=np.int64)
    hn = np.zeros(players, dtype=np.int64)
    tops = np.empty(4, dtype=np.int64)
    unlaid = np.zeros(101, dtype=np.bool_)
    in_hand = np.zeros(101, dtype=np.bool_)
    m = np.zeros(101)
    hand_weight = prm[P_HAND]
    lay_more = prm[P_LAY_MARGIN] < np.inf and is_product_family(int(prm[P_FAMILY]))
    # exact play once the draw pile is small (solo only: other hands would be unseen)
    endgame_pile = int(prm[P_ENDGAME]) if players == 1 else -1
    ectx = np.zeros(C_SIZE, dtype=np.int64)
    esize = table_size(endgame_pile)
    ekeys = np.zeros(esize, dtype=np.int64)
    evals = np.zeros(esize)
    egens = np.full(esize, -1, dtype=np.int64)
    turn = 0
    for g in range(seeds.size):
        deck = shuffled_deck(seeds[g])
        pos = 0
        for q in range(players):
            for k in range(hand_size):
                hands[q, k] = deck[pos]
                pos += 1
            hn[q] = hand_size
        tops[0] = 1
        tops[1] = 1
        tops[2] = 100
        tops[3] = 100
        unlaid[:] = False
        unlaid[2:100] = True
        laid = 0
        back = 0
        nturns = 0
        cur = 0
        exact_ready = False
        while laid < N_CARDS:
            if hn[cur] == 0:
                cur = (cur + 1) % players
                continue
            draw_left = N_CARDS - pos
            tmin = tmin_full if draw_left > 0 else 1
            hand = hands[cur]
            n = hn[cur]
            in_hand[:] = False
            for k in range(n):
                in_hand[hand[k]] = True
            for c in range(2, 100):
                m[c] = (hand_weight if in_hand[c] else 1.0) if unlaid[c] else 0.0
            unknown = N_CARDS - laid - n
            turn += 1
            exact = 0
            if draw_left <= endgame_pile:
                if not exact_ready:
                    exact_ready = start_exact(ectx, tops, unlaid)
                if exact_ready:
                    exact, _ = endgame_turn(ectx, tops, hand, n, unlaid, tmin_full, hand_size,
                                            ekeys, evals, egens, out_slots, out_piles)
            if exact > 0:
                found = 1
            elif deepen:
                found = deepened_turn(prm, static, rows, turn, tops, hand, n, tmin, depth, deep,
                                      m, in_hand, unlaid, unknown, keys, vals, gens, keys2,
                                      vals2, gens2, affected, loo, crow, iw, fw, out_slots,
                                      out_piles)
            else:
                found = search_turn(prm, static, rows, turn, tops, hand, n, tmin, depth,
                                    m, in_hand, unlaid, unknown, keys, vals, gens, affected,
                                    loo, crow, iw, fw, out_slots, out_piles)
            nplay = exact if exact > 0 else tmin
            if found == 0:
                nplay = longest_sequence(tops, hand, n, tmin - 1, out_slots, out_piles)
                if not short_turn:
                    nplay = 0
            for k in range(nplay):
                card = hand[out_slots[k]]
                p = out_piles[k]
                if is_backwards(p, tops[p], card):
                    back += 1
                if tracing:
                    trace[g, laid, 0] = card
                    trace[g, laid, 1] = p
                    trace[g, laid, 2] = nturns
                tops[p] = card
                unlaid[card] = False
                laid += 1
            # remove the laid cards from the hand, keeping the others in order
            keep = 0
            for k in range(n):
                if unlaid[hand[k]]:
                    hand[keep] = hand[k]
                    keep += 1
            n = keep
            # more than the minimum, card by card (an exact turn has laid all it means to)
            while found > 0 and exact == 0 and lay_more and n > 0:
                turn += 1
                card, p = extra_play(prm, static, rows, turn, tops, hand, n, depth, m,
                                     in_hand, unlaid, unknown, keys, vals, gens, affected,
                                     loo, crow, iw, fw, out_slots, out_piles)
                if card == 0:
                    break
                if is_backwards(p, tops[p], card):
                    back += 1
                if tracing:
                    trace[g, laid, 0] = card
                    trace[g, laid, 1] = p
                    trace[g, laid, 2] = nturns
                tops[p] = card
                unlaid[card] = False
                laid += 1
                keep = 0
                for k in range(n):
                    if hand[k] != card:
                        hand[keep] = hand[k]
                        keep += 1
                n = keep
            nturns += 1
            if found == 0:
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
