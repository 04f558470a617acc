"""Whole Dominion games on the rule machine: every decision asked of the seat's bot.

:func:`run_games` takes the same arguments and writes the same results as the engine's
``run_batch`` (:mod:`games.dominion.kernel`): a block of seeded games, one row of results
per game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.dominion.actions import actions_in_hand
from games.dominion.engine import ACTIONS, BUYS, TURNS, hand_money, victory_points
from games.dominion.kernel import score_game
from games.dominion.policy import _choice
from games.dominion.rules import apply, new_game, options, run_auto, top
from games.dominion.steps import (
    END_ACTIONS,
    END_TURN,
    FIRST_DECISION,
    M_ACTIVE,
    M_CAPPED,
    M_OVER,
    M_PHASE,
    M_SIZE,
    M_SP,
    MAX_OPTIONS,
    PH_ACTION,
    PH_BUY,
    PLAY_TREASURES,
)


@njit(cache=True)
def play_out(mach, opts, seats, rules, nrules, amode, bmode, fparams, weights, lparams,
             dparams, order, zones, draw, pinfo, piles, ts, rng, brng, rec_idx, rec_meta,
             rec_n):
    """Play the game in the work arrays to its end, every decision by the seat's bot."""
    while mach[M_OVER] == 0:
        at = top(mach)
        if at < 0:  # the turn's phase: asked only where the bot has a choice
            p = mach[M_ACTIVE]
            if mach[M_PHASE] == PH_ACTION:
                ask = ts[ACTIONS] > 0 and actions_in_hand(p, zones) > 0
                code = END_ACTIONS
            elif mach[M_PHASE] == PH_BUY and hand_money(p, zones) > 0:
                ask = False
                code = PLAY_TREASURES  # what every bot does first in its buy phase
            else:
                ask = ts[BUYS] > 0  # a random or exploring bot draws even with no card to buy
                code = END_TURN
            if ask:
                code = _choice(mach, opts, 0, seats, rules, nrules, amode, bmode, fparams,
                               weights, lparams, dparams, order, zones, pinfo, piles, ts, brng,
                               rec_idx, rec_meta, rec_n)
            apply(code, mach, zones, draw, pinfo, piles, ts, rng)
            continue
        if mach[at] < FIRST_DECISION:
            run_auto(mach, zones, draw, pinfo, piles, ts, rng)
            continue
        n = options(mach, zones, piles, ts, opts)
        if n == 0:
            mach[M_SP] -= 1
        elif n == 1:
            apply(opts[0], mach, zones, draw, pinfo, piles, ts, rng)
        else:
            code = _choice(mach, opts, n, seats, rules, nrules, amode, bmode, fparams, weights,
                           lparams, dparams, order, zones, pinfo, piles, ts, brng, rec_idx,
                           rec_meta, rec_n)
            apply(code, mach, zones, draw, pinfo, piles, ts, rng)


@njit(cache=True)
def playable_order(porder, supply0):
    """Play orders without the cards absent from this game."""
    order = np.full(porder.shape, -1, dtype=np.int64)
    for b in range(porder.shape[0]):
        k = 0
        for j in range(porder.shape[1]):
            if porder[b, j] >= 0 and supply0[porder[b, j]] >= 0:
                order[b, k] = porder[b, j]
                k += 1
    return order


@njit(cache=True, nogil=True)
def run_games(seeds, seating, rules, nrules, amode, bmode, fparams, weights, lparams, dparams,
              porder, supply0, end_rule, tiebreak, cap, solo_target, out_outcome, out_vp,
              out_turns, out_plies, out_capped, zones, draw, pinfo, piles, ts, rng, rec_idx,
              rec_meta, rec_n):
    """Play len(seeds) games (game i seats bot ``seating[i, k]`` in seat k): the arguments
    and results of the engine's ``run_batch``."""
    players = zones.shape[0]
    order = playable_order(porder, supply0)
    mach = np.zeros(M_SIZE, dtype=np.int64)
    opts = np.zeros(MAX_OPTIONS, dtype=np.int64)
    for i in range(seeds.shape[0]):
        rec_n[1] = i
        new_game(seeds[i], supply0, end_rule, cap, solo_target, 1 if tiebreak else 0, mach,
                 zones, draw, pinfo, piles, ts, rng)
        play_out(mach, opts, seating[i], rules, nrules, amode, bmode, fparams, weights, lparams,
                 dparams, order, zones, draw, pinfo, piles, ts, rng, rng, rec_idx, rec_meta,
                 rec_n)
        plies = 0
        for q in range(players):
            plies += pinfo[q, TURNS]
        capped = mach[M_CAPPED] == 1
        if solo_target > 0:
            out_vp[i, 0] = victory_points(0, zones)
            out_outcome[i, 0] = 0 if capped else 1
        else:
            score_game(zones, pinfo, tiebreak, out_outcome[i], out_vp[i])
        out_turns[i] = pinfo[0, TURNS]
        out_plies[i] = plies
        out_capped[i] = capped
