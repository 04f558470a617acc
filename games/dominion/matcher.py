"""The buy-rule matcher: the first rule of a bot's buy list that is affordable and allowed.

The kernel's buy phase asks it for each buy; card effects that gain a card costing up to
some amount (Workshop, Artisan, Remodel) ask it with that amount as the coins, so a bot
gains what its own buy list would buy. Rule rows are laid out as ``engine.RULE_WIDTH``
floats: card, copy limit (-1: none), number of conditions, (variable, operator, value)*3.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.dominion.cards import COIN, COST, NC, PROVINCE
from games.dominion.engine import (
    COINS,
    F2,
    HAND,
    OP_EQ,
    OP_GE,
    OP_GT,
    OP_LE,
    OP_LT,
    OWNED,
    PI,
    PLAY,
    TS,
    TURNS,
    VAR_CARDS,
    VAR_COINS,
    VAR_COUNT,
    VAR_DSHARE,
    VAR_EMPTY,
    VAR_GAINS,
    VAR_LEAD,
    VAR_LEFT,
    VAR_MONEY,
    VAR_SHARE,
    VAR_TURN,
    Bool,
    Flt,
    Int,
    Z,
    empty_piles,
    gains_to_end,
    victory_points,
)

MONEY_CARDS = np.flatnonzero(COIN > 0).astype(np.int64)  # the cards with a coin value


@njit(Flt(Int, Int, Int, Z, PI, PI, TS), cache=True)
def condition_value(var, p, c, zones, pinfo, piles, ts):
    """The value a rule condition compares: see VAR_* and the buy-list grammar."""
    if var == VAR_LEFT:
        return float(piles[0, PROVINCE])
    if var == VAR_GAINS:
        return float(gains_to_end(piles))
    if var == VAR_COINS:
        return float(ts[COINS])
    if var == VAR_TURN:
        return float(pinfo[p, TURNS] + 1)
    if var == VAR_COUNT:
        return float(zones[p, OWNED, c])
    if var == VAR_EMPTY:
        return float(empty_piles(piles))
    if var == VAR_MONEY:
        money = 0
        for i in range(MONEY_CARDS.shape[0]):
            money += zones[p, OWNED, MONEY_CARDS[i]] * COIN[MONEY_CARDS[i]]
        return float(money)
    total = 0
    for d in range(NC):
        total += zones[p, OWNED, d]
    if var == VAR_CARDS:
        return float(total)
    if var == VAR_SHARE:
        return zones[p, OWNED, c] / total if total > 0 else 0.0
    if var == VAR_DSHARE:
        away = zones[p, OWNED, c] - zones[p, HAND, c] - zones[p, PLAY, c]
        return away / total if total > 0 else 0.0
    if var == VAR_LEAD:
        mine = victory_points(p, zones)
        best = -(1 << 30)
        for q in range(zones.shape[0]):
            if q != p:
                v = victory_points(q, zones)
                if v > best:
                    best = v
        return float(mine - best) if zones.shape[0] > 1 else float(mine)
    return 0.0


@njit(Bool(Flt, Int, Flt), cache=True)
def compare(x, op, y):
    if op == OP_LE:
        return x <= y
    if op == OP_LT:
        return x < y
    if op == OP_GE:
        return x >= y
    if op == OP_GT:
        return x > y
    if op == OP_EQ:
        return x == y
    return False


@njit(Int(Int, F2, Int, Z, PI, PI, TS), cache=True)
def choose_buy(p, rule_tab, nrule, zones, pinfo, piles, ts):
    """First rule whose card is affordable, in stock, under its limit and whose conditions
    hold; -1 buys nothing."""
    for r in range(nrule):
        c = int(rule_tab[r, 0])
        if piles[0, c] <= 0 or COST[c] > ts[COINS]:
            continue
        limit = rule_tab[r, 1]
        if limit >= 0 and zones[p, OWNED, c] >= limit:
            continue
        ok = True
        for j in range(int(rule_tab[r, 2])):
            var = int(rule_tab[r, 3 + 3 * j])
            op = int(rule_tab[r, 4 + 3 * j])
            x = condition_value(var, p, c, zones, pinfo, piles, ts)
            if not compare(x, op, rule_tab[r, 5 + 3 * j]):
                ok = False
                break
        if ok:
            return c
    return -1
