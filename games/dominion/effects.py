"""Effects of the base set's cards beyond their primitives, decided by a bot's parameters.

Each function applies one card's own effect after its primitives (+Cards, +Actions, +Buys,
+$, see ``engine.apply_primitives``) for player p, reading p's decision row ``dp`` (see
:mod:`games.dominion.decisions` for the rules and parameters). Attacks hit every other
player in turn order; a player with a Moat in hand reveals it and is not affected. Throne
Room and Vassal, which play other cards, are resolved by :mod:`games.dominion.actions`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.dominion.cards import (
    ARTISAN,
    BANDIT,
    BUREAUCRAT,
    CARDS,
    CELLAR,
    CHAPEL,
    COPPER,
    COST,
    COUNCIL_ROOM,
    CURSE,
    ESTATE,
    GOLD,
    HARBINGER,
    IS_ACTION,
    IS_TREASURE,
    LIBRARY,
    MERCHANT,
    MILITIA,
    MINE,
    MOAT,
    MONEYLENDER,
    NC,
    POACHER,
    PROVINCE,
    REMODEL,
    SENTRY,
    SILVER,
    WITCH,
    WORKSHOP,
)
from games.dominion.decisions import (
    DP_CELLAR_COPPERS,
    DP_CHAPEL_MAX,
    DP_CHAPEL_MONEY_FLOOR,
    DP_HARBINGER_MIN_COST,
    DP_LIBRARY_SET_ASIDE,
    DP_MINE_COPPER,
    DP_MONEYLENDER_COPPER_FLOOR,
    DP_REMODEL_ESTATES,
    DP_REMODEL_GOLD_PROVINCES,
    DP_SENTRY_COPPERS,
    DP_SENTRY_TRASH_ESTATES,
    DP_VICTIM_ACTION_COST,
    IS_JUNK,
    JUNK_COPPER_AT,
    JUNK_ORDER,
)
from games.dominion.engine import (
    ACTIONS,
    COINS,
    DISCARD,
    F1,
    F2,
    HAND,
    I1,
    MERCHANTS,
    OWNED,
    PI,
    TS,
    Bool,
    D,
    Int,
    R,
    Z,
    draw_cards,
    empty_piles,
    gain_to,
    gain_to_deck,
    hand_size,
    move,
    put_on_deck,
    take_top,
    trash,
    treasure_money,
    void,
)
from games.dominion.matcher import choose_buy

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


@njit(Int(Int, Int, Int, Z), cache=True)
def discard_junk(q, n, action_cost, zones):
    """q discards n cards from hand (all if fewer) in junk order; Action cards costing less
    than ``action_cost`` go right before Copper. Returns how many were discarded."""
    done = 0
    for i in range(NC):
        if i == JUNK_COPPER_AT and action_cost > 0:
            for j in range(NC):
                d = JUNK_ORDER[j]
                if IS_ACTION[d] and COST[d] < action_cost:
                    while done < n and zones[q, HAND, d] > 0:
                        move(q, d, HAND, DISCARD, zones)
                        done += 1
        c = JUNK_ORDER[i]
        while done < n and zones[q, HAND, c] > 0:
            move(q, c, HAND, DISCARD, zones)
            done += 1
    return done


@njit(Bool(Int, Z), cache=True)
def moat_blocks(q, zones):
    """q reveals a Moat from hand (always, when it has one): the attack misses q."""
    return zones[q, HAND, MOAT] > 0


# ----------------------------------------------------------------------------- attacks

@njit(void(Int, F2, I1, Z), cache=True)
def militia(p, dps, seats, zones):
    """Each other player discards down to 3 cards in hand (its own victim setting)."""
    players = zones.shape[0]
    for i in range(1, players):
        q = (p + i) % players
        if moat_blocks(q, zones):
            continue
        n = hand_size(q, zones)
        if n > 3:
            discard_junk(q, n - 3, int(dps[seats[q], DP_VICTIM_ACTION_COST]), zones)


@njit(void(Int, Z, PI), cache=True)
def witch(p, zones, piles):
    """Each other player, in turn order, gains a Curse while Curses last."""
    players = zones.shape[0]
    for i in range(1, players):
        q = (p + i) % players
        if not moat_blocks(q, zones) and piles[0, CURSE] > 0:
            gain_to(q, CURSE, DISCARD, zones, piles)


@njit(void(Int, Z, D, PI, PI, R), cache=True)
def bandit(p, zones, draw, pinfo, piles, rng):
    """Gain a Gold; each other player reveals its top two cards, trashes the cheapest
    revealed treasure that is not Copper and discards the rest."""
    if piles[0, GOLD] > 0:
        gain_to(p, GOLD, DISCARD, zones, piles)
    players = zones.shape[0]
    for i in range(1, players):
        q = (p + i) % players
        if moat_blocks(q, zones):
            continue
        a = take_top(q, zones, draw, pinfo, rng)
        b = take_top(q, zones, draw, pinfo, rng) if a >= 0 else -1
        hit = -1
        for c in (a, b):
            if c >= 0 and IS_TREASURE[c] and c != COPPER and (hit < 0 or COST[c] < COST[hit]):
                hit = c
        for c in (a, b):
            if c < 0:
                continue
            if c == hit:
                zones[q, OWNED, c] -= 1
                piles[1, c] += 1
                hit = -1
            else:
                zones[q, DISCARD, c] += 1


@njit(void(Int, Z, D, PI, PI), cache=True)
def bureaucrat(p, zones, draw, pinfo, piles):
    """Gain a Silver onto the deck; each other player puts its cheapest Victory card from
    hand onto its deck (a hand without one is shown and kept)."""
    if piles[0, SILVER] > 0:
        gain_to_deck(p, SILVER, zones, draw, pinfo, piles)
    players = zones.shape[0]
    for i in range(1, players):
        q = (p + i) % players
        if moat_blocks(q, zones):
            continue
        for j in range(VICTORY_ORDER.shape[0]):
            c = VICTORY_ORDER[j]
            if zones[q, HAND, c] > 0:
                zones[q, HAND, c] -= 1
                put_on_deck(q, c, draw, pinfo)
                break


@njit(void(Int, Z, D, PI, R), cache=True)
def council_room(p, zones, draw, pinfo, rng):
    """Each other player draws a card (not an attack)."""
    players = zones.shape[0]
    for i in range(1, players):
        draw_cards((p + i) % players, 1, zones, draw, pinfo, rng)


# ----------------------------------------------------------------------------- trashers

@njit(void(Int, F1, Z, PI), cache=True)
def chapel(p, dp, zones, piles):
    """Trash up to chapel_max: Curses, Estates, then Coppers while the treasure money owned
    stays at least chapel_money_floor."""
    left = int(dp[DP_CHAPEL_MAX])
    for c in (CURSE, ESTATE):
        while left > 0 and zones[p, HAND, c] > 0:
            trash(p, c, HAND, zones, piles)
            left -= 1
    money = treasure_money(p, zones)
    floor = dp[DP_CHAPEL_MONEY_FLOOR]
    while left > 0 and zones[p, HAND, COPPER] > 0 and money - 1 >= floor:
        trash(p, COPPER, HAND, zones, piles)
        money -= 1
        left -= 1


@njit(void(Int, F1, Z, PI, TS), cache=True)
def moneylender(p, dp, zones, piles, ts):
    """Trash a Copper from hand for +$3 while more Coppers than the floor are owned."""
    if zones[p, HAND, COPPER] > 0 and zones[p, OWNED, COPPER] > dp[DP_MONEYLENDER_COPPER_FLOOR]:
        trash(p, COPPER, HAND, zones, piles)
        ts[COINS] += 3


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


@njit(void(Int, F1, F2, Int, Z, PI, PI, TS), cache=True)
def remodel(p, dp, rules, nrule, zones, pinfo, piles, ts):
    """Trash the chosen card (else the first of the hand in junk order: the trash is not
    optional) and gain a card costing up to $2 more: a Province for a Gold by the rule,
    else by ``capped_choice``."""
    t = remodel_target(p, dp, zones, piles)
    to_province = t == GOLD
    if t < 0:
        for i in range(NC):
            if zones[p, HAND, JUNK_ORDER[i]] > 0:
                t = JUNK_ORDER[i]
                break
        if t < 0:
            return
    trash(p, t, HAND, zones, piles)
    g = PROVINCE if to_province else capped_choice(p, COST[t] + 2, rules, nrule, zones, pinfo,
                                                   piles, ts)
    if g >= 0:
        gain_to(p, g, DISCARD, zones, piles)


@njit(void(Int, F1, Z, PI), cache=True)
def mine(p, dp, zones, piles):
    """A Silver into a Gold, else (mine_copper) a Copper into a Silver, gained into hand."""
    if zones[p, HAND, SILVER] > 0 and piles[0, GOLD] > 0:
        trash(p, SILVER, HAND, zones, piles)
        gain_to(p, GOLD, HAND, zones, piles)
    elif dp[DP_MINE_COPPER] > 0 and zones[p, HAND, COPPER] > 0 and piles[0, SILVER] > 0:
        trash(p, COPPER, HAND, zones, piles)
        gain_to(p, SILVER, HAND, zones, piles)


# ----------------------------------------------------------------------------- gainers

@njit(void(Int, F2, Int, Z, PI, PI, TS), cache=True)
def workshop(p, rules, nrule, zones, pinfo, piles, ts):
    """Gain a card costing up to $4."""
    g = capped_choice(p, 4, rules, nrule, zones, pinfo, piles, ts)
    if g >= 0:
        gain_to(p, g, DISCARD, zones, piles)


@njit(void(Int, F2, Int, Z, D, PI, PI, TS), cache=True)
def artisan(p, rules, nrule, zones, draw, pinfo, piles, ts):
    """Gain a card costing up to $5 into hand, then top a card from hand: the most
    expensive Action when no action is left to play it, else the first in junk order."""
    g = capped_choice(p, 5, rules, nrule, zones, pinfo, piles, ts)
    if g >= 0:
        gain_to(p, g, HAND, zones, piles)
    t = -1
    if ts[ACTIONS] == 0:
        for c in range(NC):
            if IS_ACTION[c] and zones[p, HAND, c] > 0 and (t < 0 or COST[c] > COST[t]):
                t = c
    if t < 0:
        for i in range(NC):
            if zones[p, HAND, JUNK_ORDER[i]] > 0:
                t = JUNK_ORDER[i]
                break
    if t >= 0:
        zones[p, HAND, t] -= 1
        put_on_deck(p, t, draw, pinfo)


# ----------------------------------------------------------------------------- deck cards

@njit(void(Int, F1, Z, D, PI, TS, R), cache=True)
def library(p, dp, zones, draw, pinfo, ts, rng):
    """Draw until 7 cards in hand; with no action left (library_set_aside), Action cards
    drawn are set aside and discarded afterwards."""
    aside = dp[DP_LIBRARY_SET_ASIDE] > 0 and ts[ACTIONS] == 0
    held = np.zeros(NC if aside else 1, dtype=np.int64)
    n = hand_size(p, zones)
    while n < 7:
        c = take_top(p, zones, draw, pinfo, rng)
        if c < 0:
            break
        if aside and IS_ACTION[c]:
            held[c] += 1
        else:
            zones[p, HAND, c] += 1
            n += 1
    if aside:
        for c in range(NC):
            zones[p, DISCARD, c] += held[c]


@njit(void(Int, F1, Z, D, PI, PI, R), cache=True)
def sentry(p, dp, zones, draw, pinfo, piles, rng):
    """Look at the top two cards: trash Curses, Estates (sentry_trash_estates) and Coppers
    (sentry_coppers 2, down to chapel_money_floor); discard Coppers (sentry_coppers 1) and
    other Victory-only cards; put the rest back in their order."""
    a = take_top(p, zones, draw, pinfo, rng)
    b = take_top(p, zones, draw, pinfo, rng) if a >= 0 else -1
    money = treasure_money(p, zones)
    coppers = int(dp[DP_SENTRY_COPPERS])
    keep_a = False
    keep_b = False
    for k in range(2):
        c = a if k == 0 else b
        if c < 0:
            continue
        keep = False
        if c == CURSE or (c == ESTATE and dp[DP_SENTRY_TRASH_ESTATES] > 0) or (
                c == COPPER and coppers == 2 and money - 1 >= dp[DP_CHAPEL_MONEY_FLOOR]):
            zones[p, OWNED, c] -= 1
            piles[1, c] += 1
            money -= 1 if c == COPPER else 0
        elif IS_JUNK[c] or (c == COPPER and coppers >= 1):
            zones[p, DISCARD, c] += 1
        else:
            keep = True
        if k == 0:
            keep_a = keep
        else:
            keep_b = keep
    if keep_b:
        put_on_deck(p, b, draw, pinfo)
    if keep_a:
        put_on_deck(p, a, draw, pinfo)


@njit(void(Int, F1, Z, D, PI), cache=True)
def harbinger(p, dp, zones, draw, pinfo):
    """Top the most expensive card of the discard pile costing at least harbinger_min_cost
    that is not a Curse or Victory-only card."""
    best = -1
    for c in range(NC):
        if zones[p, DISCARD, c] > 0 and not IS_JUNK[c] and COST[c] >= dp[DP_HARBINGER_MIN_COST]:
            if best < 0 or COST[c] > COST[best]:
                best = c
    if best >= 0:
        zones[p, DISCARD, best] -= 1
        put_on_deck(p, best, draw, pinfo)


@njit(void(Int, F1, Z, D, PI, R), cache=True)
def cellar(p, dp, zones, draw, pinfo, rng):
    """Discard every Curse and Victory-only card in hand (and Coppers with cellar_coppers),
    then draw as many."""
    n = 0
    copper = dp[DP_CELLAR_COPPERS] > 0
    for c in range(NC):
        if IS_JUNK[c] or (copper and c == COPPER):
            n += zones[p, HAND, c]
            zones[p, DISCARD, c] += zones[p, HAND, c]
            zones[p, HAND, c] = 0
    if n > 0:
        draw_cards(p, n, zones, draw, pinfo, rng)


@njit(void(Int, Int, F1, F2, I1, F2, Int, Z, D, PI, PI, TS, R), cache=True)
def card_effect(p, c, dp, dps, seats, rules, nrule, zones, draw, pinfo, piles, ts, rng):
    """Apply card c's own effect (not its primitives) for player p. ``dps[seats[q]]`` is
    the decision row of the player in seat q (victims decide by their own rows)."""
    if c == WITCH:
        witch(p, zones, piles)
    elif c == MILITIA:
        militia(p, dps, seats, zones)
    elif c == MERCHANT:
        ts[MERCHANTS] += 1
    elif c == MONEYLENDER:
        moneylender(p, dp, zones, piles, ts)
    elif c == CHAPEL:
        chapel(p, dp, zones, piles)
    elif c == CELLAR:
        cellar(p, dp, zones, draw, pinfo, rng)
    elif c == COUNCIL_ROOM:
        council_room(p, zones, draw, pinfo, rng)
    elif c == LIBRARY:
        library(p, dp, zones, draw, pinfo, ts, rng)
    elif c == SENTRY:
        sentry(p, dp, zones, draw, pinfo, piles, rng)
    elif c == HARBINGER:
        harbinger(p, dp, zones, draw, pinfo)
    elif c == POACHER:
        k = empty_piles(piles)
        if k > 0:
            discard_junk(p, k, 0, zones)
    elif c == BANDIT:
        bandit(p, zones, draw, pinfo, piles, rng)
    elif c == BUREAUCRAT:
        bureaucrat(p, zones, draw, pinfo, piles)
    elif c == REMODEL:
        remodel(p, dp, rules, nrule, zones, pinfo, piles, ts)
    elif c == MINE:
        mine(p, dp, zones, piles)
    elif c == WORKSHOP:
        workshop(p, rules, nrule, zones, pinfo, piles, ts)
    elif c == ARTISAN:
        artisan(p, rules, nrule, zones, draw, pinfo, piles, ts)
