"""Whole Dominion games on the rule machine, and parts of them: every decision asked of the
seat's bot (:mod:`games.dominion._policy`).

:func:`run_games` plays a block of seeded games and writes one row of results per game (the
call beneath every match and study). :func:`take_turn`, :func:`bot_actions`,
:func:`play_card`, :func:`action_phase` and :func:`play_treasures` play one turn, one action
phase, one card or the treasures of a position built by hand (tests, the learned player's
explanations), on the same rules.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.dominion._actions import DEFAULT_DPARAMS, DEFAULT_PORDER, actions_in_hand
from games.dominion._cards import IS_TREASURE, NC
from games.dominion._engine import (
    ACTIONS,
    B1,
    BUYS,
    F1,
    F2,
    F3,
    HAND,
    I1,
    O2,
    PI,
    TS,
    TURNS,
    U1,
    Bool,
    D,
    Flt,
    Int,
    R,
    Z,
    hand_money,
    victory_points,
    void,
)
from games.dominion._kernel import score_game
from games.dominion._layout import NLP, RULE_WIDTH
from games.dominion._policy import _choice
from games.dominion._rules import (
    apply,
    apply_inline,
    new_game,
    options,
    play_treasure,
    run_auto,
    start_turn,
    top,
)
from games.dominion._steps import (
    END_ACTIONS,
    END_TURN,
    FIRST_DECISION,
    M_ACTIVE,
    M_CAP,
    M_CAPPED,
    M_HAND,
    M_OVER,
    M_PHASE,
    M_SIZE,
    M_SP,
    MAX_OPTIONS,
    PH_ACTION,
    PH_BUY,
    PLAY_TREASURES,
    V_PLAY,
)

#: where :func:`play_out` stops: the end of the game, of the action phase, of the card being
#: resolved (the stack empty), of the turn
UNTIL_OVER, UNTIL_BUY_PHASE, UNTIL_RESOLVED, UNTIL_TURN_ENDS = 0, 1, 2, 3


@njit(void(I1, I1, I1, F3, I1, I1, I1, F2, F2, F2, F2, PI, Z, D, PI, PI, TS, R, R, PI, PI, I1,
           Int), cache=True)
def play_out(mach, opts, seats, rules, nrules, amode, bmode, fparams, weights, lparams,
             dparams, order, zones, draw, pinfo, piles, ts, rng, brng, rec_idx, rec_meta,
             rec_n, until):
    """Play the game in the work arrays, every decision by the seat's bot, to the end of the
    game or to the point ``until`` names."""
    p0 = mach[M_ACTIVE]
    turns0 = pinfo[p0, TURNS]
    while mach[M_OVER] == 0:
        at = top(mach)
        if until != UNTIL_OVER and (
                (until == UNTIL_TURN_ENDS and pinfo[p0, TURNS] != turns0)
                or (at < 0 and until == UNTIL_RESOLVED)
                or (at < 0 and until == UNTIL_BUY_PHASE and mach[M_PHASE] != PH_ACTION)):
            return
        n = 0
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
        elif mach[at] < FIRST_DECISION:
            run_auto(mach, zones, draw, pinfo, piles, ts, rng)
            continue
        else:
            n = options(mach, zones, piles, ts, opts)
            if n == 0:
                mach[M_SP] -= 1
                continue
            ask = n > 1
            code = opts[0]
        if ask:  # one call site each: both kernels are compiled into this loop
            code = _choice(mach, opts, n, seats, rules, nrules, amode, bmode, fparams, weights,
                           lparams, dparams, order, zones, pinfo, piles, ts, brng, rec_idx,
                           rec_meta, rec_n)
        apply_inline(code, mach, zones, draw, pinfo, piles, ts, rng)


@njit(PI(PI, I1), cache=True)
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


@njit(void(U1, PI, F3, I1, I1, I1, F2, F2, F2, F2, PI, I1, Int, Bool, Int, Int, Int, O2, PI, I1,
           I1, B1, Z, D, PI, PI, TS, R, PI, PI, I1), cache=True, nogil=True)
def run_games(seeds, seating, rules, nrules, amode, bmode, fparams, weights, lparams, dparams,
              porder, supply0, end_rule, tiebreak, cap, solo_target, hand, out_outcome, out_vp,
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
        new_game(seeds[i], supply0, end_rule, cap, solo_target, 1 if tiebreak else 0, hand,
                 mach, zones, draw, pinfo, piles, ts, rng)
        play_out(mach, opts, seating[i], rules, nrules, amode, bmode, fparams, weights, lparams,
                 dparams, order, zones, draw, pinfo, piles, ts, rng, rng, rec_idx, rec_meta,
                 rec_n, UNTIL_OVER)
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


# ----------------------------------------------------------------------------- parts of games

@njit(void(Int, Int, F3, I1, I1, I1, F2, F2, F2, F2, PI, I1, Z, D, PI, PI, TS, R, PI, PI, I1),
      cache=True)
def take_turn(p, b, rules, nrules, amode, bmode, fparams, weights, lparams, dparams, order,
              seats, zones, draw, pinfo, piles, ts, rng, rec_idx, rec_meta, rec_n):
    """One whole turn of player p played by bot b (``seats[q]``: the bot in seat q, for the
    victims of its attacks; ``order``: play orders), from the start of the turn to the
    clean-up; the end of the game is the caller's to check."""
    mach = np.zeros(M_SIZE, dtype=np.int64)
    opts = np.zeros(MAX_OPTIONS, dtype=np.int64)
    mach[M_ACTIVE] = p
    mach[M_CAP] = 1 << 40
    mach[M_HAND] = 5  # parts of games play the printed hand
    start_turn(mach, ts)
    bots = seats.copy()
    bots[p] = b
    play_out(mach, opts, bots, rules, nrules, amode, bmode, fparams, weights, lparams, dparams,
             order, zones, draw, pinfo, piles, ts, rng, rng, rec_idx, rec_meta, rec_n,
             UNTIL_TURN_ENDS)


@njit(void(Int, Int, Int, Int, Flt, Flt, F1, I1, F2, I1, F2, Int, Z, D, PI, PI, TS, R), cache=True)
def _one_bot(p, c, until, mode, k, wa, dp, po, dps, seats, rules, nrule, zones, draw, pinfo,
             piles, ts, rng):
    """p's action phase (``c < 0``) or p playing card c and resolving it, decided by a bot
    given as rows (``dps[seats[q]]``: the decision row of the player in seat q)."""
    nb = dps.shape[0] + 1
    me = nb - 1
    rules3 = np.zeros((nb, max(1, rules.shape[0]), RULE_WIDTH))
    nrules = np.zeros(nb, dtype=np.int64)
    for r in range(rules.shape[0]):
        for j in range(RULE_WIDTH):
            rules3[me, r, j] = rules[r, j]
    nrules[me] = nrule
    amode = np.zeros(nb, dtype=np.int64)
    amode[me] = mode
    bmode = np.zeros(nb, dtype=np.int64)
    fparams = np.zeros((nb, 2))
    fparams[me, 0] = k
    fparams[me, 1] = wa
    dparams = np.zeros((nb, dp.shape[0]))
    for q in range(nb):
        for j in range(dp.shape[0]):
            dparams[q, j] = dp[j] if q == me else dps[q, j]
    order = np.full((nb, NC), -1, dtype=np.int64)
    for j in range(min(NC, po.shape[0])):
        order[me, j] = po[j]
    bots = seats.copy()
    bots[p] = me
    mach = np.zeros(M_SIZE, dtype=np.int64)
    opts = np.zeros(MAX_OPTIONS, dtype=np.int64)
    mach[M_ACTIVE] = p
    mach[M_CAP] = 1 << 40
    mach[M_HAND] = 5  # parts of games play the printed hand
    rec_idx = np.zeros((1, 1), dtype=np.int64)
    rec_meta = np.zeros((1, 2), dtype=np.int64)
    rec_n = np.zeros(2, dtype=np.int64)
    if c >= 0:
        apply(V_PLAY * NC + c, mach, zones, draw, pinfo, piles, ts, rng)
    play_out(mach, opts, bots, rules3, nrules, amode, bmode, fparams, np.zeros((nb, 1)),
             np.zeros((nb, NLP)), dparams, order, zones, draw, pinfo, piles, ts, rng, rng,
             rec_idx, rec_meta, rec_n, until)


@njit(void(Int, Int, Flt, Flt, F1, I1, F2, I1, F2, Int, Z, D, PI, PI, TS, R), cache=True)
def bot_actions(p, mode, k, wa, dp, po, dps, seats, rules, nrule, zones, draw, pinfo, piles,
                ts, rng):
    """Play action cards while actions remain, as the bot's action mode, play order ``po``
    and decision row ``dp`` dictate (``dps[seats[q]]``: the row of the player in seat q,
    for attacks' victims; ``rules``: the bot's buy rules, for gains)."""
    _one_bot(p, -1, UNTIL_BUY_PHASE, mode, k, wa, dp, po, dps, seats, rules, nrule, zones,
             draw, pinfo, piles, ts, rng)


@njit(void(Int, Int, Int, F1, I1, F2, I1, F2, Int, Z, D, PI, PI, TS, R), cache=True)
def play_card(p, c, mode, dp, po, dps, seats, rules, nrule, zones, draw, pinfo, piles, ts,
              rng):
    """Play action card c from p's hand for one action and resolve it, every choice by the
    bot's rows (as :func:`bot_actions`)."""
    _one_bot(p, c, UNTIL_RESOLVED, mode, 4.0, 1.0, dp, po, dps, seats, rules, nrule, zones,
             draw, pinfo, piles, ts, rng)


@njit(void(Int, Int, Flt, Flt, Z, D, PI, PI, TS, R), cache=True)
def action_phase(p, mode, k, wa, zones, draw, pinfo, piles, ts, rng):
    """``bot_actions`` with the default decisions and play order for every player and no
    buy rules (with no rule matching, a gain falls back as _decisions.py says)."""
    dp = DEFAULT_DPARAMS.copy()
    dps = np.zeros((1, dp.shape[0]))
    for j in range(dp.shape[0]):
        dps[0, j] = dp[j]
    _one_bot(p, -1, UNTIL_BUY_PHASE, mode, k, wa, dp, DEFAULT_PORDER.copy(), dps,
             np.zeros(zones.shape[0], dtype=np.int64), np.zeros((1, RULE_WIDTH)), 0, zones,
             draw, pinfo, piles, ts, rng)


@njit(void(Int, Z, TS), cache=True)
def play_treasures(p, zones, ts):
    """Play every treasure in p's hand (their coins, and the first Silver's +$1 per
    Merchant played)."""
    mach = np.zeros(M_SIZE, dtype=np.int64)
    for c in range(NC):
        if IS_TREASURE[c] and zones[p, HAND, c] > 0:
            play_treasure(p, c, zones[p, HAND, c], mach, zones, ts)
