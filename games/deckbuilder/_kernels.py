"""Numba kernels of the exact fixed-horizon recursions (one backward step per turn).

All kernels work on a prefix ``[0, n)`` of the composition index (the compositions reachable
by turn t), read the value-to-go of turn t+1 from ``vn`` and write turn t's into ``vc``.
Value-to-go counts only points bought from now on: points already owned just add.

Money enters through tails ``g[i, b] = P(money >= thr[b])`` with ``thr[0] = 0`` and a last
column of zeros, so P(money in bucket b) = g[i, b] - g[i, b+1].

All kernels here and in the simulator are serial on purpose: parallel work goes through
joblib processes (the tuning layer), where threads inside each worker would only compete
for the same cores; serial kernels also compile several times faster.
"""

from __future__ import annotations

import numpy as np
from numba import njit

TIE = 1e-12  # an action must beat the earlier one by this much to be preferred


@njit(cache=True)
def optimal_step(n: int, g: np.ndarray, succ: np.ndarray, vn: np.ndarray, vc: np.ndarray,
                 card_slot: np.ndarray, card_pts: np.ndarray, card_bucket: np.ndarray,
                 card_id: np.ndarray, policy: np.ndarray, keep: bool) -> None:
    """Bellman step with every affordable card as an action (cards sorted by cost).

    Ties prefer passing, then cheaper cards. ``policy[i, b]`` gets the chosen card id
    (-1 = pass) for money bucket b when ``keep``.
    """
    nb = g.shape[1] - 1
    nc = card_slot.shape[0]
    for i in range(n):
        best = vn[i]
        act = -1
        j = 0
        total = 0.0
        for b in range(nb):
            while j < nc and card_bucket[j] == b:
                val = card_pts[j] + vn[succ[i, card_slot[j]]]
                if val > best + TIE:
                    best = val
                    act = card_id[j]
                j += 1
            total += (g[i, b] - g[i, b + 1]) * best
            if keep:
                policy[i, b] = act
        vc[i] = total


@njit(cache=True)
def rules_step(n: int, g: np.ndarray, succ: np.ndarray, vn: np.ndarray, vc: np.ndarray,
               comps: np.ndarray, start: np.ndarray, active: np.ndarray, e_slot: np.ndarray,
               e_pts: np.ndarray, e_bucket: np.ndarray, e_cap: np.ndarray) -> None:
    """Policy-evaluation step of an ordered buy rule: the first active entry whose money
    threshold is met is bought, else pass. Entry e claims money in [thr_e, lowest threshold
    of the earlier entries), so the step costs O(entries) per composition."""
    ne = e_slot.shape[0]
    nb = g.shape[1] - 1
    for i in range(n):
        up = nb
        total = 0.0
        for e in range(ne):
            if not active[e]:
                continue
            s = e_slot[e]
            if e_cap[e] >= 0 and start[s] + comps[i, s] >= e_cap[e]:
                continue
            k = e_bucket[e]
            if k < up:
                total += (g[i, k] - g[i, up]) * (e_pts[e] + vn[succ[i, s]])
                up = k
        total += (1.0 - g[i, up]) * vn[i]
        vc[i] = total


@njit(cache=True)
def random_step(n: int, g: np.ndarray, succ: np.ndarray, vn: np.ndarray, vc: np.ndarray,
                t_slot: np.ndarray, v_pts: np.ndarray, vslot: int) -> None:
    """Step of the Random strategy: uniform over pass, the best affordable treasure and the
    best affordable victory card (per money bucket; -1 / negative points = none)."""
    nb = g.shape[1] - 1
    for i in range(n):
        total = 0.0
        for b in range(nb):
            s = vn[i]
            k = 1
            if t_slot[b] >= 0:
                s += vn[succ[i, t_slot[b]]]
                k += 1
            if v_pts[b] >= 0:
                s += v_pts[b] + vn[succ[i, vslot]]
                k += 1
            total += (g[i, b] - g[i, b + 1]) * s / k
        vc[i] = total


@njit(cache=True)
def occupancy_step(n: int, g: np.ndarray, succ: np.ndarray, occ: np.ndarray,
                   nxt: np.ndarray, policy: np.ndarray, card_slot_of_id: np.ndarray,
                   card_is_victory: np.ndarray, shares: np.ndarray) -> None:
    """Push the state distribution of turn t through a stored policy; accumulate the
    probability of pass / treasure / victory into ``shares[0..2]``."""
    nb = g.shape[1] - 1
    for i in range(n):
        p = occ[i]
        if p == 0.0:
            continue
        for b in range(nb):
            q = p * (g[i, b] - g[i, b + 1])
            if q <= 0.0:
                continue
            a = policy[i, b]
            if a < 0:
                nxt[i] += q
                shares[0] += q
            else:
                nxt[succ[i, card_slot_of_id[a]]] += q
                if card_is_victory[a]:
                    shares[2] += q
                else:
                    shares[1] += q
