"""The Dominion engine: compact integer state and numba kernels for whole games.

State of one game (all small integer arrays, reused across games of a batch):

* ``zones[p, z, c]``: copies of card c that player p holds in zone z (DISCARD, HAND, PLAY)
  and in total (OWNED). The discard pile is kept as counts: it is shuffled before use, so
  its order never matters.
* ``draw[p, :dlen]``: the ordered draw pile (top = last), ``pinfo[p] = (dlen, turns)``;
  a wider ``pinfo`` (:data:`CH_WIDTH` columns) plays in chance mode, where every card drawn
  from the unseen part of a pile is an outcome given from outside (OpenSpiel's chance
  nodes, :mod:`games.dominion.dealer`): ``pinfo[p, CH_UNSEEN]`` cards at the bottom of p's
  pile are unseen, and row 0 holds the forced outcomes and what the next draw needs.
* ``piles[0]``: supply counts (-1 for piles not in the game); ``piles[1]``: the trash.
* ``rng[0]``: a SplitMix64 counter; every random choice of a game comes from it, seeded with
  the game's seed from ``games.core.game_seeds``.

Bots are data (see ``games.dominion._bots``): a table of buy rules (card, copy limit and up to
three conditions), an action mode, decision parameters and a play order
(``games.dominion._decisions``). The static action player plays by the play order (by default
villages first, then other non-terminals, then terminals, draw before money). Mode 1 scores each
playable card with seed 001's heuristic; mode 2 plays randomly (for robustness tests);
mode 3 never plays an action (to test what dead action cards cost).

This module holds the state and its primitives (draw, gain, reveal, discard, trash, scores);
the rules of turns and cards are the step machine of :mod:`games.dominion._rules`, the bots'
choices :mod:`games.dominion._policy` (with the action player's in
:mod:`games.dominion._actions` and the buy rules in :mod:`games.dominion._matcher`). ``ts``
(the turn state) holds actions, buys, coins and the Merchants played this turn.

Just over 400 lines on purpose: the state's primitives, including chance mode's draws, are
the one layer every kernel above calls; split, the draw pile's rules would sit in two places.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.types import Tuple, void  # noqa: F401  (re-exported for kernel signatures)

from games.dominion._cache import invalidate_stale_cache
from games.dominion._cards import (
    COIN,
    COPPER,
    COST,
    CURSE,
    ESTATE,
    GARDENS,
    IS_TREASURE,
    NC,
    PROVINCE,
    VP,
)
from games.dominion._layout import (  # noqa: F401  (re-exported: the kernels' tables)
    ACT_NONE,
    ACT_RANDOM,
    ACT_SCORED,
    ACT_STATIC,
    ACTIONS,
    BUY_LEARNED,
    BUY_RANDOM,
    BUY_RULES,
    BUYS,
    COINS,
    DISCARD,
    DLEN,
    END_PROVINCES,
    END_STANDARD,
    HAND,
    LP_END_RULE,
    LP_ENDGAME,
    LP_EPS,
    LP_EXPLORE,
    LP_LAYOUT,
    LP_MARGIN,
    LP_RECORD,
    LP_SLOTS,
    LP_TIEBREAK,
    MAX_COND,
    MERCHANTS,
    NLP,
    NTS,
    OP_EQ,
    OP_GE,
    OP_GT,
    OP_LE,
    OP_LT,
    OWNED,
    PLAY,
    RULE_WIDTH,
    ST_COINS,
    ST_DRAW,
    ST_TRASH,
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
)
from games.rng import next_u64, to_unit

invalidate_stale_cache()  # before any kernel below is compiled or loaded

# Chance mode's columns of pinfo (row 0 holds the shared ones): unseen cards of p's pile;
# 1 + the player whose draw needs another outcome (-1 - p: an outcome not in the pile);
# forced outcomes given and taken; the pool of the draw that needs one; the outcomes.
CH_UNSEEN, CH_NEED, CH_QLEN, CH_QPOS = 2, 3, 4, 5
CH_POOL = 6
CH_Q = CH_POOL + NC
CH_WIDTH = CH_Q + 512


# Explicit numba signatures: one compiled version per function (no literal-argument
# specialisations), which keeps a cold-cache compile short. Arrays are C-contiguous.
Int, Flt, Bool, u8 = types.int64, types.float64, types.boolean, types.uint64
Z = types.int64[:, :, ::1]      # zones[p, zone, card]
D = types.int8[:, ::1]          # draw[p, i]
PI = types.int64[:, ::1]        # pinfo[p, k], piles[row, card], per-game int tables
TS = types.int64[::1]           # turn state
R = types.uint64[::1]           # rng state
I1, F2, F3 = types.int64[::1], types.float64[:, ::1], types.float64[:, :, ::1]
F1 = types.float64[::1]         # a bot's decision parameters, dparams[b]
O1, O2, U1, B1 = types.int8[::1], types.int8[:, ::1], types.uint64[::1], types.boolean[::1]

# Preference order for trashing: Curse, Estate, Copper, then everything else by cost.
TRASH_ORDER = np.array([CURSE, ESTATE, COPPER] + sorted(
    (i for i in range(NC) if i not in (CURSE, ESTATE, COPPER)), key=lambda i: (COST[i], i)),
    dtype=np.int64)


# ----------------------------------------------------------------------------- randomness

@njit(u8(R), cache=True)
def rng_next(rng):
    """Next 64-bit output of the SplitMix64 stream held in ``rng[0]``."""
    return next_u64(rng)


@njit(Int(R, Int), cache=True)
def rng_below(rng, n):
    """A uniform integer in [0, n) (53-bit float method; bias below 2**-40)."""
    return int(to_unit(rng_next(rng)) * n)


# ----------------------------------------------------------------------------- deck handling

@njit(void(Int, D, PI), cache=True)
def chance_draw(p, draw, pinfo):
    """A draw from the unseen part of p's pile in chance mode: the next forced outcome is
    put on top (:data:`CH_NEED` says which player needed one more, -1 - p an outcome not
    in the pile; the pool it was drawn from is kept in row 0 for the caller)."""
    n = pinfo[p, DLEN]
    k = pinfo[0, CH_QPOS]
    if k < pinfo[0, CH_QLEN]:
        card = pinfo[0, CH_Q + k]
        pinfo[0, CH_QPOS] = k + 1
        at = -1
        for i in range(n - 1, -1, -1):
            if draw[p, i] == card:
                at = i
                break
        if at < 0:
            pinfo[0, CH_NEED] = -1 - p
        else:
            draw[p, at] = draw[p, n - 1]
            draw[p, n - 1] = card
    elif pinfo[0, CH_NEED] == 0:
        pinfo[0, CH_NEED] = 1 + p
        for c in range(NC):
            pinfo[0, CH_POOL + c] = 0
        for i in range(n):
            pinfo[0, CH_POOL + draw[p, i]] += 1
    pinfo[p, CH_UNSEEN] -= 1


@njit(void(Int, Z, D, PI, R), cache=True)
def shuffle_discard(p, zones, draw, pinfo, rng):
    """Move player p's discard pile under (into) the empty draw pile, shuffled (in chance
    mode, in card order and unseen: each draw from it is a chance outcome)."""
    n = pinfo[p, DLEN]
    for c in range(NC):
        k = zones[p, DISCARD, c]
        for _ in range(k):
            draw[p, n] = c
            n += 1
        zones[p, DISCARD, c] = 0
    if pinfo.shape[1] > CH_UNSEEN:
        pinfo[p, CH_UNSEEN] = n
        pinfo[p, DLEN] = n
        return
    start = pinfo[p, DLEN]
    for i in range(n - 1, start, -1):
        j = start + rng_below(rng, i - start + 1)
        t = draw[p, i]
        draw[p, i] = draw[p, j]
        draw[p, j] = t
    pinfo[p, DLEN] = n


@njit(Int(Int, Int, Z, D, PI, R), cache=True)
def draw_cards(p, n, zones, draw, pinfo, rng):
    """Draw up to n cards into the hand, shuffling the discard pile when the deck runs out.
    Returns how many were drawn (fewer when deck and discard are both exhausted)."""
    drawn = 0
    for _ in range(n):
        if pinfo[p, DLEN] == 0:
            shuffle_discard(p, zones, draw, pinfo, rng)
            if pinfo[p, DLEN] == 0:
                break
        if pinfo.shape[1] > CH_UNSEEN and pinfo[p, DLEN] <= pinfo[p, CH_UNSEEN]:
            chance_draw(p, draw, pinfo)
        pinfo[p, DLEN] -= 1
        c = draw[p, pinfo[p, DLEN]]
        zones[p, HAND, c] += 1
        drawn += 1
    return drawn


@njit(void(Int, Int, Z, PI), cache=True)
def gain(p, c, zones, piles):
    """Gain one card c from the supply to the discard pile."""
    piles[0, c] -= 1
    zones[p, DISCARD, c] += 1
    zones[p, OWNED, c] += 1


@njit(void(Int, Int, Int, Z, PI), cache=True)
def gain_to(p, c, zone, zones, piles):
    """Gain one card c from the supply to ``zone`` (DISCARD or HAND)."""
    piles[0, c] -= 1
    zones[p, zone, c] += 1
    zones[p, OWNED, c] += 1


@njit(void(Int, Int, D, PI), cache=True)
def put_on_deck(p, c, draw, pinfo):
    """Put card c (already out of every zone) on top of p's draw pile."""
    draw[p, pinfo[p, DLEN]] = c
    pinfo[p, DLEN] += 1


@njit(void(Int, Int, Z, D, PI, PI), cache=True)
def gain_to_deck(p, c, zones, draw, pinfo, piles):
    """Gain one card c from the supply onto p's draw pile."""
    piles[0, c] -= 1
    zones[p, OWNED, c] += 1
    put_on_deck(p, c, draw, pinfo)


@njit(Int(Int, Z, D, PI, R), cache=True)
def take_top(p, zones, draw, pinfo, rng):
    """Take the top card of p's draw pile (shuffling the discard pile in when the deck is
    empty) into no zone; returns it, or -1 when deck and discard are both empty."""
    if pinfo[p, DLEN] == 0:
        shuffle_discard(p, zones, draw, pinfo, rng)
        if pinfo[p, DLEN] == 0:
            return -1
    if pinfo.shape[1] > CH_UNSEEN and pinfo[p, DLEN] <= pinfo[p, CH_UNSEEN]:
        chance_draw(p, draw, pinfo)
    pinfo[p, DLEN] -= 1
    return int(draw[p, pinfo[p, DLEN]])


@njit(void(Int, Int, Int, Int, Z), cache=True)
def move(p, c, zone_from, zone_to, zones):
    """Move one copy of card c between two of p's zones."""
    zones[p, zone_from, c] -= 1
    zones[p, zone_to, c] += 1


@njit(void(Int, Int, Int, Z, PI), cache=True)
def trash(p, c, zone, zones, piles):
    """Trash one copy of card c from p's ``zone``."""
    zones[p, zone, c] -= 1
    zones[p, OWNED, c] -= 1
    piles[1, c] += 1


@njit(Int(Int, Z), cache=True)
def hand_size(p, zones):
    n = 0
    for c in range(NC):
        n += zones[p, HAND, c]
    return n


@njit(Int(Int, Z), cache=True)
def treasure_money(p, zones):
    """Coins of all the treasures p owns."""
    s = 0
    for c in range(NC):
        s += zones[p, OWNED, c] * COIN[c]
    return s


@njit(void(Int, Int, Z, D, PI, R), cache=True)
def cleanup(p, hand, zones, draw, pinfo, rng):
    """Discard hand and play area, then draw a new hand of ``hand`` cards (five, printed)."""
    for c in range(NC):
        zones[p, DISCARD, c] += zones[p, HAND, c] + zones[p, PLAY, c]
        zones[p, HAND, c] = 0
        zones[p, PLAY, c] = 0
    draw_cards(p, hand, zones, draw, pinfo, rng)


# ----------------------------------------------------------------------------- measurements

@njit(Int(Int, Z), cache=True)
def victory_points(p, zones):
    """p's VP: the cards' printed points, Curses' -1 and Gardens' 1 per whole 10 cards."""
    s = 0
    for c in range(NC):
        s += zones[p, OWNED, c] * VP[c]
    if zones[p, OWNED, GARDENS] > 0:
        total = 0
        for c in range(NC):
            total += zones[p, OWNED, c]
        s += zones[p, OWNED, GARDENS] * (total // 10)
    return s


@njit(Int(Int, Z), cache=True)
def hand_money(p, zones):
    s = 0
    for c in range(NC):
        s += zones[p, HAND, c] * COIN[c]
    return s


@njit(Int(PI), cache=True)
def empty_piles(piles):
    k = 0
    for c in range(NC):
        if piles[0, c] == 0:
            k += 1
    return k


@njit(Int(PI), cache=True)
def gains_to_end(piles):
    """Provinces left, or the cards left in the three smallest supply piles if fewer."""
    a = b = c3 = 1 << 30
    for c in range(NC):
        v = piles[0, c]
        if v < 0:
            continue
        if v < a:
            c3 = b
            b = a
            a = v
        elif v < b:
            c3 = b
            b = v
        elif v < c3:
            c3 = v
    three = a + b + c3
    prov = piles[0, PROVINCE]
    return prov if prov < three else three


@njit(Bool(PI, Int), cache=True)
def game_over(piles, end_rule):
    if piles[0, PROVINCE] == 0:
        return True
    return end_rule == END_STANDARD and empty_piles(piles) >= 3


# ----------------------------------------------------------------------------- action phase

@njit(Int(Int, Z, PI, TS), cache=True)
def steward_choice(p, zones, pinfo, ts):
    """Shared Steward rule (the blog's, seed 004): trash two Estates/Coppers when that keeps
    at least five treasures; else +$2 when the hand is worth $6-7; else +2 Cards when the
    deck and discard hold two cards; else +$2."""
    estates = zones[p, HAND, ESTATE] + zones[p, HAND, CURSE]
    coppers = zones[p, HAND, COPPER]
    treasures = 0
    for c in range(NC):
        if IS_TREASURE[c]:
            treasures += zones[p, OWNED, c] - zones[p, PLAY, c]
    if treasures - min(coppers, 2) < 5:
        coppers = max(0, min(coppers, treasures - 5))
    if estates + coppers >= 2:
        return ST_TRASH
    money = hand_money(p, zones) + ts[COINS]
    if 6 <= money <= 7:
        return ST_COINS
    rest = pinfo[p, DLEN]
    for c in range(NC):
        rest += zones[p, DISCARD, c]
    if rest >= 2:
        return ST_DRAW
    return ST_COINS


