"""Minimax(n) over whole turns: plain, or alpha-beta with move ordering, each with an
optional transposition table (:mod:`games.splendor._ttable`) and, for alpha-beta, optional
iterative deepening at the root. All numba-compiled.

A ply is one whole turn (main move, then the mover's return and noble decisions taken
greedily with F, see :mod:`games.splendor._search`). Alpha-beta orders children by F for the
side to move; with the table, a node met again at the same depth reuses its value when the
stored bound settles the window, and otherwise tries the stored best move first (a node of
an iteratively deepened search is met again in every pass). Every variant returns the same
move as plain minimax (first best in move order).

``count`` (see ``games.splendor._ttable.C_*``) numbers the searches (the table's stamp) and
adds up positions generated (whole-turn successors built, leaves included) and table
probes, hits and writes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.splendor._features import search_leaf as leaf
from games.splendor._rules import O_CUR, O_DONE, apply_move, copy_state, legal_main
from games.splendor._search import NEG, POS, resolve
from games.splendor._ttable import (
    C_GEN,
    C_NODES,
    EXACT,
    LOWER,
    UPPER,
    bound_of,
    lookup,
    position_key,
    store,
)

DEEPEN_FROM = 3  # turns searched by the first pass of an iteratively deepened search


@njit(cache=True)
def _children(s: np.ndarray, w: np.ndarray, kids: np.ndarray, moves: np.ndarray,
              count: np.ndarray) -> int:
    """Every whole-turn successor of ``s`` into ``kids`` (rows), moves into ``moves``."""
    p = s[O_CUR]
    n = legal_main(s, moves)
    for i in range(n):
        copy_state(kids[i], s)
        apply_move(kids[i], moves[i])
        resolve(kids[i], p, w)
    count[C_NODES] += n
    return n


@njit(cache=True)
def _leaf_parent(s: np.ndarray, root: int, alpha: float, beta: float, w: np.ndarray,
                 mode: int, kid: np.ndarray, moves: np.ndarray, prune: bool, first: int,
                 count: np.ndarray) -> tuple[float, int]:
    """(value, best move) of ``s`` one turn deep: its children scored with F, move
    ``first`` (if legal) tried first, the rest in move order (cut off when pruning)."""
    maxing = s[O_CUR] == root
    p = s[O_CUR]
    n = legal_main(s, moves)
    lead = -1
    if first >= 0:
        for i in range(n):
            if moves[i] == first:
                lead = i
                break
    best = NEG if maxing else POS
    arg = moves[0]
    for r in range(n):
        if lead < 0:
            i = r
        elif r == 0:
            i = lead
        else:
            i = r - 1 if r - 1 < lead else r
        copy_state(kid, s)
        apply_move(kid, moves[i])
        resolve(kid, p, w)
        count[C_NODES] += 1
        v = leaf(kid, root, p, w, mode)
        if maxing:
            if v > best:
                best = v
                arg = moves[i]
            if prune and best >= beta:
                return best, arg
        else:
            if v < best:
                best = v
                arg = moves[i]
            if prune and best <= alpha:
                return best, arg
    return best, arg


@njit(cache=True)
def _leaf_node(s: np.ndarray, root: int, alpha: float, beta: float, w: np.ndarray,
               mode: int, kid: np.ndarray, moves: np.ndarray, prune: bool, tkeys: np.ndarray,
               tvals: np.ndarray, tinfo: np.ndarray, count: np.ndarray, use_tt: bool) -> float:
    """:func:`_leaf_parent` through the table (when ``use_tt``)."""
    if not use_tt:
        return _leaf_parent(s, root, alpha, beta, w, mode, kid, moves, prune, -1, count)[0]
    key = position_key(s, count[C_GEN])
    found, v, first = lookup(tkeys, tvals, tinfo, count, key, 1, alpha, beta)
    if found:
        return v
    v, arg = _leaf_parent(s, root, alpha, beta, w, mode, kid, moves, prune, first, count)
    bound = EXACT  # a leaf parent that is not cut off has looked at every child
    if prune and s[O_CUR] == root and v >= beta:
        bound = LOWER
    elif prune and s[O_CUR] != root and v <= alpha:
        bound = UPPER
    store(tkeys, tvals, tinfo, count, key, 1, v, bound, arg)
    return v


@njit(cache=True)
def _expand(s: np.ndarray, root: int, w: np.ndarray, mode: int, kids: np.ndarray,
            moves: np.ndarray, keys: np.ndarray, order: np.ndarray, prune: bool, first: int,
            count: np.ndarray) -> int:
    """Children of ``s`` into ``kids``, visiting order into ``order`` (when pruning: move
    ``first`` if legal, then best F first for the mover; else move order); their number."""
    n = _children(s, w, kids, moves, count)
    if prune:
        maxing = s[O_CUR] == root
        for i in range(n):
            v = leaf(kids[i], root, s[O_CUR], w, mode)
            keys[i] = -v if maxing else v
        order[:n] = np.argsort(keys[:n], kind="mergesort")
        if first >= 0:
            for r in range(n):
                if moves[order[r]] == first:
                    lead = order[r]
                    for q in range(r, 0, -1):
                        order[q] = order[q - 1]
                    order[0] = lead
                    break
    else:
        for i in range(n):
            order[i] = i
    return n


@njit(cache=True)
def _minimax(s: np.ndarray, root: int, mover: int, depth: int, alpha: float, beta: float,
             w: np.ndarray, mode: int, kids: np.ndarray, moves: np.ndarray, keys: np.ndarray,
             order: np.ndarray, prune: bool, tkeys: np.ndarray, tvals: np.ndarray,
             tinfo: np.ndarray, count: np.ndarray, use_tt: bool) -> float:
    """Value of ``s`` (reached by a move of seat ``mover``) for seat ``root`` searched
    ``depth`` turns (others minimise; leaves scored by :func:`leaf` in ``mode``).

    Depth-first with an explicit stack (level l's children live in ``kids[l + 1]``), so
    the compiled code caches safely; ``kids[0]`` is never touched here. With ``use_tt``
    every node with a turn or more left goes through the table.
    """
    if depth == 0 or s[O_DONE]:
        return leaf(s, root, mover, w, mode)
    if depth == 1:
        return _leaf_node(s, root, alpha, beta, w, mode, kids[1, 0], moves[1], prune, tkeys,
                          tvals, tinfo, count, use_tt)
    hkey = np.zeros(depth, dtype=np.int64)
    first = -1
    if use_tt:
        hkey[0] = position_key(s, count[C_GEN])
        found, v, first = lookup(tkeys, tvals, tinfo, count, hkey[0], depth, alpha, beta)
        if found:
            return v
    nn = np.empty(depth, dtype=np.int64)
    pos = np.zeros(depth, dtype=np.int64)
    best = np.empty(depth)
    al = np.empty(depth)
    be = np.empty(depth)
    a0 = np.empty(depth)
    b0 = np.empty(depth)
    arg = np.full(depth, -1, dtype=np.int64)
    mx = np.empty(depth, dtype=np.bool_)
    cut = np.zeros(depth, dtype=np.bool_)
    who = np.empty(depth, dtype=np.int64)
    nn[0] = _expand(s, root, w, mode, kids[1], moves[1], keys[1], order[1], prune, first, count)
    who[0] = s[O_CUR]
    mx[0] = who[0] == root
    best[0] = NEG if mx[0] else POS
    al[0] = alpha
    a0[0] = alpha
    be[0] = beta
    b0[0] = beta
    lv = 0
    while True:
        if cut[lv] or pos[lv] >= nn[lv]:
            v = best[lv]
            if use_tt:
                store(tkeys, tvals, tinfo, count, hkey[lv], depth - lv, v,
                      bound_of(v, a0[lv], b0[lv], prune), arg[lv])
            if lv == 0:
                return v
            lv -= 1
        else:
            child = kids[lv + 1, order[lv + 1, pos[lv]]]
            left = depth - lv - 1
            if left == 0 or child[O_DONE]:
                v = leaf(child, root, who[lv], w, mode)
            elif left == 1:
                v = _leaf_node(child, root, al[lv], be[lv], w, mode, kids[lv + 2, 0],
                               moves[lv + 2], prune, tkeys, tvals, tinfo, count, use_tt)
            else:
                found = False
                first = -1
                key = np.int64(0)
                if use_tt:
                    key = position_key(child, count[C_GEN])
                    found, v, first = lookup(tkeys, tvals, tinfo, count, key, left, al[lv],
                                             be[lv])
                if not found:
                    lv += 1
                    hkey[lv] = key
                    nn[lv] = _expand(child, root, w, mode, kids[lv + 1], moves[lv + 1],
                                     keys[lv + 1], order[lv + 1], prune, first, count)
                    pos[lv] = 0
                    cut[lv] = False
                    who[lv] = child[O_CUR]
                    mx[lv] = who[lv] == root
                    best[lv] = NEG if mx[lv] else POS
                    al[lv] = al[lv - 1]
                    a0[lv] = al[lv - 1]
                    be[lv] = be[lv - 1]
                    b0[lv] = be[lv - 1]
                    arg[lv] = -1
                    continue
        # fold v into level lv and move to its next child
        if mx[lv]:
            if v > best[lv]:
                best[lv] = v
                arg[lv] = moves[lv + 1, order[lv + 1, pos[lv]]]
            if prune:
                if best[lv] > al[lv]:
                    al[lv] = best[lv]
                if al[lv] >= be[lv]:
                    cut[lv] = True
        else:
            if v < best[lv]:
                best[lv] = v
                arg[lv] = moves[lv + 1, order[lv + 1, pos[lv]]]
            if prune:
                if best[lv] < be[lv]:
                    be[lv] = best[lv]
                if al[lv] >= be[lv]:
                    cut[lv] = True
        pos[lv] += 1


@njit(cache=True)
def minimax(s: np.ndarray, depth: int, w: np.ndarray, mode: int, kids: np.ndarray,
            moves: np.ndarray, keys: np.ndarray, order: np.ndarray, prune: bool,
            tkeys: np.ndarray, tvals: np.ndarray, tinfo: np.ndarray, count: np.ndarray,
            use_tt: bool, deepen: bool) -> int:
    """Best main move for the player to move, ``depth`` turns deep (1 = Greedy).

    With ``prune`` the search is alpha-beta with children ordered by F; the root keeps the
    plain search's choice (first best in move order) by searching each root child with a
    window just below the best value found, so equal values are exact, not bounds. With
    ``use_tt`` the table (``tkeys``, ``tvals``, ``tinfo``) is used, emptied by a new stamp.
    With ``deepen`` (alpha-beta, depth 4 or more) the root is searched ``DEEPEN_FROM``,
    then one more, ... then ``depth`` turns deep, each pass visiting the root's moves best
    first by the last pass's values (and, with the table, every node's stored best move
    first); the last pass decides alone.
    """
    count[C_GEN] += 1
    root = s[O_CUR]
    n = _children(s, w, kids[0], moves[0], count)
    if prune:
        for i in range(n):
            keys[0, i] = -leaf(kids[0, i], root, root, w, mode)
        order[0, :n] = np.argsort(keys[0, :n], kind="mergesort")
    else:
        for i in range(n):
            order[0, i] = i
    start = DEEPEN_FROM if deepen and prune and depth > DEEPEN_FROM else depth
    pick = n
    for d in range(start, depth + 1):
        if d > start:
            order[0, :n] = np.argsort(keys[0, :n], kind="mergesort")
        best = NEG
        pick = n
        for r in range(n):
            i = order[0, r]
            alpha = best - 1e-9 * (1.0 + abs(best)) if prune and best > NEG else NEG
            v = _minimax(kids[0, i], root, root, d - 1, alpha, POS, w, mode, kids, moves,
                         keys, order, prune, tkeys, tvals, tinfo, count, use_tt)
            keys[0, i] = -v
            if v > best or (v == best and i < pick):
                best = v
                pick = i
    return moves[0, pick]
