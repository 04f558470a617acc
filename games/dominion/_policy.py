"""How a bot chooses at each decision of the rule machine (:mod:`games.dominion._rules`): one
function, :func:`choose`, used by whole games in numba and by the turn-level State's bot
player alike, so a bot text plays the same everywhere.

A bot is its rows in the compiled tables (:func:`games.dominion._bots.compile_bots`): buy
rules, action mode, buy mode, the scored player's parameters, learned weights, decision
parameters and play order; the rules each decision follows are the ones
:mod:`games.dominion._decisions` documents. ``brng`` is the stream a random or exploring bot
draws from (in a whole game, the game's own stream, as the engine always drew).
"""

from __future__ import annotations

from numba import njit, types

from games.dominion._actions import (
    _scored_action,
    _steward,
    actions_in_hand,
    throne_target,
    worth_playing,
)
from games.dominion._cards import (
    COPPER,
    COST,
    CURSE,
    ESTATE,
    GOLD,
    IS_ACTION,
    IS_TREASURE,
    MOAT,
    NC,
    PROVINCE,
    SILVER,
    SPECIAL,
    SPECIAL_EFFECT,
)
from games.dominion._decisions import (
    DP_CELLAR_COPPERS,
    DP_CHAPEL_MAX,
    DP_CHAPEL_MONEY_FLOOR,
    DP_HARBINGER_MIN_COST,
    DP_LIBRARY_SET_ASIDE,
    DP_MINE_COPPER,
    DP_MONEYLENDER_COPPER_FLOOR,
    DP_REMODEL_GOLD_PROVINCES,
    DP_SENTRY_COPPERS,
    DP_SENTRY_TRASH_ESTATES,
    DP_VASSAL_PLAY,
    DP_VICTIM_ACTION_COST,
    IS_JUNK,
    JUNK_COPPER_AT,
    JUNK_ORDER,
)
from games.dominion._effects import VICTORY_ORDER, capped_choice, remodel_target
from games.dominion._encoder import encode
from games.dominion._engine import (  # noqa: I001
    ACT_RANDOM,
    ACT_SCORED,
    ACT_STATIC,
    ACTIONS,
    BUY_LEARNED,
    BUY_RULES,
    DISCARD,
    F1,
    F2,
    F3,
    HAND,
    I1,
    OWNED,
    PI,
    TRASH_ORDER,
    TS,
    Int,
    R,
    Z,
    rng_below,
    treasure_money,
)
from games.dominion._kernel import learned_buy, random_buy
from games.dominion._layout import COINS, GAIN_LIST
from games.dominion._matcher import choose_buy, first_rule
from games.dominion._steps import (
    DONE,
    END_ACTIONS,
    END_TURN,
    GAIN_CAPPED,
    GAIN_TREASURE,
    K_ARTISAN,
    K_BANDIT,
    K_BUREAUCRAT,
    K_CELLAR,
    K_CHAPEL,
    K_GAIN,
    K_HARBINGER,
    K_LIBRARY_KEEP,
    K_MILITIA,
    K_MINE,
    K_MOAT,
    K_MONEYLENDER,
    K_POACHER,
    K_REMODEL,
    K_SENTRY,
    K_SENTRY_TOP,
    K_STEWARD,
    K_STEWARD_TRASH,
    K_THRONE,
    K_VASSAL_PLAY,
    M_ACTIVE,
    M_PHASE,
    M_SP,
    M_STACK,
    PH_ACTION,
    PH_BUY,
    PLAY_TREASURES,
    SW,
    V_BUY,
    V_CHOOSE,
    V_DISCARD,
    V_GAIN,
    V_KEEP,
    V_PLAY,
    V_REVEAL,
    V_SET_ASIDE,
    V_THRONE,
    V_TOPDECK,
    V_TRASH,
)

RO1 = types.Array(types.int64, 1, "C", readonly=True)  # a module's constant order
#: a decision's state, options and every bot table: what the policy reads
CHOICE = Int(I1, I1, Int, I1, F3, I1, I1, I1, F2, F2, F2, F2, PI, Z, PI, PI, TS, R, PI, PI, I1)


@njit(Int(Int, RO1, Z), cache=True)
def first_in_hand(q, order, zones):
    """The first card of ``order`` that q holds, -1 for none."""
    for i in range(order.shape[0]):
        c = order[i]
        if c >= 0 and zones[q, HAND, c] > 0:
            return c
    return -1


@njit(Int(Int, Int, Z), cache=True)
def junk_discard(q, action_cost, zones):
    """The card q discards first: junk order, with Action cards costing less than
    ``action_cost`` moved right before Copper."""
    for i in range(NC):
        if i == JUNK_COPPER_AT and action_cost > 0:
            for j in range(NC):
                d = JUNK_ORDER[j]
                if IS_ACTION[d] and COST[d] < action_cost and zones[q, HAND, d] > 0:
                    return d
        c = JUNK_ORDER[i]
        if zones[q, HAND, c] > 0:
            return c
    return -1


@njit(cache=True, inline='always')  # compiled into each caller
def _action(p, b, amode, fparams, dp, order, zones, pinfo, piles, ts, brng):
    """The action card bot b plays next (-1: none), by its action mode."""
    mode = amode[b]
    if mode == ACT_STATIC:
        for i in range(order.shape[1]):
            d = order[b, i]
            if d < 0:
                break
            if zones[p, HAND, d] > 0 and (SPECIAL[d] != SPECIAL_EFFECT
                                          or worth_playing(p, d, dp, zones, piles)):
                return d
        return -1
    if mode == ACT_SCORED:
        return _scored_action(p, dp, zones, pinfo, piles, ts, fparams[b, 0], fparams[b, 1])
    if mode == ACT_RANDOM:
        n = actions_in_hand(p, zones)
        if n > 0 and rng_below(brng, 8) > 0:
            r = rng_below(brng, n)
            for d in range(NC):
                if IS_ACTION[d]:
                    r -= zones[p, HAND, d]
                    if r < 0:
                        return d
        return -1
    return -1  # ACT_NONE


@njit(cache=True, inline='always')  # compiled into each caller
def _buy(p, b, rules, nrules, bmode, weights, lparams, zones, pinfo, piles, ts, brng, rec_idx,
         rec_meta, rec_n):
    """The card bot b buys next (-1: none); a learned bot that records keeps its sample."""
    if bmode[b] == BUY_RULES:
        return choose_buy(p, rules[b], nrules[b], zones, pinfo, piles, ts)
    if bmode[b] == BUY_LEARNED:
        w, lp = weights[b], lparams[b]
        g = choose_buy(p, rules[b], nrules[b], zones, pinfo, piles, ts) if nrules[b] > 0 \
            else -2
        c = learned_buy(p, g, w, lp, zones, pinfo, piles, ts, brng, rec_idx)
        if lp[1] > 0.0 and rec_n[0] < rec_idx.shape[0]:
            r = rec_n[0]
            encode(p, c, g, zones, pinfo, piles, w, lp, rec_idx[r], True)
            rec_meta[r, 0] = rec_n[1]
            rec_meta[r, 1] = p
            rec_n[0] += 1
        return c
    return random_buy(p, zones, piles, ts, brng)


@njit(Int(Int, Int, Int, Int, F1, F3, I1, I1, Int, Z, PI, PI, TS), cache=True)
def _gain(q, b, cap, tag, dp, rules, nrules, opts, n, zones, pinfo, piles, ts):
    start = nrules[b]  # a gain list follows the buy rules after its marker row
    if start < rules.shape[1] - 1 and rules[b, start, 0] == GAIN_LIST:
        coins = ts[COINS]
        ts[COINS] = cap
        c = first_rule(q, rules[b], start + 1, start + 1 + int(rules[b, start, 1]),
                       tag == GAIN_TREASURE, zones, pinfo, piles, ts)
        ts[COINS] = coins
        if c >= 0:
            return c
    if tag == GAIN_TREASURE:  # Mine: the most expensive treasure that fits
        best = -1
        for i in range(n):
            c = opts[i] % NC
            if best < 0 or COST[c] > COST[best]:
                best = c
        return best
    if tag != GAIN_CAPPED and tag - 1 == GOLD:  # Remodel: a Gold into a Province by the rule
        g = dp[DP_REMODEL_GOLD_PROVINCES]
        if g > 0 and 0 < piles[0, PROVINCE] <= g:
            return PROVINCE
    return capped_choice(q, cap, rules[b], nrules[b], zones, pinfo, piles, ts)


@njit(Int(Int, Int, Int, F1, Z), cache=True)
def _sentry(q, a, b, dp, zones):
    """The code of Sentry's next step: trash or discard one looked-at card, or done."""
    money = treasure_money(q, zones)
    coppers = int(dp[DP_SENTRY_COPPERS])
    for c in (a, b):
        if c < 0:
            continue
        if c == CURSE or (c == ESTATE and dp[DP_SENTRY_TRASH_ESTATES] > 0) or (
                c == COPPER and coppers == 2 and money - 1 >= dp[DP_CHAPEL_MONEY_FLOOR]):
            return V_TRASH * NC + c
        if IS_JUNK[c] or (c == COPPER and coppers >= 1):
            return V_DISCARD * NC + c
    return DONE


@njit(cache=True, inline='always')  # compiled into each caller
def _choice(mach, opts, n, seats, rules, nrules, amode, bmode, fparams, weights, lparams,
            dparams, order, zones, pinfo, piles, ts, brng, rec_idx, rec_meta, rec_n):
    sp = mach[M_SP]
    if sp == 0:
        p = mach[M_ACTIVE]
        b = seats[p]
        if mach[M_PHASE] == PH_ACTION:
            c = _action(p, b, amode, fparams, dparams[b], order, zones, pinfo, piles, ts, brng)
            return END_ACTIONS if c < 0 else V_PLAY * NC + c
        if mach[M_PHASE] == PH_BUY:
            for c in range(NC):
                if IS_TREASURE[c] and zones[p, HAND, c] > 0:
                    return PLAY_TREASURES
        c = _buy(p, b, rules, nrules, bmode, weights, lparams, zones, pinfo, piles, ts, brng,
                 rec_idx, rec_meta, rec_n)
        return END_TURN if c < 0 else V_BUY * NC + c
    at = M_STACK + SW * (sp - 1)
    kind, q, a, x = mach[at], mach[at + 1], mach[at + 2], mach[at + 3]
    b = seats[q]
    dp = dparams[b]
    if kind == K_MOAT:
        return V_REVEAL * NC + MOAT
    if kind == K_GAIN:
        c = _gain(q, b, a, mach[at + 5], dp, rules, nrules, opts, n, zones, pinfo, piles, ts)
        return V_GAIN * NC + c
    if kind == K_ARTISAN:
        t = -1
        if ts[ACTIONS] == 0:
            for c in range(NC):
                if IS_ACTION[c] and zones[q, HAND, c] > 0 and (t < 0 or COST[c] > COST[t]):
                    t = c
        if t < 0:
            t = first_in_hand(q, JUNK_ORDER, zones)
        return V_TOPDECK * NC + t
    if kind == K_BUREAUCRAT:
        return V_TOPDECK * NC + first_in_hand(q, VICTORY_ORDER, zones)
    if kind == K_BANDIT:
        hit = -1
        for c in (a, x):
            if c >= 0 and IS_TREASURE[c] and c != COPPER and (hit < 0 or COST[c] < COST[hit]):
                hit = c
        return V_TRASH * NC + hit
    if kind == K_CELLAR:
        copper = dp[DP_CELLAR_COPPERS] > 0
        for c in range(NC):
            if zones[q, HAND, c] > 0 and (IS_JUNK[c] or (copper and c == COPPER)):
                return V_DISCARD * NC + c
        return DONE
    if kind == K_CHAPEL:
        if int(dp[DP_CHAPEL_MAX]) - a > 0:
            for c in (CURSE, ESTATE):
                if zones[q, HAND, c] > 0:
                    return V_TRASH * NC + c
            if zones[q, HAND, COPPER] > 0 and \
                    treasure_money(q, zones) - 1 >= dp[DP_CHAPEL_MONEY_FLOOR]:
                return V_TRASH * NC + COPPER
        return DONE
    if kind == K_HARBINGER:
        best = -1
        for c in range(NC):
            if zones[q, DISCARD, c] > 0 and not IS_JUNK[c] and \
                    COST[c] >= dp[DP_HARBINGER_MIN_COST]:
                if best < 0 or COST[c] > COST[best]:
                    best = c
        return DONE if best < 0 else V_TOPDECK * NC + best
    if kind == K_LIBRARY_KEEP:
        aside = dp[DP_LIBRARY_SET_ASIDE] > 0 and ts[ACTIONS] == 0
        return (V_SET_ASIDE if aside else V_KEEP) * NC + a
    if kind == K_MILITIA:
        return V_DISCARD * NC + junk_discard(q, int(dp[DP_VICTIM_ACTION_COST]), zones)
    if kind == K_POACHER:
        return V_DISCARD * NC + junk_discard(q, 0, zones)
    if kind == K_MINE:
        if zones[q, HAND, SILVER] > 0 and piles[0, GOLD] > 0:
            return V_TRASH * NC + SILVER
        if dp[DP_MINE_COPPER] > 0 and zones[q, HAND, COPPER] > 0 and piles[0, SILVER] > 0:
            return V_TRASH * NC + COPPER
        return DONE
    if kind == K_MONEYLENDER:
        if zones[q, OWNED, COPPER] > dp[DP_MONEYLENDER_COPPER_FLOOR]:
            return V_TRASH * NC + COPPER
        return DONE
    if kind == K_REMODEL:
        t = remodel_target(q, dp, zones, piles)
        return V_TRASH * NC + (t if t >= 0 else first_in_hand(q, JUNK_ORDER, zones))
    if kind == K_SENTRY:
        return _sentry(q, a, x, dp, zones)
    if kind == K_SENTRY_TOP:
        return V_TOPDECK * NC + a  # the first card looked at back on top
    if kind == K_STEWARD:
        return V_CHOOSE * NC + _steward(q, amode[b], zones, pinfo, ts, brng)
    if kind == K_STEWARD_TRASH:
        return V_TRASH * NC + first_in_hand(q, TRASH_ORDER, zones)
    if kind == K_THRONE:
        t = throne_target(q, dp, order[b], zones)
        return DONE if t < 0 else V_THRONE * NC + t
    if kind == K_VASSAL_PLAY:
        return (V_PLAY * NC + a) if dp[DP_VASSAL_PLAY] > 0 else DONE
    return opts[0]


@njit(CHOICE, cache=True)
def choose(mach, opts, n, seats, rules, nrules, amode, bmode, fparams, weights, lparams,
           dparams, order, zones, pinfo, piles, ts, brng, rec_idx, rec_meta, rec_n):
    """The option the deciding seat's bot takes among ``opts[:n]`` (``seats[q]``: the bot
    row of seat q; ``order``: play orders without cards absent from the game). A buy
    decision with only ``end-turn`` still asks the bot, as a random or exploring bot draws
    for it."""
    code = _choice(mach, opts, n, seats, rules, nrules, amode, bmode, fparams, weights,
                   lparams, dparams, order, zones, pinfo, piles, ts, brng, rec_idx, rec_meta,
                   rec_n)
    for i in range(n):
        if opts[i] == code:
            return code
    return opts[0]
