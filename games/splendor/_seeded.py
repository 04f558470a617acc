"""One generation of seeds only, in one compiled call: BuyOrder / BuyAndDeny's move when
the first generation is all seeds and there is no second one (``population`` =
``evaluations`` and at least ``population`` seeds, e.g. Greedy's line and 12 goal seeds).

Such an evolution draws nothing: it simulates the seeded plans and plays the first move of
the best one. Building the goals, the seeds (Greedy's line, the previous plan, the ranked
goal seeds) and the plans in Python and running them through DEAP's loop cost about a third
of a move at Minimax(3)'s time; here they are one numba call with the same steps in the
same order (:func:`games.splendor._genetic.make_problem`, :func:`games.splendor._evolve.
evolve`), so every choice is the same. When the position has too few distinct goal moves
for the population, the call says so and the move takes the general path (random plans
fill the generation).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.splendor._goal_seeds import goal_rows, rank_goals
from games.splendor._plans import (
    EMPTY,
    ENC_ORDER,
    GOAL_GREEDY,
    evaluate_plans,
    order_goals,
)
from games.splendor._rules import O_CUR


@njit(cache=True)
def _same(a: np.ndarray, b: np.ndarray) -> bool:
    for i in range(a.size):
        if a[i] != b[i]:
            return False
    return True


@njit(cache=True)
def _reused(cards: np.ndarray, kinds: np.ndarray, length: int, prev_cards: np.ndarray,
            prev_kinds: np.ndarray, out: np.ndarray) -> None:
    """The previous plan's goals still open, in its order, then the new ones in goal order
    (``genetic.order_seeds``)."""
    taken = np.zeros(length, dtype=np.bool_)
    k = 0
    for j in range(prev_cards.size):
        for g in range(length):
            if cards[g] == prev_cards[j] and kinds[g] == prev_kinds[j]:
                if not taken[g]:
                    taken[g] = True
                    out[k] = g
                    k += 1
                break
    for g in range(length):
        if not taken[g]:
            out[k] = g
            k += 1


@njit(cache=True)
def seeded_choice(root: np.ndarray, deny: bool, greedy_start: bool, reuse: bool,
                  prev_cards: np.ndarray, prev_kinds: np.ndarray, count: int,
                  population: int, depth: int, w: np.ndarray, wplan: np.ndarray,
                  stream: np.ndarray, size: int, cards: np.ndarray, kinds: np.ndarray,
                  best: np.ndarray) -> tuple[int, int, int]:
    """(seeds, move, goals) at ``root`` (the mover's view): the goals are written into
    ``cards`` / ``kinds``; with at least ``population`` seeds the first ``population`` are
    simulated (``wplan``: F, then the opponent's weights if any) and ``best`` gets the best
    plan's genes (the first plan of the highest F, as the evolution's record keeps it) and
    ``move`` its first move; with fewer, ``move`` is -1 and nothing was simulated.
    ``reuse``: ``prev_cards`` / ``prev_kinds`` hold the previous move's best plan."""
    length = order_goals(root, root[O_CUR], deny, cards, kinds)
    if greedy_start:
        cards[length], kinds[length] = -1, GOAL_GREEDY
        length += 1
    rows = np.empty((2 + count, length), dtype=np.int64)
    n = 0
    if greedy_start:
        rows[0, 0] = length - 1
        for g in range(length - 1):
            rows[0, g + 1] = g
        n = 1
        if reuse:
            _reused(cards, kinds, length, prev_cards, prev_kinds, rows[1])
            if not _same(rows[1], rows[0]):
                n = 2
    keys = np.zeros((2, size), dtype=np.uint64)
    answers = np.full(size, EMPTY, dtype=np.int64)
    used = np.zeros(1, dtype=np.int64)
    if count > 0:
        order = np.empty(length, dtype=np.int64)
        ranked = rank_goals(root, cards, kinds, length, w, keys, answers, used, order)
        greedy = length - 1 if length > 0 and kinds[length - 1] == GOAL_GREEDY else -1
        goals = goal_rows(order[:min(ranked, count)], length, greedy)
        fixed = n
        for r in range(goals.shape[0]):
            repeat = False
            for i in range(fixed):
                if _same(goals[r], rows[i]):
                    repeat = True
                    break
            if not repeat:
                rows[n] = goals[r]
                n += 1
    if n < population:
        return n, -1, length
    fit = np.empty(population, dtype=np.float64)
    first = np.empty(population, dtype=np.int64)
    read = np.empty(population, dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    evaluate_plans(root, rows[:population], ENC_ORDER, depth, cards, kinds, none, none, wplan,
                   stream, keys, answers, used, fit, first, read)
    b = 0
    value = fit[0]
    for i in range(population):
        if not fit[i] <= value:
            b = i
            value = fit[i]
    best[:length] = rows[b]
    return n, first[b], length
