"""Deck compositions and hand-money probabilities, the data the exact solvers work on.

A composition is the vector of cards *added* to the starting deck, one counter per slot
(treasure kinds, then all victory cards). Compositions are indexed by total additions first
(so "at most s additions" is a prefix of the index) and lexicographically within a total;
``rank`` computes that index in O(slots) with the combinatorial number system.

For every composition we need P(money >= x) for a handful of thresholds x (the card costs
and any money thresholds a strategy uses): money is the sum of treasure values in a hand
drawn without replacement (multivariate hypergeometric). Those tails are computed once per
(card set, size, thresholds) and cached.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from games.deckbuilder._model import CardSet


@njit(cache=True)
def binom_int(nmax: int, kmax: int) -> np.ndarray:
    """Integer binomial table C[n, k] for n <= nmax, k <= kmax."""
    c = np.zeros((nmax + 1, kmax + 1), dtype=np.int64)
    for n in range(nmax + 1):
        c[n, 0] = 1
        for k in range(1, min(n, kmax) + 1):
            c[n, k] = c[n - 1, k - 1] + (c[n - 1, k] if k <= n - 1 else 0)
    return c


@njit(cache=True)
def binom_float(nmax: int, kmax: int) -> np.ndarray:
    """Floating binomial table C[n, k] (n up to thousands without overflow)."""
    c = np.zeros((nmax + 1, kmax + 1))
    for n in range(nmax + 1):
        c[n, 0] = 1.0
        for k in range(1, min(n, kmax) + 1):
            c[n, k] = c[n - 1, k - 1] + (c[n - 1, k] if k <= n - 1 else 0.0)
    return c


@njit(cache=True)
def count_upto(s: int, d: int, cb: np.ndarray) -> int:
    """Number of compositions with at most ``s`` additions in ``d`` slots."""
    return cb[s + d, d] if s >= 0 else 0


@njit(cache=True)
def rank(a: np.ndarray, cb: np.ndarray) -> int:
    """Index of composition ``a`` (sum-major, lexicographic within a sum)."""
    d = a.shape[0]
    s = 0
    for i in range(d):
        s += a[i]
    idx = count_upto(s - 1, d, cb)
    r = s
    for i in range(d - 1):
        n = d - i
        # vectors of sum r over n parts whose first part is below a[i]
        idx += cb[r + n - 1, n - 1] - cb[r - a[i] + n - 1, n - 1]
        r -= a[i]
    return idx


@njit(cache=True)
def layer_compositions(s: int, d: int) -> np.ndarray:
    """Compositions with exactly ``s`` added cards, in rank order."""
    cb = binom_int(s + d + 1, d + 1)
    n = cb[s + d - 1, d - 1]
    out = np.zeros((n, d), dtype=np.int16)
    a = np.zeros(d, dtype=np.int64)
    i = 0
    while True:
        head = 0
        for k in range(d - 1):
            head += a[k]
        a[d - 1] = s - head
        for k in range(d):
            out[i, k] = a[k]
        i += 1
        pos = d - 2
        while pos >= 0:
            if head < s:
                a[pos] += 1
                break
            head -= a[pos]
            a[pos] = 0
            pos -= 1
        if pos < 0:
            break
    return out


@njit(cache=True)
def enumerate_compositions(smax: int, d: int) -> np.ndarray:
    """All compositions with at most ``smax`` additions, row i having rank i."""
    cb = binom_int(smax + d + 1, d + 1)
    out = np.zeros((count_upto(smax, d, cb), d), dtype=np.int16)
    i = 0
    for s in range(smax + 1):  # ranks list the layers by size, each in odometer order
        layer = layer_compositions(s, d)
        out[i:i + layer.shape[0]] = layer
        i += layer.shape[0]
    return out


@njit(cache=True)
def successor_table(comps: np.ndarray, smax: int) -> np.ndarray:
    """Index of composition + one card in slot k; -1 when that would exceed ``smax``."""
    n, d = comps.shape
    cb = binom_int(smax + d + 2, d + 1)
    out = np.full((n, d), -1, dtype=np.int32)
    a = np.empty(d, dtype=np.int64)
    for i in range(n):
        s = 0
        for k in range(d):
            a[k] = comps[i, k]
            s += a[k]
        if s >= smax:
            continue
        for k in range(d):
            a[k] += 1
            out[i, k] = rank(a, cb)
            a[k] -= 1
    return out


@njit(cache=True)
def _treasure_tails(tcomps: np.ndarray, tstart: np.ndarray, tpatterns: np.ndarray,
                    psum: np.ndarray, pbucket: np.ndarray, cf: np.ndarray, hand: int,
                    nt: int) -> np.ndarray:
    """Q[q, j, b] = P(money >= thr_b | j cards drawn from treasure composition q).

    C(T+3, 3) rows: few next to the C(T+4, 4) compositions."""
    nq, dt = tcomps.shape
    out = np.zeros((nq, hand + 1, nt))
    counts = np.empty(dt, dtype=np.int64)
    acc = np.empty((hand + 1, nt))
    for q in range(nq):
        acc[:] = 0.0
        total = 0
        for k in range(dt):
            counts[k] = tstart[k] + tcomps[q, k]
            total += counts[k]
        for p in range(tpatterns.shape[0]):
            w = 1.0
            for k in range(dt):
                w *= cf[counts[k], tpatterns[p, k]]  # zero when too few copies
            acc[psum[p], pbucket[p]] += w
        for j in range(hand + 1):
            ways = cf[total, j]
            if ways <= 0.0:
                continue
            run = 0.0
            for b in range(nt - 1, -1, -1):
                run += acc[j, b]
                out[q, j, b] = run / ways
    return out


@njit(cache=True)
def max_row_sum(comps: np.ndarray, cols: int) -> int:
    """Largest sum of the first ``cols`` entries of a row (0 for no rows)."""
    best = 0
    for i in range(comps.shape[0]):
        s = 0
        for k in range(cols):
            s += comps[i, k]
        if s > best:
            best = s
    return best


@njit(cache=True)
def _tails_kernel(comps: np.ndarray, start: np.ndarray, qtab: np.ndarray, cf: np.ndarray,
                  cbt: np.ndarray, hand: int) -> np.ndarray:
    n, d = comps.shape
    dt = d - 1
    nt = qtab.shape[2]
    out = np.zeros((n, nt + 1))
    a = np.empty(dt, dtype=np.int64)
    for i in range(n):
        ntr = 0
        for k in range(dt):
            a[k] = comps[i, k]
            ntr += start[k] + a[k]
        nv = start[dt] + comps[i, dt]
        q = rank(a, cbt)
        norm = 1.0 / cf[ntr + nv, hand]
        for j in range(hand + 1):
            h = cf[ntr, j] * cf[nv, hand - j] * norm  # P(j treasures in the hand)
            if h == 0.0:
                continue
            for b in range(nt):
                out[i, b] += h * qtab[q, j, b]
        out[i, 0] = 1.0
    return out


def tail_table(comps: np.ndarray, start: np.ndarray, values: np.ndarray, hand: int,
               thresholds: np.ndarray, max_money: int) -> np.ndarray:
    """G[i, j] = P(money >= thresholds[j]) for composition i; a last column of zeros.

    Money depends only on the treasures in the hand, so the hand is split into "j treasure
    cards" (hypergeometric in treasures against victory cards) and "which treasures"
    (depends only on the treasure counts). The second part is tabulated once per treasure
    composition, far fewer than the compositions themselves (C(T+3, 3) against C(T+4, 4)
    in the thesis set), so each composition costs O(hand * thresholds).
    """
    d = comps.shape[1]
    dt = d - 1
    start = np.asarray(start, dtype=np.int64)
    tmax = max_row_sum(comps, dt)
    tcomps = enumerate_compositions(tmax, dt)
    tpatterns = enumerate_compositions(hand, dt).astype(np.int64)
    money = tpatterns @ np.asarray(values[:dt], dtype=np.int64)
    pbucket = (np.searchsorted(thresholds, money, side="right") - 1).astype(np.int64)
    psum = tpatterns.sum(axis=1).astype(np.int64)
    top = int(np.sum(start)) + max_row_sum(comps, d)
    cf = binom_float(top + 1, hand)
    qtab = _treasure_tails(tcomps, start[:dt], tpatterns, psum, pbucket, cf, hand,
                           len(thresholds))
    cbt = binom_int(tmax + dt + 1, dt + 1)
    return _tails_kernel(comps, start, qtab, cf, cbt, hand)


TAILS_KEPT = 6  # threshold sets whose hand-money tails a state space keeps


class StateSpace:
    """Compositions with at most ``smax`` additions, their successors and cached tails."""

    def __init__(self, card_set: CardSet, smax: int) -> None:
        self.card_set = card_set
        self.smax = smax
        self.dims = card_set.dims
        self.comps = enumerate_compositions(smax, self.dims)
        self.succ = successor_table(self.comps, smax)
        cb = binom_int(smax + self.dims + 1, self.dims + 1)
        self.layer_size = np.array([count_upto(s, self.dims, cb) for s in range(smax + 1)],
                                   dtype=np.int64)
        self._tails: dict[tuple[int, ...], np.ndarray] = {}

    def tails(self, thresholds: tuple[int, ...]) -> np.ndarray:
        """P(money >= x) per composition for sorted thresholds x (first must be 0).

        The last ``TAILS_KEPT`` threshold sets are cached: at T = 100 one table is about
        0.3 GB, and an evolution's rules bring many sets of money thresholds."""
        table = self._tails.pop(thresholds, None)
        if table is None:
            cs = self.card_set
            table = tail_table(self.comps, cs.start_counts, cs.slot_values, cs.hand_size,
                               np.asarray(thresholds, dtype=np.int64), cs.max_money)
        self._tails[thresholds] = table  # most recently used last
        while len(self._tails) > TAILS_KEPT:
            del self._tails[next(iter(self._tails))]
        return table


@lru_cache(maxsize=2)
def state_space(card_set: CardSet, smax: int) -> StateSpace:
    """Cached state space: repeated exact evaluations at one T share hand probabilities."""
    return StateSpace(card_set, smax)
