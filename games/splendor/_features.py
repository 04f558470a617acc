"""What the learned Splendor player sees of a position, and the value it learns over it.

A position is described from one seat (``p``) against its strongest opponent (``q``: the
other seat with the most points, then the fewest cards), by :data:`NF` numbers a player may
know: both seats' points, cards, tokens, gold, reserve counts and progress towards the
nobles still free; what each could buy from the face-up cards (and ``p`` from its own
reserves: ``q``'s blind reserves are hidden, so only their number counts); how close each is
to the face-up points (cards one, two or three gems short); who moves next; whether the last
round is running. Deck order and the opponents' blind reserves are never read, so the
features of a position and of any search view of it (:func:`games.splendor._search.view`)
are the same.

The learned value is linear: ``v . features + bias`` (:data:`NV` weights), fitted by
self-play on each position's final result (+1 won, 0 shared, -1 lost) by the trainer of
:mod:`games.splendor.learning`. Search leaves use it where a bot's leaf mode is ``learned``
(:func:`search_leaf`); a finished game scores its exact result.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.splendor._cards import COST, NOBLE_REQ, POINTS
from games.splendor._heuristics import LEAF_LEARNED, N_COEF, leaf, noble_progress
from games.splendor._rules import (
    O_BOARD,
    O_BON,
    O_CUR,
    O_DONE,
    O_FINAL,
    O_NCARD,
    O_NOB,
    O_NOBOWN,
    O_NP,
    O_PTS,
    O_RES,
    O_ROUND,
    O_TOK,
    seat_result,
)

#: names the feature layout: a model or checkpoint made for another is refused
FEATURE_SET = "splendor-features-v1"
#: per seat, in this order, for ``p`` then ``q``
SEAT_FEATURES = ("points", "cards", "noble_units", "tokens", "gold", "reserved",
                 "buyable", "best_buy", "buyable_points", "near1_points", "near2_points",
                 "near3_points", "colours_1", "colours_3", "noble_closest")
#: the rest: who moves next and how far the game is
SHARED_FEATURES = ("p_moves_next", "final_round", "round")
FEATURE_NAMES = tuple([f"p_{n}" for n in SEAT_FEATURES] + [f"q_{n}" for n in SEAT_FEATURES]
                      + list(SHARED_FEATURES))
NS = len(SEAT_FEATURES)
NF = len(FEATURE_NAMES)
#: weights of a learned value: one per feature, then the bias
NV = NF + 1


@njit(cache=True)
def strongest_opponent(s: np.ndarray, p: int) -> int:
    """The other seat with the most points (then the fewest cards, then the first)."""
    best, q = -1, -1
    for r in range(s[O_NP]):
        if r == p:
            continue
        if q < 0 or s[O_PTS + r] > best or (s[O_PTS + r] == best
                                             and s[O_NCARD + r] < s[O_NCARD + q]):
            best, q = s[O_PTS + r], r
    return q


@njit(cache=True)
def _short(s: np.ndarray, x: int, card: int) -> int:
    """Gems seat ``x`` lacks for ``card`` after bonuses, tokens and gold (0: it can buy)."""
    short = 0
    for c in range(5):
        need = COST[card, c] - s[O_BON + 5 * x + c] - s[O_TOK + 6 * x + c]
        if need > 0:
            short += need
    short -= s[O_TOK + 6 * x + 5]
    return short if short > 0 else 0


@njit(cache=True)
def _seat(s: np.ndarray, x: int, own: bool, out: np.ndarray, at: int) -> None:
    """The :data:`SEAT_FEATURES` of seat ``x`` into ``out[at:]``; ``own``: its reserves are
    known to the seat the features are for (else only their number counts)."""
    tok = 0
    for c in range(6):
        tok += s[O_TOK + 6 * x + c]
    reserved = 0
    for j in range(3):
        if s[O_RES + 3 * x + j] >= 0:
            reserved += 1
    buyable = 0
    best = 0
    pts0 = 0
    near1 = 0
    near2 = 0
    near3 = 0
    for i in range(15):
        if i < 12:
            card = s[O_BOARD + i]
        elif own:
            card = s[O_RES + 3 * x + i - 12]
        else:
            break
        if card < 0 or card >= 90:  # empty, or a hidden card of a seat's view
            continue
        short = _short(s, x, card)
        pts = POINTS[card]
        if short == 0:
            buyable += 1
            pts0 += pts
            if pts > best:
                best = pts
        elif short == 1:
            near1 += pts
        elif short == 2:
            near2 += pts
        elif short == 3:
            near3 += pts
    c1 = 0
    c3 = 0
    for c in range(5):
        b = s[O_BON + 5 * x + c]
        if b >= 1:
            c1 += 1
        if b >= 3:
            c3 += 1
    closest = 10
    for k in range(5):
        nob = s[O_NOB + k]
        if nob < 0 or s[O_NOBOWN + k] >= 0:
            continue
        miss = 0
        for c in range(5):
            d = NOBLE_REQ[nob, c] - s[O_BON + 5 * x + c]
            if d > 0:
                miss += d
        if miss < closest:
            closest = miss
    out[at + 0] = s[O_PTS + x]
    out[at + 1] = s[O_NCARD + x]
    out[at + 2] = noble_progress(s, x)
    out[at + 3] = tok
    out[at + 4] = s[O_TOK + 6 * x + 5]
    out[at + 5] = reserved
    out[at + 6] = buyable
    out[at + 7] = best
    out[at + 8] = pts0
    out[at + 9] = near1
    out[at + 10] = near2
    out[at + 11] = near3
    out[at + 12] = c1
    out[at + 13] = c3
    out[at + 14] = closest


@njit(cache=True)
def features(s: np.ndarray, p: int, out: np.ndarray) -> None:
    """The :data:`FEATURE_NAMES` of the position for seat ``p`` into ``out[:NF]``."""
    q = strongest_opponent(s, p)
    _seat(s, p, True, out, 0)
    _seat(s, q, False, out, NS)
    out[2 * NS] = 1.0 if s[O_CUR] == p else 0.0
    out[2 * NS + 1] = 1.0 if s[O_FINAL] else 0.0
    out[2 * NS + 2] = s[O_ROUND]


@njit(cache=True)
def learned_value(s: np.ndarray, p: int, v: np.ndarray) -> float:
    """The learned value of the position for seat ``p`` (weights ``v``: :data:`NV`); a
    finished game scores its exact result (+1, 0, -1)."""
    if s[O_DONE]:
        return float(seat_result(s, p))
    f = np.empty(NF, dtype=np.float64)
    features(s, p, f)
    total = v[NF]
    for i in range(NF):
        total += v[i] * f[i]
    return total


@njit(cache=True)
def search_leaf(s: np.ndarray, root: int, mover: int, w: np.ndarray, mode: int) -> float:
    """A search leaf's value for seat ``root``: F's (:func:`games.splendor._heuristics.leaf`)
    or, in mode ``learned``, the learned value, whose weights follow F's in ``w``."""
    if mode == LEAF_LEARNED:
        return learned_value(s, root, w[N_COEF:])
    return leaf(s, root, mover, w, mode)
