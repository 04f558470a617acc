"""The action player: which action card a bot plays next, and playing it with every effect.

Action modes (``engine.ACT_*``): static plays the first card of the bot's play order
``po`` that is in hand and worth playing (Throne Room needs another action in hand, Remodel
a card it would remodel: see :mod:`games.dominion.decisions`); scored uses seed 001's
one-ply heuristic; random plays a random action card (stopping with chance 1/8); none plays
nothing. Throne Room and Vassal play other cards: a small stack resolves them in order
(Throne Room on Throne Room plays two actions twice each), without recursion.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.dominion.cards import (
    COIN,
    COST,
    IS_ACTION,
    NC,
    PLUS_ACTIONS,
    PLUS_BUYS,
    PLUS_CARDS,
    PLUS_COINS,
    REMODEL,
    SPECIAL,
    SPECIAL_EFFECT,
    SPECIAL_STEWARD,
    THRONE_ROOM,
    VASSAL,
)
from games.dominion.decisions import (
    DP_THRONE_TARGET,
    DP_VASSAL_PLAY,
    ND,
    default_decisions,
    default_play_order,
)
from games.dominion.effects import card_effect, remodel_target
from games.dominion.engine import (
    ACT_NONE,
    ACT_RANDOM,
    ACT_SCORED,
    ACT_STATIC,
    ACTIONS,
    BUYS,
    COINS,
    DISCARD,
    F1,
    F2,
    HAND,
    I1,
    OWNED,
    PI,
    PLAY,
    RULE_WIDTH,
    ST_DRAW,
    TS,
    Bool,
    D,
    Flt,
    Int,
    R,
    Z,
    apply_primitives,
    hand_money,
    play_action,
    rng_below,
    steward_choice,
    take_top,
    void,
)

DEFAULT_DPARAMS = default_decisions()
DEFAULT_PORDER = default_play_order()
STACK = 64  # pending plays of one Throne Room / Vassal chain


@njit(Int(Int, Z), cache=True)
def actions_in_hand(p, zones):
    n = 0
    for c in range(NC):
        if IS_ACTION[c]:
            n += zones[p, HAND, c]
    return n


@njit(Int(Int, F1, I1, Z), cache=True)
def throne_target(p, dp, po, zones):
    """The action Throne Room plays twice: the first in play order (throne_target 0) or the
    most expensive (1) in hand; another Throne Room only with two more actions in hand."""
    others = actions_in_hand(p, zones) - zones[p, HAND, THRONE_ROOM]
    best = -1
    for i in range(po.shape[0]):
        c = po[i]
        if c < 0:
            break
        if zones[p, HAND, c] == 0 or (c == THRONE_ROOM and others < 2):
            continue
        if dp[DP_THRONE_TARGET] == 0:
            return c
        if best < 0 or COST[c] > COST[best]:
            best = c
    return best


@njit(Bool(Int, Int, F1, Z, PI), cache=True)
def worth_playing(p, c, dp, zones, piles):
    """Throne Room needs another action in hand; Remodel a card it would remodel."""
    if c == THRONE_ROOM:
        return actions_in_hand(p, zones) > zones[p, HAND, THRONE_ROOM]
    if c == REMODEL:
        return remodel_target(p, dp, zones, piles) >= 0
    return True


@njit(Int(Int, Int, Z, PI, TS, R), cache=True)
def _steward(p, mode, zones, pinfo, ts, rng):
    """Steward's choice: random for the random player, else the shared rule."""
    if mode == ACT_RANDOM:
        return rng_below(rng, 3)
    return steward_choice(p, zones, pinfo, ts)


@njit(void(Int, Int, Int, Int, F1, I1, F2, I1, F2, Int, Z, D, PI, PI, TS, R), cache=True)
def play_card(p, c, choice, mode, dp, po, dps, seats, rules, nrule, zones, draw, pinfo, piles,
              ts, rng):
    """Play action card c from p's hand for one action: its primitives, then its effect.
    Throne Room and Vassal play further cards: a stack of pending plays resolves them in
    order (an entry d + NC is card d's own effect only, its primitives already applied)."""
    zones[p, HAND, c] -= 1
    zones[p, PLAY, c] += 1
    ts[ACTIONS] -= 1
    apply_primitives(p, c, choice, zones, draw, pinfo, piles, ts, rng)
    if SPECIAL[c] != SPECIAL_EFFECT:
        return
    if c != THRONE_ROOM and c != VASSAL:
        card_effect(p, c, dp, dps, seats, rules, nrule, zones, draw, pinfo, piles, ts, rng)
        return
    stack = np.empty(STACK, dtype=np.int64)
    stack[0] = c + NC
    n = 1
    while n > 0:
        n -= 1
        d = stack[n] % NC
        if stack[n] < NC:
            choice = _steward(p, mode, zones, pinfo, ts, rng) \
                if SPECIAL[d] == SPECIAL_STEWARD else ST_DRAW
            apply_primitives(p, d, choice, zones, draw, pinfo, piles, ts, rng)
        if SPECIAL[d] != SPECIAL_EFFECT:
            continue
        if d == THRONE_ROOM:
            t = throne_target(p, dp, po, zones)
            if t >= 0 and n + 2 <= STACK:
                zones[p, HAND, t] -= 1
                zones[p, PLAY, t] += 1
                stack[n] = t
                stack[n + 1] = t
                n += 2
        elif d == VASSAL:
            t = take_top(p, zones, draw, pinfo, rng)
            if t >= 0:
                if IS_ACTION[t] and dp[DP_VASSAL_PLAY] > 0 and n < STACK:
                    zones[p, PLAY, t] += 1
                    stack[n] = t
                    n += 1
                else:
                    zones[p, DISCARD, t] += 1
        else:
            card_effect(p, d, dp, dps, seats, rules, nrule, zones, draw, pinfo, piles, ts, rng)


@njit(Int(Int, F1, Z, PI, PI, TS, Flt, Flt), cache=True)
def _scored_action(p, dp, zones, pinfo, piles, ts, k, wa):
    """Seed 001's action heuristic, one ply: the card whose expected result scores best,
    money + (buys - 1) * money / k when no action would remain, else money + wa * actions.
    Cards drawn are valued at the mean coin value of the cards left to draw."""
    rest_cards = 0
    rest_money = 0
    for c in range(NC):
        n = zones[p, OWNED, c] - zones[p, HAND, c] - zones[p, PLAY, c]
        rest_cards += n
        rest_money += n * COIN[c]
    per_card = rest_money / rest_cards if rest_cards > 0 else 0.0
    base = hand_money(p, zones) + ts[COINS]
    best = -1
    best_score = -1e18
    for c in range(NC):
        if not IS_ACTION[c] or zones[p, HAND, c] == 0:
            continue
        if SPECIAL[c] == SPECIAL_EFFECT and not worth_playing(p, c, dp, zones, piles):
            continue
        draws = PLUS_CARDS[c]
        money = base + PLUS_COINS[c]
        if SPECIAL[c] == SPECIAL_STEWARD:
            draws = 2 if 2 * per_card > 2 else 0
            money += 0 if draws == 2 else 2
        money += min(draws, rest_cards) * per_card
        actions = ts[ACTIONS] - 1 + PLUS_ACTIONS[c]
        buys = ts[BUYS] + PLUS_BUYS[c]
        others = 0
        for d in range(NC):
            if IS_ACTION[d]:
                others += zones[p, HAND, d] - (1 if d == c else 0)
        if actions <= 0 or (others == 0 and draws == 0):
            score = money + (buys - 1) * money / k
        else:
            score = money + wa * actions
        if score > best_score:
            best_score = score
            best = c
    return best


@njit(void(Int, Int, Flt, Flt, F1, I1, F2, I1, F2, Int, Z, D, PI, PI, TS, R), cache=True)
def bot_actions(p, mode, k, wa, dp, po, dps, seats, rules, nrule, zones, draw, pinfo, piles,
                ts, rng):
    """Play action cards while actions remain, as the bot's action mode, play order ``po``
    and decision row ``dp`` dictate (``dps[seats[q]]``: the row of the player in seat q,
    for attacks' victims; ``rules``: the bot's buy rules, for gains)."""
    while ts[ACTIONS] > 0 and mode != ACT_NONE:
        c = -1
        if mode == ACT_STATIC:
            for i in range(po.shape[0]):
                d = po[i]
                if d < 0:
                    break
                if zones[p, HAND, d] > 0 and (SPECIAL[d] != SPECIAL_EFFECT
                                              or worth_playing(p, d, dp, zones, piles)):
                    c = d
                    break
        elif mode == ACT_SCORED:
            c = _scored_action(p, dp, zones, pinfo, piles, ts, k, wa)
        else:
            n = actions_in_hand(p, zones)
            if n > 0 and rng_below(rng, 8) > 0:
                r = rng_below(rng, n)
                for d in range(NC):
                    if IS_ACTION[d]:
                        r -= zones[p, HAND, d]
                        if r < 0:
                            c = d
                            break
        if c < 0:
            return
        if SPECIAL[c] == SPECIAL_EFFECT:
            play_card(p, c, ST_DRAW, mode, dp, po, dps, seats, rules, nrule, zones, draw,
                      pinfo, piles, ts, rng)
        else:  # primitives and Steward only: the short call
            choice = _steward(p, mode, zones, pinfo, ts, rng) \
                if SPECIAL[c] == SPECIAL_STEWARD else ST_DRAW
            play_action(p, c, choice, zones, draw, pinfo, piles, ts, rng)


@njit(void(Int, Int, Flt, Flt, Z, D, PI, PI, TS, R), cache=True)
def action_phase(p, mode, k, wa, zones, draw, pinfo, piles, ts, rng):
    """``bot_actions`` with the default decisions and play order for every player and no
    buy rules (with no rule matching, a gain falls back as decisions.py says)."""
    dp = np.empty(ND, dtype=np.float64)
    for i in range(ND):
        dp[i] = DEFAULT_DPARAMS[i]
    po = np.empty(NC, dtype=np.int64)
    for i in range(NC):
        po[i] = DEFAULT_PORDER[i]
    dps = np.empty((1, ND), dtype=np.float64)
    for i in range(ND):  # element by element: a row assignment compiles its error messages
        dps[0, i] = dp[i]
    seats = np.zeros(zones.shape[0], dtype=np.int64)
    rules = np.zeros((1, RULE_WIDTH), dtype=np.float64)
    bot_actions(p, mode, k, wa, dp, po, dps, seats, rules, 0, zones, draw, pinfo, piles, ts,
                rng)
