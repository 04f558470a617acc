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
from numba import njit, prange

from games.deckbuilder.model import CardSet


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
def enumerate_compositions(smax: int, d: int) -> np.ndarray:
    """All compositions with at most ``smax`` additions, row i having rank i."""
    cb = binom_int(smax + d + 1, d + 1)
    n = count_upto(smax, d, cb)
    out = np.zeros((n, d), dtype=np.int16)
    a = np.zeros(d, dtype=np.int64)
    i = 0
    for s in range(smax + 1):
        # odometer over a[0..d-2] with sum <= s in lexicographic order; a[d-1] fills up
        for k in range(d):
            a[k] = 0
        while True:
            head = 0
            for k in range(d - 1):
                head += a[k]
            a[d - 1] = s - head
            for k in range(d):
                out[i, k] = a[k]
            i += 1
            # advance
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
def hand_patterns(d: int, hand: int) -> np.ndarray:
    """All ways to split a hand of ``hand`` cards over ``d`` slots (rows sum to ``hand``)."""
    cb = binom_int(hand + d + 1, d + 1)
    n = cb[hand + d - 1, d - 1]
    out = np.zeros((n, d), dtype=np.int64)
    a = np.zeros(d, dtype=np.int64)
    i = 0
    while True:
        head = 0
        for k in range(d - 1):
            head += a[k]
        a[d - 1] = hand - head
        out[i] = a
        i += 1
        pos = d - 2
        while pos >= 0:
            if head < hand:
                a[pos] += 1
                break
            head -= a[pos]
            a[pos] = 0
            pos -= 1
        if pos < 0:
            break
    return out


@njit(cache=True)
def money_distribution(counts: np.ndarray, values: np.ndarray, patterns: np.ndarray,
                       cf: np.ndarray, out: np.ndarray) -> None:
    """P(money = m) of a hand from a deck with ``counts`` per slot, written into ``out``."""
    d = counts.shape[0]
    hand = 0
    for k in range(d):
        hand += patterns[0, k]
    total = 0
    for k in range(d):
        total += counts[k]
    out[:] = 0.0
    norm = 1.0 / cf[total, hand]
    for p in range(patterns.shape[0]):
        w = 1.0
        m = 0
        for k in range(d):
            h = patterns[p, k]
            if h > counts[k]:
                w = 0.0
                break
            w *= cf[counts[k], h]
            m += h * values[k]
        if w > 0.0:
            out[m] += w * norm


@njit(cache=True, parallel=True)
def _tails_kernel(comps: np.ndarray, start: np.ndarray, patterns: np.ndarray,
                  pbucket: np.ndarray, cf: np.ndarray, hand: int, nt: int) -> np.ndarray:
    n, d = comps.shape
    npat = patterns.shape[0]
    out = np.zeros((n, nt + 1))
    chunk = 8192
    nchunks = (n + chunk - 1) // chunk
    for c in prange(nchunks):
        counts = np.empty(d, dtype=np.int64)
        acc = np.empty(nt + 1)
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            total = 0
            for k in range(d):
                counts[k] = start[k] + comps[i, k]
                total += counts[k]
            for j in range(nt + 1):
                acc[j] = 0.0
            for p in range(npat):
                w = 1.0
                for k in range(d):
                    w *= cf[counts[k], patterns[p, k]]  # zero when too few copies
                acc[pbucket[p]] += w
            norm = 1.0 / cf[total, hand]
            run = 0.0
            for j in range(nt - 1, -1, -1):
                run += acc[j]
                out[i, j] = run * norm
            out[i, 0] = 1.0
    return out


def tail_table(comps: np.ndarray, start: np.ndarray, values: np.ndarray, hand: int,
               thresholds: np.ndarray, max_money: int) -> np.ndarray:
    """G[i, j] = P(money >= thresholds[j]) for composition i; a last column of zeros.

    Each hand pattern (cards per slot) has a fixed money value, hence a fixed bucket
    between two thresholds: its hypergeometric weight goes straight into that bucket.
    """
    d = comps.shape[1]
    patterns = hand_patterns(d, hand)
    money = patterns @ np.asarray(values, dtype=np.int64)
    pbucket = (np.searchsorted(thresholds, money, side="right") - 1).astype(np.int64)
    top = int(np.sum(start)) + (int(comps[-1].sum()) if len(comps) else 0)
    cf = binom_float(top + 1, hand)
    return _tails_kernel(comps, np.asarray(start, dtype=np.int64), patterns, pbucket, cf,
                         hand, len(thresholds))


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
        """P(money >= x) per composition for sorted thresholds x (first must be 0)."""
        if thresholds not in self._tails:
            cs = self.card_set
            self._tails[thresholds] = tail_table(
                self.comps, cs.start_counts, cs.slot_values, cs.hand_size,
                np.asarray(thresholds, dtype=np.int64), cs.max_money)
        return self._tails[thresholds]


@lru_cache(maxsize=2)
def state_space(card_set: CardSet, smax: int) -> StateSpace:
    """Cached state space: repeated exact evaluations at one T share hand probabilities."""
    return StateSpace(card_set, smax)
