"""Card choices the bots share beyond the action player: the card a capped gain takes
(Workshop, Artisan, Remodel), the card Remodel trashes by choice, and the order a Bureaucrat
victim tops Victory cards in (the rules are :mod:`games.dominion._rules`', the policy asking
these :mod:`games.dominion._policy`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.dominion._cards import (
    CARDS,
    COPPER,
    COST,
    CURSE,
    ESTATE,
    GOLD,
    NC,
    PROVINCE,
)
from games.dominion._decisions import (
    DP_REMODEL_ESTATES,
    DP_REMODEL_GOLD_PROVINCES,
)
from games.dominion._engine import (
    COINS,
    F1,
    F2,
    HAND,
    PI,
    TS,
    Int,
    Z,
)
from games.dominion._matcher import choose_buy

# Victory cards (Great Hall and Harem included), cheapest first: what a Bureaucrat victim tops.
VICTORY_ORDER = np.array(sorted((i for i, c in enumerate(CARDS) if c.victory),
                                key=lambda i: (CARDS[i].cost, i)), dtype=np.int64)


# ----------------------------------------------------------------------------- shared choices

@njit(Int(Int, Int, F2, Int, Z, PI, PI, TS), cache=True)
def capped_choice(p, cap, rules, nrule, zones, pinfo, piles, ts):
    """The card p gains when an effect gains one costing up to ``cap`` (the gain is
    mandatory, as printed): what its buy list would buy with ``cap`` coins now, else the most
    expensive card in stock that fits and is not a Curse, Copper or Estate (lowest index on
    ties), else Copper, else Estate, else Curse; -1 only when no card in stock fits."""
    if nrule > 0:
        coins = ts[COINS]
        ts[COINS] = cap
        c = choose_buy(p, rules, nrule, zones, pinfo, piles, ts)
        ts[COINS] = coins
        if c >= 0:
            return c
    best = -1
    for d in range(NC):
        if piles[0, d] > 0 and COST[d] <= cap and d != CURSE and d != COPPER and d != ESTATE:
            if best < 0 or COST[d] > COST[best]:
                best = d
    if best >= 0:
        return best
    for d in (COPPER, ESTATE, CURSE):  # junk, but the card says gain
        if piles[0, d] > 0 and COST[d] <= cap:
            return d
    return -1


@njit(Int(Int, F1, Z, PI), cache=True)
def remodel_target(p, dp, zones, piles):
    """The card Remodel trashes by choice: a Gold when Provinces are low, a Curse, an Estate
    (remodel_estates); -1 for none."""
    g = dp[DP_REMODEL_GOLD_PROVINCES]
    if zones[p, HAND, GOLD] > 0 and g > 0 and 0 < piles[0, PROVINCE] <= g:
        return GOLD
    if zones[p, HAND, CURSE] > 0:
        return CURSE
    if dp[DP_REMODEL_ESTATES] > 0 and zones[p, HAND, ESTATE] > 0:
        return ESTATE
    return -1
