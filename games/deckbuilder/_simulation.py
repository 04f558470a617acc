"""Vectorised simulation of many games at once (numba, one compiled loop over games).

Each game owns a SplitMix64 stream seeded by ``games.core.game_seeds(seed, 1, i)``; the
deck is a vector of counts per slot, and a hand is drawn card by card without replacement.
Scores therefore reproduce exactly for a seed, whatever the split into blocks or workers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.core import InputError, game_seeds
from games.deckbuilder import _exact as exact
from games.deckbuilder._model import TREASURE, VICTORY, CardSet
from games.deckbuilder._rules import best_affordable
from games.deckbuilder._states import binom_int, rank
from games.rng import below, uniform

MAX_GEOMETRIC_TURNS = 100_000  # cap of a geometric game (reached with chance (1-a)^cap)


_uniform = uniform
_below = below



@njit(cache=True)
def _draw_money(st: np.ndarray, counts: np.ndarray, values: np.ndarray, hand: int,
                tmp: np.ndarray) -> int:
    d = counts.shape[0]
    total = 0
    for k in range(d):
        tmp[k] = counts[k]
        total += counts[k]
    money = 0
    for _ in range(hand):
        r = _below(st, total)
        for k in range(d):
            if r < tmp[k]:
                tmp[k] -= 1
                money += values[k]
                break
            r -= tmp[k]
        total -= 1
    return money


@njit(cache=True)
def _rule_choice(counts: np.ndarray, money: int, left: int, e_slot: np.ndarray,
                 e_thr: np.ndarray, e_lo: np.ndarray, e_hi: np.ndarray,
                 e_cap: np.ndarray) -> int:
    for e in range(e_slot.shape[0]):
        if money >= e_thr[e] and e_lo[e] <= left <= e_hi[e]:
            if e_cap[e] < 0 or counts[e_slot[e]] < e_cap[e]:
                return e
    return -1


@njit(cache=True)
def sim_rules(seeds: np.ndarray, turns: int, alpha: float, start: np.ndarray,
              values: np.ndarray, hand: int, start_points: float, e_slot: np.ndarray,
              e_pts: np.ndarray, e_thr: np.ndarray, e_lo: np.ndarray, e_hi: np.ndarray,
              e_cap: np.ndarray) -> np.ndarray:
    """Scores of games played with an ordered buy rule (alpha > 0: geometric end)."""
    n = seeds.shape[0]
    d = start.shape[0]
    out = np.empty(n)
    for g in range(n):
        st = np.empty(1, dtype=np.uint64)
        st[0] = seeds[g]
        counts = start.copy()
        tmp = np.empty(d, dtype=np.int64)
        pts = start_points
        t = 0
        while True:
            if alpha <= 0.0 and t >= turns:
                break
            money = _draw_money(st, counts, values, hand, tmp)
            e = _rule_choice(counts, money, turns - t, e_slot, e_thr, e_lo, e_hi, e_cap)
            if e >= 0:
                counts[e_slot[e]] += 1
                pts += e_pts[e]
            t += 1
            if alpha > 0.0 and (_uniform(st) < alpha or t >= turns):
                break
        out[g] = pts
    return out


@njit(cache=True)
def _random_turn(st: np.ndarray, counts: np.ndarray, money: int, t_slot: np.ndarray,
                 v_pts: np.ndarray, vslot: int) -> float:
    """One Random decision: uniform over pass / best treasure / best victory card."""
    k = 1 + (t_slot[money] >= 0) + (v_pts[money] >= 0)
    r = _below(st, k)
    if r == 0:
        return 0.0
    if r == 1 and t_slot[money] >= 0:
        counts[t_slot[money]] += 1
        return 0.0
    counts[vslot] += 1
    return v_pts[money]


@njit(cache=True)
def sim_random(seeds: np.ndarray, turns: int, alpha: float, start: np.ndarray,
               values: np.ndarray, hand: int, start_points: float, t_slot: np.ndarray,
               v_pts: np.ndarray) -> np.ndarray:
    n = seeds.shape[0]
    d = start.shape[0]
    out = np.empty(n)
    for g in range(n):
        st = np.empty(1, dtype=np.uint64)
        st[0] = seeds[g]
        counts = start.copy()
        tmp = np.empty(d, dtype=np.int64)
        pts = start_points
        t = 0
        while True:
            if alpha <= 0.0 and t >= turns:
                break
            money = _draw_money(st, counts, values, hand, tmp)
            pts += _random_turn(st, counts, money, t_slot, v_pts, d - 1)
            t += 1
            if alpha > 0.0 and (_uniform(st) < alpha or t >= turns):
                break
        out[g] = pts
    return out


@njit(cache=True)
def sim_optimal(seeds: np.ndarray, turns: int, start: np.ndarray, values: np.ndarray,
                hand: int, start_points: float, policy: np.ndarray, offsets: np.ndarray,
                bucket_of: np.ndarray, card_slot: np.ndarray, card_pts: np.ndarray,
                cb: np.ndarray) -> np.ndarray:
    """Scores of games played with a stored DP policy (fixed number of turns)."""
    n = seeds.shape[0]
    d = start.shape[0]
    out = np.empty(n)
    for g in range(n):
        st = np.empty(1, dtype=np.uint64)
        st[0] = seeds[g]
        counts = start.copy()
        added = np.zeros(d, dtype=np.int64)
        tmp = np.empty(d, dtype=np.int64)
        pts = start_points
        for t in range(turns):
            money = _draw_money(st, counts, values, hand, tmp)
            a = policy[offsets[t] + rank(added, cb), bucket_of[money]]
            if a >= 0:
                counts[card_slot[a]] += 1
                added[card_slot[a]] += 1
                pts += card_pts[a]
        out[g] = pts
    return out


@njit(cache=True)
def _rollout(st: np.ndarray, counts: np.ndarray, t: int, turns: int, alpha: float,
             values: np.ndarray, hand: int, t_slot: np.ndarray, v_pts: np.ndarray,
             tmp: np.ndarray, work: np.ndarray) -> float:
    """Points gained by Random from turn t on (the deck ``counts`` is copied)."""
    d = counts.shape[0]
    for k in range(d):
        work[k] = counts[k]
    gained = 0.0
    while t < turns:
        money = _draw_money(st, work, values, hand, tmp)
        gained += _random_turn(st, work, money, t_slot, v_pts, d - 1)
        t += 1
        if alpha > 0.0 and _uniform(st) < alpha:
            break
    return gained


@njit(cache=True)
def sim_flatmc(seeds: np.ndarray, turns: int, alpha: float, start: np.ndarray,
               values: np.ndarray, hand: int, start_points: float, t_slot: np.ndarray,
               v_pts: np.ndarray, rollouts: int) -> np.ndarray:
    """Flat Monte Carlo: for pass / best treasure / best victory card, ``rollouts`` Random
    continuations each; play the action with the best mean (ties: that order)."""
    n = seeds.shape[0]
    d = start.shape[0]
    out = np.empty(n)
    for g in range(n):
        st = np.empty(1, dtype=np.uint64)
        st[0] = seeds[g]
        counts = start.copy()
        tmp = np.empty(d, dtype=np.int64)
        work = np.empty(d, dtype=np.int64)
        after = np.empty(d, dtype=np.int64)
        pts = start_points
        t = 0
        while t < turns:
            money = _draw_money(st, counts, values, hand, tmp)
            best = -1.0
            best_a = 0
            for a in range(3):
                if a == 1 and t_slot[money] < 0:
                    continue
                if a == 2 and v_pts[money] < 0:
                    continue
                gain = 0.0
                slot = -1
                if a == 1:
                    slot = t_slot[money]
                elif a == 2:
                    slot = d - 1
                    gain = v_pts[money]
                for k in range(d):
                    after[k] = counts[k]
                if slot >= 0:
                    after[slot] += 1
                acc = 0.0
                for _ in range(rollouts):
                    cont = 1.0
                    if alpha > 0.0 and _uniform(st) < alpha:
                        cont = 0.0
                    if cont > 0.0:
                        acc += _rollout(st, after, t + 1, turns, alpha, values, hand,
                                        t_slot, v_pts, tmp, work)
                mean = gain + acc / rollouts
                if mean > best:
                    best = mean
                    best_a = a
            if best_a == 1:
                counts[t_slot[money]] += 1
            elif best_a == 2:
                counts[d - 1] += 1
                pts += v_pts[money]
            t += 1
            if alpha > 0.0 and _uniform(st) < alpha:
                break
        out[g] = pts
    return out


def random_money_tables(cs: CardSet) -> tuple[np.ndarray, np.ndarray]:
    """Per money value: slot of the best affordable treasure and points of the best
    affordable victory card (-1 = none)."""
    top = cs.max_money
    t_slot = np.full(top + 1, -1, dtype=np.int64)
    v_pts = np.full(top + 1, -1.0)
    for m in range(top + 1):
        tre = best_affordable(cs, TREASURE, m)
        vic = best_affordable(cs, VICTORY, m)
        if tre is not None:
            t_slot[m] = cs.slot(tre)
        if vic is not None:
            v_pts[m] = vic.points
    return t_slot, v_pts


def simulate_strategy(strat, turns: int, games: int, seed: int, start: int, cs: CardSet,
                      alpha: float | None) -> np.ndarray:
    """Per-game final scores of ``strat`` (a resolved Strategy)."""
    if games < 0:
        raise InputError(f"number of games must be >= 0, got {games}")
    seeds = game_seeds(seed, games, start)
    a = 0.0 if alpha is None else float(alpha)
    t = exact.check_turns(turns) if alpha is None else MAX_GEOMETRIC_TURNS
    common = (cs.start_counts, cs.slot_values, cs.hand_size, float(cs.start_points))
    if strat.kind == "rule":
        rule = strat.rule(cs)
        if alpha is not None and rule.uses_turns:
            raise InputError("turns-left conditions need a fixed number of turns, "
                             "not an end chance")
        c = rule.compile(cs)
        return sim_rules(seeds, t, a, *common, c.slot, c.points, c.threshold, c.left_min,
                         c.left_max, c.cap)
    if strat.kind == "random":
        return sim_random(seeds, t, a, *common, *random_money_tables(cs))
    if strat.kind == "flatmc":
        return sim_flatmc(seeds, t, a, *common, *random_money_tables(cs),
                          int(strat.params.rollouts))
    if strat.kind == "optimal":
        if alpha is not None:
            raise InputError("the stored optimal policy needs a fixed number of turns")
        return simulate_solution(exact.solve(t, cs), seeds)
    raise InputError(f"cannot simulate strategy kind {strat.kind!r}")


def simulate_solution(sol: exact.Solution, seeds: np.ndarray) -> np.ndarray:
    """Play the stored optimal policy of ``sol`` in the games of ``seeds``."""
    cs = sol.card_set
    if sol.turns == 0:
        return np.full(seeds.shape[0], float(cs.start_points))
    sizes = np.array([p.shape[0] for p in sol.policy], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    bucket_of = np.array([sol.bucket(m) for m in range(cs.max_money + 1)], dtype=np.int64)
    slot = np.array([cs.slot(c) for c in cs.cards], dtype=np.int64)
    pts = np.array([c.points for c in cs.cards], dtype=np.float64)
    cb = binom_int(sol.turns + cs.dims + 2, cs.dims + 1)
    return sim_optimal(seeds, sol.turns, cs.start_counts, cs.slot_values, cs.hand_size,
                       float(cs.start_points), sol.policy_table(), offsets, bucket_of, slot,
                       pts, cb)
