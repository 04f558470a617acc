"""The buy-rule matcher: the first rule of a bot's buy list that is affordable and allowed.

The kernel's buy phase asks it for each buy; card effects that gain a card costing up to
some amount (Workshop, Artisan, Remodel) ask it with that amount as the coins, so a bot
gains what its own buy list would buy. Rule rows are laid out as ``engine.RULE_WIDTH``
floats: card, copy limit (-1: none), number of conditions, (variable, operator, value)*3.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.dominion._cards import CARDS, COIN, COST, CURSE, IS_ACTION, IS_TREASURE, NC, PROVINCE
from games.dominion._engine import (
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
    VAR_ACTIONS,
    VAR_ADENSITY,
    VAR_ATTACKS,
    VAR_CARDS,
    VAR_COINS,
    VAR_COUNT,
    VAR_CURSES,
    VAR_DSHARE,
    VAR_EMPTY,
    VAR_GAINS,
    VAR_KATTACKS,
    VAR_LEAD,
    VAR_LEFT,
    VAR_MONEY,
    VAR_SHARE,
    VAR_TREASURES,
    VAR_TSHARE,
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
# Card types a condition counts: TYPED[kind, card] for kind T_TREASURE, T_ACTION, T_ATTACK.
T_TREASURE, T_ACTION, T_ATTACK = 0, 1, 2
TYPED = np.array([IS_TREASURE, IS_ACTION, [c.attack for c in CARDS]], dtype=np.bool_)


@njit(Int(Int, Z, Int), cache=True)
def owned_of(p, zones, kind):
    """How many cards of type ``kind`` (a TYPED row) player p owns."""
    n = 0
    for d in range(NC):
        if TYPED[kind, d]:
            n += zones[p, OWNED, d]
    return n


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
    if var == VAR_TREASURES:
        return float(owned_of(p, zones, T_TREASURE))
    if var == VAR_ACTIONS:
        return float(owned_of(p, zones, T_ACTION))
    if var == VAR_CURSES:
        return float(zones[p, OWNED, CURSE])
    if var == VAR_TSHARE:
        t = owned_of(p, zones, T_TREASURE)
        return zones[p, OWNED, c] / t if t > 0 else 0.0
    if var == VAR_ATTACKS:
        n = 0
        for q in range(zones.shape[0]):
            if q != p:
                n += owned_of(q, zones, T_ATTACK)
        return float(n)
    if var == VAR_KATTACKS:
        n = 0
        for d in range(NC):
            if TYPED[T_ATTACK, d] and piles[0, d] >= 0:
                n += 1
        return float(n)
    total = 0
    for d in range(NC):
        total += zones[p, OWNED, d]
    if var == VAR_CARDS:
        return float(total)
    if var == VAR_SHARE:
        return zones[p, OWNED, c] / total if total > 0 else 0.0
    if var == VAR_ADENSITY:
        return owned_of(p, zones, T_ACTION) / total if total > 0 else 0.0
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


@njit(Int(Int, F2, Int, Int, Bool, Z, PI, PI, TS), cache=True)
def first_rule(p, rule_tab, first, stop, treasure_only, zones, pinfo, piles, ts):
    """The card of the first of rows ``first .. stop - 1`` whose card is affordable, in
    stock, under its limit (a Treasure when ``treasure_only``) and whose conditions hold;
    -1 when none is."""
    for r in range(first, stop):
        c = int(rule_tab[r, 0])
        if piles[0, c] <= 0 or COST[c] > ts[COINS] or (treasure_only and not IS_TREASURE[c]):
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


@njit(Int(Int, F2, Int, Z, PI, PI, TS), cache=True)
def choose_buy(p, rule_tab, nrule, zones, pinfo, piles, ts):
    """First rule whose card is affordable, in stock, under its limit and whose conditions
    hold; -1 buys nothing."""
    return first_rule(p, rule_tab, 0, nrule, False, zones, pinfo, piles, ts)
