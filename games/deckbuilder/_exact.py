"""Exact dynamic programming for games of a fixed number of turns T.

The value-to-go of a turn depends on the deck only through its composition (treasure counts
and the number of victory cards) and on the turn; money in hand only selects the action.
So the solver runs backwards over turns, and turn t touches the C(t+d, d) compositions
reachable by then (d = treasure kinds + 1; 4 for the thesis set). Both the optimum (every
affordable card is an action, so it is exact for any card set, efficient or not) and the
exact value of any buy rule or of Random come out of the same recursion, without sampling.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from games.core import InputError
from games.deckbuilder import _kernels as kernels
from games.deckbuilder._model import DEFAULT, TREASURE, VICTORY, CardSet
from games.deckbuilder._rules import BuyRule, best_affordable
from games.deckbuilder._states import StateSpace, state_space


def cost_thresholds(cs: CardSet, extra: tuple[int, ...] = ()) -> tuple[int, ...]:
    """Money values where the best action can change: 0, every card cost, ``extra``."""
    return tuple(sorted({0, *(c.cost for c in cs.cards), *extra}))


def check_turns(turns: int) -> int:
    if int(turns) != turns or turns < 0:
        raise InputError(f"turns must be a whole number >= 0, got {turns}")
    return int(turns)


@dataclass
class Solution:
    """Optimal expected score of a T-turn game and (optionally) the optimal policy."""

    card_set: CardSet
    turns: int
    value: float
    seconds: float
    thresholds: tuple[int, ...]
    space: StateSpace | None = None
    policy: list[np.ndarray] = field(default_factory=list)  # per turn: (n_t, buckets) int8
    by_turns: np.ndarray | None = None  # by_turns[k]: optimum of a k-turn game, k <= turns

    def bucket(self, money: int) -> int:
        return int(np.searchsorted(self.thresholds, money, side="right") - 1)

    def action(self, turn: int, added: np.ndarray | list[int], money: int) -> str | None:
        """Optimal card to buy (None = pass) at ``turn`` with ``added`` cards per slot."""
        from games.deckbuilder._states import binom_int, rank

        if not self.policy:
            raise InputError("this solution was computed without keeping the policy")
        a = np.asarray(added, dtype=np.int64)
        cb = binom_int(self.turns + a.size + 2, a.size + 1)
        act = int(self.policy[turn][rank(a, cb), self.bucket(money)])
        return None if act < 0 else self.card_set.cards[act].name

    def policy_table(self) -> np.ndarray:
        """All turns' policies stacked into one (sum of n_t, buckets) int8 array, and the
        per-turn offsets are ``np.cumsum`` of the layer sizes (used by the simulator)."""
        return np.concatenate(self.policy) if self.policy else np.zeros((0, 0), np.int8)


def _cards_by_cost(cs: CardSet, thr: tuple[int, ...]):
    order = sorted(range(len(cs.cards)), key=lambda i: (cs.cards[i].cost, i))
    slot = np.array([cs.slot(cs.cards[i]) for i in order], dtype=np.int64)
    pts = np.array([cs.cards[i].points for i in order], dtype=np.float64)
    bucket = np.array([thr.index(cs.cards[i].cost) for i in order], dtype=np.int64)
    return slot, pts, bucket, np.array(order, dtype=np.int64)


def solve(turns: int, card_set: CardSet = DEFAULT, keep_policy: bool = True) -> Solution:
    """Optimal expected final score of a ``turns``-turn game from the starting deck."""
    turns = check_turns(turns)
    t0 = time.perf_counter()
    thr = cost_thresholds(card_set)
    if turns == 0:
        return Solution(card_set, 0, float(card_set.start_points), 0.0, thr,
                        by_turns=np.full(1, float(card_set.start_points)))
    space = state_space(card_set, turns)
    g = space.tails(thr)
    slot, pts, bucket, ids = _cards_by_cost(card_set, thr)
    n_all = space.layer_size[turns]
    vn = np.zeros(n_all)
    vc = np.zeros(n_all)
    policy: list[np.ndarray] = []
    dummy = np.zeros((1, 1), dtype=np.int8)
    by_turns = np.full(turns + 1, float(card_set.start_points))
    for t in range(turns - 1, -1, -1):
        n = int(space.layer_size[t])
        pol = np.empty((n, len(thr)), dtype=np.int8) if keep_policy else dummy
        kernels.optimal_step(n, g, space.succ, vn, vc, slot, pts, bucket, ids, pol,
                             keep_policy)
        if keep_policy:
            policy.append(pol)
        vn, vc = vc, vn
        # values depend on turns left only, so vn[0] is the start value of a (T-t)-turn game
        by_turns[turns - t] += vn[0]
    policy.reverse()
    value = float(by_turns[turns])
    return Solution(card_set, turns, value, time.perf_counter() - t0, thr, space, policy,
                    by_turns)


def evaluate_rule(rule: BuyRule, turns: int, card_set: CardSet = DEFAULT,
                  all_turns: bool = False) -> float | np.ndarray:
    """Exact expected final score of an ordered buy rule in a ``turns``-turn game; with
    ``all_turns`` the array of values for every game length 0..turns (one sweep)."""
    turns = check_turns(turns)
    by_turns = np.full(turns + 1, float(card_set.start_points))
    if turns == 0:
        return by_turns if all_turns else float(card_set.start_points)
    comp = rule.compile(card_set)
    thr = cost_thresholds(card_set, tuple(int(x) for x in comp.threshold))
    space = state_space(card_set, turns)
    g = space.tails(thr)
    e_bucket = np.array([thr.index(int(x)) for x in comp.threshold], dtype=np.int64)
    start = card_set.start_counts
    n_all = space.layer_size[turns]
    vn = np.zeros(n_all)
    vc = np.zeros(n_all)
    for t in range(turns - 1, -1, -1):
        n = int(space.layer_size[t])
        kernels.rules_step(n, g, space.succ, vn, vc, space.comps, start,
                           comp.active(turns - t), comp.slot, comp.points, e_bucket, comp.cap)
        vn, vc = vc, vn
        by_turns[turns - t] += vn[0]
    return by_turns if all_turns else float(by_turns[turns])


def random_tables(cs: CardSet, thr: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Per money bucket: slot of the best affordable treasure (-1 none) and points of the
    best affordable victory card (-1 none), the Random strategy's non-pass options."""
    t_slot = np.full(len(thr), -1, dtype=np.int64)
    v_pts = np.full(len(thr), -1.0)
    for b, m in enumerate(thr):
        tre = best_affordable(cs, TREASURE, m)
        vic = best_affordable(cs, VICTORY, m)
        if tre is not None:
            t_slot[b] = cs.slot(tre)
        if vic is not None:
            v_pts[b] = vic.points
    return t_slot, v_pts


def evaluate_random(turns: int, card_set: CardSet = DEFAULT,
                    all_turns: bool = False) -> float | np.ndarray:
    """Exact expected final score of the Random strategy (uniform over its three actions);
    with ``all_turns`` the values for every game length 0..turns."""
    turns = check_turns(turns)
    by_turns = np.full(turns + 1, float(card_set.start_points))
    if turns == 0:
        return by_turns if all_turns else float(card_set.start_points)
    thr = cost_thresholds(card_set)
    space = state_space(card_set, turns)
    g = space.tails(thr)
    t_slot, v_pts = random_tables(card_set, thr)
    n_all = space.layer_size[turns]
    vn = np.zeros(n_all)
    vc = np.zeros(n_all)
    for t in range(turns - 1, -1, -1):
        n = int(space.layer_size[t])
        kernels.random_step(n, g, space.succ, vn, vc, t_slot, v_pts, card_set.dims - 1)
        vn, vc = vc, vn
        by_turns[turns - t] += vn[0]
    return by_turns if all_turns else float(by_turns[turns])


def action_shares(sol: Solution) -> np.ndarray:
    """Exact share of pass / treasure / victory per turn under the optimal policy, shape
    (T, 3): the probability that the optimal player takes each kind of action at turn t."""
    if not sol.policy or sol.space is None:
        raise InputError("action shares need a solution that kept its policy")
    cs, space = sol.card_set, sol.space
    g = space.tails(sol.thresholds)
    slot_of = np.array([cs.slot(c) for c in cs.cards], dtype=np.int64)
    is_vic = np.array([c.kind == VICTORY for c in cs.cards], dtype=np.bool_)
    out = np.zeros((sol.turns, 3))
    occ = np.zeros(int(space.layer_size[sol.turns]))
    occ[0] = 1.0
    for t in range(sol.turns):
        nxt = np.zeros_like(occ)
        kernels.occupancy_step(int(space.layer_size[t]), g, space.succ, occ, nxt,
                               sol.policy[t], slot_of, is_vic, out[t])
        occ = nxt
    return out
