"""Training games of the learned player: whole games in numba, with the positions the
learners reached recorded as features (:mod:`games.splendor._features`).

A bot row marked as a learner explores (a share ``eps`` of its main moves is a uniformly
random legal move; the rest its search chooses), and after every whole turn, its own and
the others', the position is recorded from each learner's seat (features and the game and
seat it belongs to): a learner's search meets positions with either seat to move. The
deal, the bots' random streams and the seating follow the batch kernel
(:func:`games.splendor._kernel.play_batch`), so a game never depends on the block or the
process that plays it; exploration draws from the mover's stream of that game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.splendor._deal import rand_below, setup
from games.splendor._features import NF, features
from games.splendor._kernel import (
    BOT_STREAM,
    CFG_DEPTH,
    CFG_KIND,
    CFG_W,
    K_RANDOM,
    _decide,
    _table_bits,
    workspace,
)
from games.splendor._rules import (
    O_CUR,
    O_DONE,
    O_PHASE,
    O_PTS,
    O_ROUND,
    PH_MAIN,
    SIZE,
    apply_move,
    outcome,
)
from games.splendor._search import random_main, resolve, resolve_random
from games.splendor._ttable import tables

#: exploration draws are integers below this (eps is compared as a share of it)
_SCALE = 1_000_000


@njit(cache=True, nogil=True)
def play_recorded(seeds: np.ndarray, seating: np.ndarray, cfg: np.ndarray, learners: np.ndarray,
                  eps: float, cap: int, win: int, nobles: int, feats: np.ndarray,
                  meta: np.ndarray, result: np.ndarray, points: np.ndarray,
                  rounds: np.ndarray, states: np.ndarray) -> int:
    """Play one game per seed (seat k of game g: bot ``seating[g, k]``); ``learners[b]``
    marks the bot rows that explore and record. Recorded rows go to ``feats`` (features) and
    ``meta`` (game, seat) until they are full; returns the number recorded. ``states`` with
    rows keeps each recorded position's whole state too (hidden parts included: for studies
    of new features, which must read only what the seat sees); with none, nothing."""
    players = seating.shape[1]
    levels = 1
    for b in range(cfg.shape[0]):
        levels = max(levels, int(cfg[b, CFG_DEPTH]))
    root, kids, moves, keys, order, scratch, line = workspace(levels)
    tkeys, tvals, tinfo, count = tables(_table_bits(cfg))
    s = np.empty(SIZE, dtype=np.int64)
    deal = np.empty(1, dtype=np.uint64)
    rng = np.empty(1, dtype=np.uint64)
    res = np.empty(players, dtype=np.int64)
    f = np.empty(NF, dtype=np.float64)
    threshold = int(eps * _SCALE)
    n = 0
    for g in range(seeds.size):
        deal[0] = seeds[g]
        rng[0] = seeds[g] ^ BOT_STREAM
        setup(s, players, cap, deal, win, nobles)
        while not s[O_DONE]:
            p = s[O_CUR]
            b = seating[g, p]
            row = cfg[b]
            if s[O_PHASE] == PH_MAIN:
                if learners[b] and threshold > 0 and rand_below(rng, _SCALE) < threshold:
                    m = random_main(s, rng, moves[0])
                else:
                    m = _decide(s, row, rng, root, kids, moves, keys, order, scratch, line,
                                tkeys, tvals, tinfo, count)
                apply_move(s, m)
            if int(row[CFG_KIND]) == K_RANDOM:
                resolve_random(s, p, rng)
            else:
                resolve(s, p, row[CFG_W:])
            if s[O_CUR] != p or s[O_DONE]:  # a whole turn ended: every learner's view
                for q in range(players):
                    if learners[seating[g, q]] and n < feats.shape[0]:
                        features(s, q, f)
                        feats[n, :] = f
                        meta[n, 0] = g
                        meta[n, 1] = q
                        if n < states.shape[0]:
                            states[n, :] = s
                        n += 1
        outcome(s, res)
        for q in range(players):
            result[g, q] = res[q]
            points[g, q] = s[O_PTS + q]
        rounds[g] = s[O_ROUND]
    return n
