"""Search players over the compact state: Greedy and RandomSearch, the whole-turn helpers
the searches share, and the honest view they search from (Minimax lives in
:mod:`games.splendor._minimax`). All numba-compiled.

Hidden information: a player searches :func:`view` of the position, never the position
itself. In the thesis's mode (``sampled=0``) every deck card and every opponent's blind
reserve is replaced by a hidden placeholder of its tier (it can be reserved blind, never
bought) and boards are not refilled during lookahead. With ``sampled=1`` the unseen cards of
each tier (deck plus opponents' blind reserves) are shuffled with the player's own random
stream and refills come from that sample.

Within a turn the searching players take their return and noble decisions greedily with
their own F (returning the colour whose loss scores best, ties to the colour held most,
gold last), so one search ply is one whole turn.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.splendor._cards import HIDDEN, TIER
from games.splendor._deal import rand_below, shuffle_range
from games.splendor._heuristics import score
from games.splendor._rules import (
    DECK_OFF,
    M_RETURN,
    MAX_LEGAL,
    O_BANK,
    O_BLIND,
    O_CUR,
    O_DECK,
    O_DONE,
    O_DPTR,
    O_NP,
    O_PHASE,
    O_REFILL,
    O_RES,
    O_SIM,
    O_TOK,
    PH_MAIN,
    PH_RETURN,
    SIZE,
    TIER_SIZE,
    apply_move,
    copy_state,
    legal_main,
    legal_moves,
)

NEG = -1.0e300
POS = 1.0e300


@njit(cache=True)
def view(s: np.ndarray, viewer: int, sampled: int, rng: np.ndarray, out: np.ndarray) -> None:
    """What seat ``viewer`` may know of ``s``, written to ``out`` (see the module text)."""
    out[:] = s
    out[O_SIM] = 0
    players = s[O_NP]
    if sampled:
        out[O_REFILL] = 1
        pool = np.empty(48, dtype=np.int64)  # a tier's deck plus blind reserves: <= 36
        for t in range(3):
            n = 0
            base = O_DECK + DECK_OFF[t]
            for k in range(s[O_DPTR + t], TIER_SIZE[t]):
                pool[n] = s[base + k]
                n += 1
            for q in range(players):
                if q != viewer:
                    for j in range(3):
                        card = s[O_RES + 3 * q + j]
                        if card >= 0 and s[O_BLIND + 3 * q + j] and TIER[card] == t:
                            pool[n] = card
                            n += 1
            shuffle_range(pool, 0, n, rng)
            n = 0
            for k in range(s[O_DPTR + t], TIER_SIZE[t]):
                out[base + k] = pool[n]
                n += 1
            for q in range(players):
                if q != viewer:
                    for j in range(3):
                        card = s[O_RES + 3 * q + j]
                        if card >= 0 and s[O_BLIND + 3 * q + j] and TIER[card] == t:
                            out[O_RES + 3 * q + j] = pool[n]
                            n += 1
        return
    out[O_REFILL] = 0
    for t in range(3):
        base = O_DECK + DECK_OFF[t]
        for k in range(TIER_SIZE[t]):
            out[base + k] = HIDDEN + t
    for q in range(players):
        if q != viewer:
            for j in range(3):
                card = s[O_RES + 3 * q + j]
                if card >= 0 and s[O_BLIND + 3 * q + j]:
                    out[O_RES + 3 * q + j] = HIDDEN + TIER[card]


@njit(cache=True)
def sub_decision(s: np.ndarray, p: int, w: np.ndarray) -> int:
    """Seat ``p``'s return or noble decision chosen greedily with F (the phase due)."""
    if s[O_PHASE] == PH_RETURN:
        best = NEG
        held = -1
        pick = -1
        for c in range(6):
            tok = O_TOK + 6 * p + c
            if s[tok] == 0:
                continue
            s[tok] -= 1
            s[O_BANK + c] += 1
            v = score(s, p, w)
            s[tok] += 1
            s[O_BANK + c] -= 1
            h = s[tok] if c < 5 else 0
            if v > best or (v == best and h > held):
                best = v
                held = h
                pick = c
        return M_RETURN + pick
    moves = np.empty(8, dtype=np.int64)
    n = legal_moves(s, moves)
    tmp = np.empty(SIZE, dtype=np.int64)
    best = NEG
    pick = moves[0]
    for i in range(n):
        copy_state(tmp, s)
        apply_move(tmp, moves[i])
        v = score(tmp, p, w)
        if v > best:
            best = v
            pick = moves[i]
    return pick


@njit(cache=True)
def resolve(s: np.ndarray, p: int, w: np.ndarray) -> None:
    """Take seat ``p``'s return and noble decisions of this turn greedily with F."""
    while not s[O_DONE] and s[O_CUR] == p and s[O_PHASE] != PH_MAIN:
        apply_move(s, sub_decision(s, p, w))


@njit(cache=True)
def resolve_random(s: np.ndarray, p: int, rng: np.ndarray) -> None:
    """Take seat ``p``'s return and noble decisions uniformly at random."""
    if s[O_DONE] or s[O_PHASE] == PH_MAIN:
        return
    moves = np.empty(8, dtype=np.int64)
    while not s[O_DONE] and s[O_CUR] == p and s[O_PHASE] != PH_MAIN:
        n = legal_moves(s, moves)
        apply_move(s, moves[rand_below(rng, n)])


@njit(cache=True)
def greedy(s: np.ndarray, w: np.ndarray, scratch: np.ndarray, moves: np.ndarray) -> int:
    """The main move whose whole turn scores best with F (ties: first in move order)."""
    p = s[O_CUR]
    n = legal_main(s, moves)
    best = NEG
    pick = moves[0]
    for i in range(n):
        copy_state(scratch, s)
        apply_move(scratch, moves[i])
        resolve(scratch, p, w)
        v = score(scratch, p, w)
        if v > best:
            best = v
            pick = moves[i]
    return pick


@njit(cache=True)
def random_main(s: np.ndarray, rng: np.ndarray, moves: np.ndarray) -> int:
    """A uniformly random legal main move."""
    n = legal_main(s, moves)
    return moves[rand_below(rng, n)]


@njit(cache=True)
def random_search(s: np.ndarray, depth: int, k: int, w: np.ndarray, rng: np.ndarray,
                  line: np.ndarray, scratch: np.ndarray, moves: np.ndarray) -> int:
    """Play ``k`` continuations of ``depth`` turns (own moves random, others Greedy), score
    their ends with F and return the first move of the best one."""
    root = s[O_CUR]
    first = np.empty(MAX_LEGAL, dtype=np.int64)
    n0 = legal_main(s, first)
    best = NEG
    pick = first[0]
    for _ in range(k):
        copy_state(line, s)
        m0 = first[rand_below(rng, n0)]
        apply_move(line, m0)
        resolve(line, root, w)
        for _d in range(depth - 1):
            if line[O_DONE]:
                break
            p = line[O_CUR]
            if p == root:
                m = random_main(line, rng, moves)
            else:
                m = greedy(line, w, scratch, moves)
            apply_move(line, m)
            resolve(line, p, w)
        v = score(line, root, w)
        if v > best:
            best = v
            pick = m0
    return pick
