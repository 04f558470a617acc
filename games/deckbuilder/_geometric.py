"""The geometric end: after every turn the game ends with chance alpha (so at least one
purchase is made, and 1/alpha purchases are expected).

The value then no longer depends on the turn, only on the composition, and a composition
can only grow or stay (pass). So the recursion is solved exactly in one sweep over
compositions by decreasing number of added cards; the pass action makes each state's
equation a one-state fixed point, solved in closed form (the best of the threshold policies
"pass in the k least valuable money buckets").

The state space is infinite, so compositions are truncated at ``size`` added cards, where
the continuation value is taken as 0. With points >= 0 that truncated value V_S is a lower
bound, and since reaching the boundary takes ``size`` purchases, each followed by survival
with chance 1-alpha, and a state is worth at most p_max/alpha from then on:

    V_S <= V <= V_S + p_max * (1 - alpha)**size / alpha.

``size`` is chosen to push this bound under ``tol`` when that needs at most ``max_size``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from games.core import InputError
from games.deckbuilder._exact import cost_thresholds, random_tables
from games.deckbuilder._model import DEFAULT, CardSet
from games.deckbuilder._states import binom_int, count_upto, layer_compositions, rank, tail_table

DEFAULT_TOL = 1e-6
DEFAULT_MAX_SIZE = 120


@njit(cache=True)
def _successors(comps: np.ndarray, base: int, cb: np.ndarray) -> np.ndarray:
    n, d = comps.shape
    out = np.empty((n, d), dtype=np.int64)
    a = np.empty(d, dtype=np.int64)
    for i in range(n):
        for k in range(d):
            a[k] = comps[i, k]
        for k in range(d):
            a[k] += 1
            out[i, k] = rank(a, cb) - base
            a[k] -= 1
    return out


@njit(cache=True)
def _layer_optimal(g: np.ndarray, succ: np.ndarray, vn: np.ndarray, vc: np.ndarray,
                   beta: float, card_slot: np.ndarray, card_pts: np.ndarray,
                   card_bucket: np.ndarray) -> None:
    n = g.shape[0]
    nb = g.shape[1] - 1
    nc = card_slot.shape[0]
    bval = np.empty(nb)
    prob = np.empty(nb)
    order = np.empty(nb, dtype=np.int64)
    for i in range(n):
        best = -1.0
        has = False
        j = 0
        for b in range(nb):
            while j < nc and card_bucket[j] == b:
                val = card_pts[j] + beta * vn[succ[i, card_slot[j]]]
                if not has or val > best:
                    best = val
                    has = True
                j += 1
            bval[b] = best if has else -1.0  # -1: nothing affordable (values are >= 0)
            prob[b] = g[i, b] - g[i, b + 1]
        # sort buckets by value (insertion sort, nb is tiny)
        for a in range(nb):
            order[a] = a
        for a in range(1, nb):
            k = a
            while k > 0 and bval[order[k - 1]] > bval[order[k]]:
                order[k - 1], order[k] = order[k], order[k - 1]
                k -= 1
        # x_k: pass in the k lowest buckets, buy elsewhere; the optimum is the best x_k
        buy = 0.0
        for b in range(nb):
            if bval[b] >= 0.0:
                buy += prob[b] * bval[b]
        passp = 0.0
        x = -1.0
        for k in range(nb + 1):
            if k > 0:
                b = order[k - 1]
                passp += prob[b]
                if bval[b] >= 0.0:
                    buy -= prob[b] * bval[b]
            if k < nb and bval[order[k]] < 0.0:
                continue  # a bucket with nothing affordable must pass
            cand = buy / (1.0 - beta * passp)
            if cand > x:
                x = cand
        vc[i] = x


@njit(cache=True)
def _layer_rules(g: np.ndarray, succ: np.ndarray, comps: np.ndarray, start: np.ndarray,
                 vn: np.ndarray, vc: np.ndarray, beta: float, e_slot: np.ndarray,
                 e_pts: np.ndarray, e_bucket: np.ndarray, e_cap: np.ndarray) -> None:
    n = g.shape[0]
    nb = g.shape[1] - 1
    for i in range(n):
        up = nb
        total = 0.0
        for e in range(e_slot.shape[0]):
            s = e_slot[e]
            if e_cap[e] >= 0 and start[s] + comps[i, s] >= e_cap[e]:
                continue
            k = e_bucket[e]
            if k < up:
                total += (g[i, k] - g[i, up]) * (e_pts[e] + beta * vn[succ[i, s]])
                up = k
        vc[i] = total / (1.0 - beta * (1.0 - g[i, up]))


@njit(cache=True)
def _layer_random(g: np.ndarray, succ: np.ndarray, vn: np.ndarray, vc: np.ndarray,
                  beta: float, t_slot: np.ndarray, v_pts: np.ndarray, vslot: int) -> None:
    n = g.shape[0]
    nb = g.shape[1] - 1
    for i in range(n):
        rhs = 0.0
        selfw = 0.0
        for b in range(nb):
            k = 1
            s = 0.0
            if t_slot[b] >= 0:
                s += beta * vn[succ[i, t_slot[b]]]
                k += 1
            if v_pts[b] >= 0:
                s += v_pts[b] + beta * vn[succ[i, vslot]]
                k += 1
            p = (g[i, b] - g[i, b + 1]) / k
            rhs += p * s
            selfw += p
        vc[i] = rhs / (1.0 - beta * selfw)


@dataclass(frozen=True)
class GeometricResult:
    """Expected final score under end chance ``alpha``: value <= true <= value + bound."""

    alpha: float
    value: float
    error_bound: float
    size: int
    seconds: float

    def to_dict(self) -> dict[str, float]:
        return {"end_chance": self.alpha, "value": self.value, "error_bound": self.error_bound,
                "truncation": self.size, "seconds": self.seconds}


def horizon(alpha: float, p_max: float, tol: float, max_size: int) -> int:
    """Smallest truncation size with p_max (1-alpha)^S / alpha <= tol, capped."""
    if alpha >= 1.0:
        return 1
    need = math.log(tol * alpha / max(p_max, 1e-300)) / math.log(1.0 - alpha)
    return int(min(max(1, math.ceil(need)), max_size))


def _stepper(strat, cs: CardSet):
    """(thresholds, step function) of one strategy for the per-layer sweep."""
    if strat.kind == "optimal":
        thr = cost_thresholds(cs)
        order = sorted(range(len(cs.cards)), key=lambda i: (cs.cards[i].cost, i))
        slot = np.array([cs.slot(cs.cards[i]) for i in order], dtype=np.int64)
        pts = np.array([cs.cards[i].points for i in order], dtype=np.float64)
        bucket = np.array([thr.index(cs.cards[i].cost) for i in order], dtype=np.int64)

        def step(g, succ, comps, vn, vc, beta):
            _layer_optimal(g, succ, vn, vc, beta, slot, pts, bucket)
    elif strat.kind == "random":
        thr = cost_thresholds(cs)
        t_slot, v_pts = random_tables(cs, thr)

        def step(g, succ, comps, vn, vc, beta):
            _layer_random(g, succ, vn, vc, beta, t_slot, v_pts, cs.dims - 1)
    elif strat.kind == "rule":
        rule = strat.rule(cs)
        if rule.uses_turns:
            raise InputError("turns-left conditions need a fixed number of turns, "
                             "not an end chance")
        c = rule.compile(cs)
        thr = cost_thresholds(cs, tuple(int(x) for x in c.threshold))
        e_bucket = np.array([thr.index(int(x)) for x in c.threshold], dtype=np.int64)

        def step(g, succ, comps, vn, vc, beta):
            _layer_rules(g, succ, comps, cs.start_counts, vn, vc, beta, c.slot, c.points,
                         e_bucket, c.cap)
    else:
        raise InputError(f"strategy {strat.name!r} has no exact value (it samples)")
    return thr, step


def geometric_values(strats, alpha: float, card_set: CardSet = DEFAULT,
                     tol: float = DEFAULT_TOL,
                     max_size: int = DEFAULT_MAX_SIZE) -> list[GeometricResult]:
    """Exact (up to the stated bound) values of several strategies under end chance
    ``alpha``, in one sweep that shares the hand probabilities."""
    if not (0.0 < alpha <= 1.0):
        raise InputError(f"end chance must lie in (0, 1], got {alpha}")
    cs = card_set
    t0 = time.perf_counter()
    size = horizon(alpha, cs.max_points, tol, max_size)
    bound = 0.0 if alpha >= 1.0 else cs.max_points * (1.0 - alpha) ** size / alpha
    steppers = [_stepper(s, cs) for s in strats]
    d = cs.dims
    beta = 1.0 - alpha
    cb = binom_int(size + d + 2, d + 1)
    vns = [np.zeros(int(cb[size + d - 1, d - 1])) for _ in steppers]  # boundary: value 0
    start = cs.start_counts
    for s in range(size - 1, -1, -1):
        comps = layer_compositions(s, d)
        tails: dict[tuple[int, ...], np.ndarray] = {}
        succ = _successors(comps, count_upto(s, d, cb), cb)
        for k, (thr, step) in enumerate(steppers):
            if thr not in tails:
                tails[thr] = tail_table(comps, start, cs.slot_values, cs.hand_size,
                                        np.asarray(thr, dtype=np.int64), cs.max_money)
            vc = np.zeros(comps.shape[0])
            step(tails[thr], succ, comps, vns[k], vc, beta)
            vns[k] = vc
    secs = time.perf_counter() - t0
    return [GeometricResult(alpha, cs.start_points + float(v[0]), bound, size, secs)
            for v in vns]


def geometric_value(strat, alpha: float, card_set: CardSet = DEFAULT, tol: float = DEFAULT_TOL,
                    max_size: int = DEFAULT_MAX_SIZE) -> GeometricResult:
    """Exact (up to the stated bound) value of a strategy under end chance ``alpha``."""
    return geometric_values([strat], alpha, card_set, tol, max_size)[0]


def solve_geometric(alpha: float, card_set: CardSet = DEFAULT, tol: float = DEFAULT_TOL,
                    max_size: int = DEFAULT_MAX_SIZE) -> GeometricResult:
    """Optimal expected final score under end chance ``alpha`` (with its error bound)."""
    from games.deckbuilder._strategies import get_strategy

    return geometric_value(get_strategy("optimal"), alpha, card_set, tol, max_size)
