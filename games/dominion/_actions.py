"""The action player's choices: which action card a bot plays next, what Throne Room doubles,
whether a card is worth playing, and Steward's choice (the policy of
:mod:`games.dominion._policy` asks them; the rules that play the cards are
:mod:`games.dominion._rules`').

Action modes (``engine.ACT_*``): static plays the first card of the bot's play order
``po`` that is in hand and worth playing (Throne Room needs another action in hand, Remodel
a card it would remodel: see :mod:`games.dominion._decisions`); scored uses seed 001's
one-ply heuristic; random plays a random action card (stopping with chance 1/8); none plays
nothing.
"""

from __future__ import annotations

from numba import njit

from games.dominion._cards import (
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
)
from games.dominion._decisions import (
    DP_THRONE_TARGET,
    default_decisions,
    default_play_order,
)
from games.dominion._effects import remodel_target
from games.dominion._engine import (
    ACT_RANDOM,
    ACTIONS,
    BUYS,
    COINS,
    F1,
    HAND,
    I1,
    OWNED,
    PI,
    PLAY,
    TS,
    Bool,
    Flt,
    Int,
    R,
    Z,
    hand_money,
    rng_below,
    steward_choice,
)

DEFAULT_DPARAMS = default_decisions()
DEFAULT_PORDER = default_play_order()


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
