"""Goal seeds of BuyOrder / BuyAndDeny's first generation (``seeds``): the plans that
pursue one goal, then let Greedy play, for the goals whose first move looks best.

A random goal order mostly pursues a card nobody would pick; at a handful of plans a move
(Minimax(3)'s time) the evolution cannot find the good ones. So the first generation can
also hold, after Greedy's line, the chromosomes ``[g, Greedy, the rest in goal order]`` for
the goals ``g`` ranked by F one turn ahead: BuySeeker's move towards ``g`` at the root, its
returns and nobles resolved with F, scored from the mover's seat (Greedy's own criterion).
One goal per distinct first move, none whose first move is Greedy's (Greedy's line already
plays it): the seeds differ in the move they would play now.

The root's answers go through the move's decisions table (:mod:`games.splendor._plans`), so
the plans that start with these goals find them there: ranking costs little extra.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.splendor._heuristics import score
from games.splendor._plans import GOAL_GREEDY, greedy_at, position_hash, seek_at
from games.splendor._rules import MAX_LEGAL, O_CUR, SIZE, apply_move, copy_state
from games.splendor._search import resolve


@njit(cache=True)
def rank_goals(root: np.ndarray, cards: np.ndarray, kinds: np.ndarray, length: int,
               w: np.ndarray, keys: np.ndarray, answers: np.ndarray, used: np.ndarray,
               order: np.ndarray) -> int:
    """Write into ``order`` the goals (indices below ``length``) best first by F one turn
    ahead, one per distinct first move and none playing Greedy's move; their count."""
    p = root[O_CUR]
    moves = np.empty(MAX_LEGAL, dtype=np.int64)
    tmp = np.empty(SIZE, dtype=np.int64)
    line = np.empty(SIZE, dtype=np.int64)
    h1, h2 = position_hash(root)
    taken = np.empty(length + 1, dtype=np.int64)
    taken[0] = greedy_at(root, h1, h2, w, tmp, moves, keys, answers, used)
    kept = 1
    goals = np.empty(length, dtype=np.int64)
    values = np.empty(length, dtype=np.float64)
    n = 0
    for g in range(length):
        if kinds[g] == GOAL_GREEDY:
            continue
        m = seek_at(root, h1, h2, p, g, cards, kinds, w, moves, tmp, keys, answers, used)
        if m < 0:
            continue
        seen = False
        for i in range(kept):
            if taken[i] == m:
                seen = True
                break
        if seen:
            continue
        taken[kept] = m
        kept += 1
        copy_state(line, root)
        apply_move(line, m)
        resolve(line, p, w)
        goals[n] = g
        values[n] = score(line, p, w)
        n += 1
    best = np.argsort(-values[:n], kind="mergesort")  # stable: ties keep goal order
    for i in range(n):
        order[i] = goals[best[i]]
    return n


@njit(cache=True)
def goal_rows(goals: np.ndarray, length: int, greedy: int) -> np.ndarray:
    """One chromosome per goal ``g`` of ``goals``: ``g`` first, then the Greedy goal (index
    ``greedy``, -1 when the permutation has none), then every other goal in goal order."""
    rows = np.empty((goals.size, length), dtype=np.int64)
    for r in range(goals.size):
        g = goals[r]
        rows[r, 0] = g
        k = 1
        if greedy >= 0:
            rows[r, 1] = greedy
            k = 2
        for x in range(length):
            if x != g and x != greedy:
                rows[r, k] = x
                k += 1
    return rows
