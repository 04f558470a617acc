"""Dominion's rules as a step machine in numba: every card of the base set and the sources,
every decision of a game as a step with options, written once from the printed text (2nd
edition; the sources' Steward and simple cards).

The machine (layout in :mod:`games.dominion._steps`) holds a game between two decisions:
:func:`settle` runs the automatic steps and takes every decision with a single option, and
stops at the next decision with two or more (or at the end of the game); :func:`options`
lists that decision's options and :func:`apply` carries out the one chosen. Who chooses is
not the machine's business: the turn-level State asks a player, a whole game in
:mod:`games.dominion._play` asks each seat's bot (:mod:`games.dominion._policy`).

A turn: action phase (1 Action), buy phase (treasures one at a time or all at once, then
buys: no treasure after the first buy), clean-up (hand and play to the discard pile, draw
5). Attacks first ask each other player holding a Moat, in turn order, whether to reveal it;
Throne Room resolves its target twice, each a fresh play. Choices from hand are one card at
a time (Chapel trashes one card per decision until ``done`` or four; a Militia victim
discards one card per decision down to 3), and identical cards are one option. The game
ends after a turn in which the Provinces ran out or (standard end rule) three supply piles
are empty; a solo game with a target ends once the player owns that many Provinces; after
``cap`` rounds a game stops, flagged capped.

Longer than 400 lines on purpose: the steps of every card, their options and what each
option does are one dispatch over one stack, and splitting them would split each card's text
across files.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.dominion._cards import (
    ARTISAN,
    BANDIT,
    BUREAUCRAT,
    CARDS,
    CELLAR,
    CHAPEL,
    COIN,
    COPPER,
    COST,
    COUNCIL_ROOM,
    CURSE,
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
    PLUS_ACTIONS,
    PLUS_BUYS,
    PLUS_CARDS,
    PLUS_COINS,
    POACHER,
    PROVINCE,
    REMODEL,
    SENTRY,
    SILVER,
    STEWARD,
    THRONE_ROOM,
    VASSAL,
    WITCH,
    WORKSHOP,
)
from games.dominion._engine import (  # noqa: I001
    ACTIONS,
    BUYS,
    COINS,
    DISCARD,
    HAND,
    I1,
    MERCHANTS,
    OWNED,
    PI,
    PLAY,
    TS,
    TURNS,
    D,
    Int,
    R,
    Z,
    cleanup,
    draw_cards,
    empty_piles,
    gain_to,
    gain_to_deck,
    game_over,
    hand_size,
    put_on_deck,
    take_top,
    u8,
    void,
)
from games.dominion._kernel import setup_game
from games.dominion._steps import (
    DONE,
    END_ACTIONS,
    END_TURN,
    FIRST_DECISION,
    GAIN_CAPPED,
    GAIN_TREASURE,
    K_ARTISAN,
    K_BANDIT,
    K_BANDIT_REVEAL,
    K_BODY,
    K_BUREAUCRAT,
    K_CELLAR,
    K_CHAPEL,
    K_GAIN,
    K_HARBINGER,
    K_LIBRARY,
    K_LIBRARY_KEEP,
    K_MILITIA,
    K_MINE,
    K_MOAT,
    K_MONEYLENDER,
    K_POACHER,
    K_REMODEL,
    K_RESOLVE,
    K_SENTRY,
    K_SENTRY_LOOK,
    K_SENTRY_ORDER,
    K_SENTRY_TOP,
    K_STEWARD,
    K_STEWARD_TRASH,
    K_THRONE,
    K_VASSAL,
    K_VASSAL_PLAY,
    M_ACTIVE,
    M_ASIDE,
    M_CAP,
    M_CAPPED,
    M_END_RULE,
    M_HAND,
    M_IMMUNE,
    M_OVER,
    M_PHASE,
    M_SILVER,
    M_SIZE,
    M_SOLO,
    M_SP,
    M_STACK,
    M_TIEBREAK,
    PH_ACTION,
    PH_BOUGHT,
    PH_BUY,
    PLAY_TREASURES,
    STACK_ROWS,
    SW,
    TO_DECK,
    TO_DISCARD,
    TO_HAND,
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

IS_ATTACK = np.array([c.attack for c in CARDS], dtype=np.bool_)
IS_VICTORY = np.array([c.victory for c in CARDS], dtype=np.bool_)


# ----------------------------------------------------------------------------- the stack

@njit(void(I1, Int, Int, Int, Int, Int, Int), cache=True)
def push(mach, kind, p, a, b, c, d):
    """Put one step on top of the stack (it runs before everything below it)."""
    sp = mach[M_SP]
    if sp >= STACK_ROWS:
        raise RuntimeError("dominion rules: step stack overflow")
    at = M_STACK + SW * sp
    mach[at] = kind
    mach[at + 1] = p
    mach[at + 2] = a
    mach[at + 3] = b
    mach[at + 4] = c
    mach[at + 5] = d
    mach[M_SP] = sp + 1


@njit(cache=True, inline='always')  # compiled into each caller
def top(mach):
    """Where the top step's row starts, -1 when the stack is empty."""
    sp = mach[M_SP]
    return M_STACK + SW * (sp - 1) if sp > 0 else -1


@njit(void(I1, Int, Int, Int), cache=True)
def push_victims(mach, kind, p, players):
    """One ``kind`` step for each player p's attack hits, to run in turn order."""
    for i in range(players - 1, 0, -1):
        q = (p + i) % players
        if not (mach[M_IMMUNE] >> q) & 1:
            push(mach, kind, q, 0, 0, 0, 0)


# ----------------------------------------------------------------------------- set-up, turns

@njit(cache=True, inline='always')  # compiled into each caller
def start_turn(mach, ts):
    mach[M_PHASE] = PH_ACTION
    mach[M_SILVER] = 0
    ts[ACTIONS] = 1
    ts[BUYS] = 1
    ts[COINS] = 0
    ts[MERCHANTS] = 0


@njit(void(u8, I1, Int, Int, Int, Int, Int, I1, Z, D, PI, PI, TS, R), cache=True)
def new_game(seed, supply0, end_rule, cap, solo, tiebreak, hand, mach, zones, draw, pinfo, piles,
             ts, rng):
    """A fresh game in the work arrays: supply, starting decks dealt as the engine deals
    them (same seed, same game), the first player's turn begun."""
    setup_game(seed, supply0, hand, zones, draw, pinfo, piles, rng)
    for i in range(M_SIZE):
        mach[i] = 0
    mach[M_END_RULE] = end_rule
    mach[M_CAP] = cap
    mach[M_SOLO] = solo
    mach[M_TIEBREAK] = tiebreak
    mach[M_HAND] = hand
    start_turn(mach, ts)


@njit(cache=True, inline='always')  # compiled into each caller
def end_turn(mach, zones, draw, pinfo, piles, ts, rng):
    """Clean-up, then the end of the game or the next player's turn."""
    p = mach[M_ACTIVE]
    players = zones.shape[0]
    cleanup(p, mach[M_HAND], zones, draw, pinfo, rng)
    pinfo[p, TURNS] += 1
    if mach[M_SOLO] > 0 and zones[p, OWNED, PROVINCE] >= mach[M_SOLO]:
        mach[M_OVER] = 1
    elif game_over(piles, mach[M_END_RULE]):
        mach[M_OVER] = 1
    elif p == players - 1 and pinfo[p, TURNS] >= mach[M_CAP]:
        mach[M_OVER] = 1
        mach[M_CAPPED] = 1
    else:
        mach[M_ACTIVE] = (p + 1) % players
        start_turn(mach, ts)


@njit(void(Int, Int, Int, I1, Z, TS), cache=True)
def play_treasure(p, c, k, mach, zones, ts):
    """k copies of treasure c from hand into play: their coins, and the first Silver's +$1
    per Merchant played."""
    zones[p, HAND, c] -= k
    zones[p, PLAY, c] += k
    ts[COINS] += k * COIN[c]
    if c == SILVER and mach[M_SILVER] == 0:
        mach[M_SILVER] = 1
        ts[COINS] += ts[MERCHANTS]


# ----------------------------------------------------------------------------- options

#: which cards of a hand a choice offers (``_from_hand``'s ``only``)
ANY, TREASURES, VICTORIES, ACTIONS_ONLY = 0, 1, 2, 3


@njit(Int(Int, Int, Z, I1, Int), cache=True)
def _from_hand(verb, q, zones, opts, only):
    """One option per different card of q's hand that ``only`` admits (card order)."""
    n = 0
    for c in range(NC):
        if zones[q, HAND, c] > 0 and (only == ANY or (only == TREASURES and IS_TREASURE[c])
                                      or (only == VICTORIES and IS_VICTORY[c])
                                      or (only == ACTIONS_ONLY and IS_ACTION[c])):
            opts[n] = verb * NC + c
            n += 1
    return n


@njit(Int(I1, Int), cache=True)
def _or_done(opts, n):
    """``done`` after the ``n`` options of a choice the card lets its player decline (none
    when there is nothing to choose)."""
    if n > 0:
        opts[n] = DONE
        n += 1
    return n


@njit(Int(I1, Z, PI, TS, I1), cache=True)
def _phase_options(mach, zones, piles, ts, opts):
    p = mach[M_ACTIVE]
    n = 0
    if mach[M_PHASE] == PH_ACTION:
        if ts[ACTIONS] > 0:
            for c in range(NC):
                if IS_ACTION[c] and zones[p, HAND, c] > 0:
                    opts[n] = V_PLAY * NC + c
                    n += 1
        opts[n] = END_ACTIONS
        return n + 1
    if mach[M_PHASE] == PH_BUY:
        n = _from_hand(V_PLAY, p, zones, opts, TREASURES)
        if n > 0:
            opts[n] = PLAY_TREASURES
            n += 1
    if ts[BUYS] > 0:
        for c in range(NC):
            if piles[0, c] > 0 and COST[c] <= ts[COINS]:
                opts[n] = V_BUY * NC + c
                n += 1
    opts[n] = END_TURN
    return n + 1


@njit(Int(I1, Z, PI, TS, I1), cache=True)
def options(mach, zones, piles, ts, opts):
    """Write the options of the next decision into ``opts``; returns how many (0: a step
    that offers nothing, and is passed over)."""
    at = top(mach)
    if at < 0:
        return _phase_options(mach, zones, piles, ts, opts)
    kind, q, a, b = mach[at], mach[at + 1], mach[at + 2], mach[at + 3]
    n = 0
    if kind == K_MOAT:
        if zones[q, HAND, MOAT] > 0:
            opts[0] = V_REVEAL * NC + MOAT
            opts[1] = DONE
            n = 2
    elif kind == K_GAIN:
        treasure = mach[at + 4] != 0
        for c in range(NC):
            if piles[0, c] > 0 and COST[c] <= a and (IS_TREASURE[c] or not treasure):
                opts[n] = V_GAIN * NC + c
                n += 1
    elif kind == K_ARTISAN or kind == K_REMODEL:
        n = _from_hand(V_TOPDECK if kind == K_ARTISAN else V_TRASH, q, zones, opts, ANY)
    elif kind == K_BUREAUCRAT:
        n = _from_hand(V_TOPDECK, q, zones, opts, VICTORIES)
    elif kind == K_BANDIT:
        for c in range(NC):
            if (c == a or c == b) and IS_TREASURE[c] and c != COPPER:
                opts[n] = V_TRASH * NC + c
                n += 1
    elif kind == K_CELLAR or (kind == K_CHAPEL and a < 4):
        n = _from_hand(V_DISCARD if kind == K_CELLAR else V_TRASH, q, zones, opts, ANY)
        opts[n] = DONE  # offered even with an empty hand: Cellar then draws what it discarded
        n += 1
    elif kind == K_HARBINGER:
        for c in range(NC):
            if zones[q, DISCARD, c] > 0:
                opts[n] = V_TOPDECK * NC + c
                n += 1
        n = _or_done(opts, n)
    elif kind == K_LIBRARY_KEEP:
        opts[0] = V_SET_ASIDE * NC + a
        opts[1] = V_KEEP * NC + a
        n = 2
    elif kind == K_MILITIA:
        if hand_size(q, zones) > 3:
            n = _from_hand(V_DISCARD, q, zones, opts, ANY)
    elif kind == K_MINE:
        n = _or_done(opts, _from_hand(V_TRASH, q, zones, opts, TREASURES))
    elif kind == K_MONEYLENDER:
        if zones[q, HAND, COPPER] > 0:
            opts[0] = V_TRASH * NC + COPPER
            opts[1] = DONE
            n = 2
    elif kind == K_POACHER or kind == K_STEWARD_TRASH:
        if a > 0:
            n = _from_hand(V_DISCARD if kind == K_POACHER else V_TRASH, q, zones, opts, ANY)
    elif kind == K_SENTRY:
        for verb in (V_TRASH, V_DISCARD):
            for c in range(NC):
                if c == a or c == b:
                    opts[n] = verb * NC + c
                    n += 1
        n = _or_done(opts, n)
    elif kind == K_SENTRY_TOP:
        for c in range(NC):
            if c == a or c == b:
                opts[n] = V_TOPDECK * NC + c
                n += 1
    elif kind == K_STEWARD:
        for i in range(3):
            opts[i] = V_CHOOSE * NC + i
        n = 3
    elif kind == K_THRONE:
        n = _or_done(opts, _from_hand(V_THRONE, q, zones, opts, ACTIONS_ONLY))
    elif kind == K_VASSAL_PLAY:
        opts[0] = V_PLAY * NC + a
        opts[1] = DONE
        n = 2
    return n


# ----------------------------------------------------------------------------- automatic steps

@njit(void(Int, Int, I1, Z, D, PI, PI, TS, R), cache=True)
def _body(p, c, mach, zones, draw, pinfo, piles, ts, rng):
    """A played card's +Cards, +Actions, +Buys and +$, then what its text adds."""
    players = zones.shape[0]
    if PLUS_CARDS[c] > 0:
        draw_cards(p, PLUS_CARDS[c], zones, draw, pinfo, rng)
    ts[ACTIONS] += PLUS_ACTIONS[c]
    ts[BUYS] += PLUS_BUYS[c]
    ts[COINS] += PLUS_COINS[c]
    if c == ARTISAN:
        push(mach, K_ARTISAN, p, 0, 0, 0, 0)
        push(mach, K_GAIN, p, 5, TO_HAND, 0, GAIN_CAPPED)
    elif c == BANDIT:
        if piles[0, GOLD] > 0:
            gain_to(p, GOLD, DISCARD, zones, piles)
        push_victims(mach, K_BANDIT_REVEAL, p, players)
    elif c == BUREAUCRAT:
        if piles[0, SILVER] > 0:
            gain_to_deck(p, SILVER, zones, draw, pinfo, piles)
        push_victims(mach, K_BUREAUCRAT, p, players)
    elif c == CELLAR:
        push(mach, K_CELLAR, p, 0, 0, 0, 0)
    elif c == CHAPEL:
        push(mach, K_CHAPEL, p, 0, 0, 0, 0)
    elif c == COUNCIL_ROOM:
        for i in range(1, players):
            draw_cards((p + i) % players, 1, zones, draw, pinfo, rng)
    elif c == HARBINGER:
        push(mach, K_HARBINGER, p, 0, 0, 0, 0)
    elif c == LIBRARY:
        push(mach, K_LIBRARY, p, 0, 0, 0, 0)
    elif c == MERCHANT:
        ts[MERCHANTS] += 1
    elif c == MILITIA:
        push_victims(mach, K_MILITIA, p, players)
    elif c == MINE:
        push(mach, K_MINE, p, 0, 0, 0, 0)
    elif c == MONEYLENDER:
        push(mach, K_MONEYLENDER, p, 0, 0, 0, 0)
    elif c == POACHER:
        push(mach, K_POACHER, p, empty_piles(piles), 0, 0, 0)
    elif c == REMODEL:
        push(mach, K_REMODEL, p, 0, 0, 0, 0)
    elif c == SENTRY:
        push(mach, K_SENTRY_LOOK, p, 0, 0, 0, 0)
    elif c == STEWARD:
        push(mach, K_STEWARD, p, 0, 0, 0, 0)
    elif c == THRONE_ROOM:
        push(mach, K_THRONE, p, 0, 0, 0, 0)
    elif c == VASSAL:
        push(mach, K_VASSAL, p, 0, 0, 0, 0)
    elif c == WITCH:
        for i in range(1, players):
            q = (p + i) % players
            if not (mach[M_IMMUNE] >> q) & 1 and piles[0, CURSE] > 0:
                gain_to(q, CURSE, DISCARD, zones, piles)
    elif c == WORKSHOP:
        push(mach, K_GAIN, p, 4, TO_DISCARD, 0, GAIN_CAPPED)


@njit(void(I1, Z, D, PI, PI, TS, R), cache=True)
def run_auto(mach, zones, draw, pinfo, piles, ts, rng):
    """Pop the automatic step on top of the stack and run it."""
    at = top(mach)
    kind, p, a, b = mach[at], mach[at + 1], mach[at + 2], mach[at + 3]
    mach[M_SP] -= 1
    players = zones.shape[0]
    if kind == K_RESOLVE:
        if IS_ATTACK[a]:
            mach[M_IMMUNE] = 0
            push(mach, K_BODY, p, a, 0, 0, 0)
            for i in range(players - 1, 0, -1):
                q = (p + i) % players
                if zones[q, HAND, MOAT] > 0:
                    push(mach, K_MOAT, q, 0, 0, 0, 0)
        else:
            _body(p, a, mach, zones, draw, pinfo, piles, ts, rng)
    elif kind == K_BODY:
        _body(p, a, mach, zones, draw, pinfo, piles, ts, rng)
    elif kind == K_BANDIT_REVEAL:
        x = take_top(p, zones, draw, pinfo, rng)
        y = take_top(p, zones, draw, pinfo, rng)
        if (x >= 0 and IS_TREASURE[x] and x != COPPER) or (
                y >= 0 and IS_TREASURE[y] and y != COPPER):
            push(mach, K_BANDIT, p, x, y, 0, 0)
        else:
            for c in (x, y):
                if c >= 0:
                    zones[p, DISCARD, c] += 1
    elif kind == K_LIBRARY:
        while hand_size(p, zones) < 7:
            c = take_top(p, zones, draw, pinfo, rng)
            if c < 0:
                break
            if IS_ACTION[c]:
                push(mach, K_LIBRARY, p, 0, 0, 0, 0)
                push(mach, K_LIBRARY_KEEP, p, c, 0, 0, 0)
                return
            zones[p, HAND, c] += 1
        for c in range(NC):
            zones[p, DISCARD, c] += mach[M_ASIDE + p * NC + c]
            mach[M_ASIDE + p * NC + c] = 0
    elif kind == K_SENTRY_LOOK:
        x = take_top(p, zones, draw, pinfo, rng)
        y = take_top(p, zones, draw, pinfo, rng)
        if x >= 0 or y >= 0:
            push(mach, K_SENTRY, p, x, y, 0, 0)
    elif kind == K_SENTRY_ORDER:
        if a >= 0 and b >= 0 and a != b:
            push(mach, K_SENTRY_TOP, p, a, b, 0, 0)
        else:
            for c in (a, b):  # back in the order they came: the second on top
                if c >= 0:
                    put_on_deck(p, c, draw, pinfo)
    elif kind == K_VASSAL:
        c = take_top(p, zones, draw, pinfo, rng)
        if c >= 0:
            zones[p, DISCARD, c] += 1
            if IS_ACTION[c]:
                push(mach, K_VASSAL_PLAY, p, c, 0, 0, 0)


# ----------------------------------------------------------------------------- decisions

@njit(void(Int, Int, Int, Z, PI), cache=True)
def _trash(q, c, zone, zones, piles):
    zones[q, zone, c] -= 1
    zones[q, OWNED, c] -= 1
    piles[1, c] += 1


@njit(cache=True, inline='always')  # compiled into each caller
def _phase_move(code, mach, zones, draw, pinfo, piles, ts, rng):
    p = mach[M_ACTIVE]
    verb, c = code // NC, code % NC
    if verb == V_PLAY:
        if mach[M_PHASE] == PH_ACTION:
            ts[ACTIONS] -= 1
            zones[p, HAND, c] -= 1
            zones[p, PLAY, c] += 1
            push(mach, K_RESOLVE, p, c, 0, 0, 0)
        else:
            play_treasure(p, c, 1, mach, zones, ts)
    elif code == PLAY_TREASURES:
        for d in range(NC):
            if IS_TREASURE[d] and zones[p, HAND, d] > 0:
                play_treasure(p, d, zones[p, HAND, d], mach, zones, ts)
    elif verb == V_BUY:
        ts[BUYS] -= 1
        ts[COINS] -= COST[c]
        mach[M_PHASE] = PH_BOUGHT
        gain_to(p, c, DISCARD, zones, piles)
    elif code == END_ACTIONS:
        mach[M_PHASE] = PH_BUY
    else:
        end_turn(mach, zones, draw, pinfo, piles, ts, rng)


@njit(cache=True, inline='always')  # compiled into each caller
def apply_inline(code, mach, zones, draw, pinfo, piles, ts, rng):
    """Carry out option ``code`` of the next decision (one of :func:`options`); compiled
    into its caller (the whole-game loop), :func:`apply` elsewhere."""
    at = top(mach)
    if at < 0:
        _phase_move(code, mach, zones, draw, pinfo, piles, ts, rng)
        return
    kind, q, a, b = mach[at], mach[at + 1], mach[at + 2], mach[at + 3]
    mach[M_SP] -= 1
    c = code % NC
    done = code == DONE
    if kind == K_MOAT:
        if not done:
            mach[M_IMMUNE] |= 1 << q
    elif kind == K_GAIN:
        if b == TO_HAND:
            gain_to(q, c, HAND, zones, piles)
        elif b == TO_DECK:
            gain_to_deck(q, c, zones, draw, pinfo, piles)
        else:
            gain_to(q, c, DISCARD, zones, piles)
    elif kind == K_ARTISAN or kind == K_BUREAUCRAT:
        zones[q, HAND, c] -= 1
        put_on_deck(q, c, draw, pinfo)
    elif kind == K_BANDIT:
        zones[q, OWNED, c] -= 1  # the chosen card is trashed, the other revealed discarded
        piles[1, c] += 1
        other = b if a == c else a
        if other >= 0:
            zones[q, DISCARD, other] += 1
    elif kind == K_CELLAR:
        if done:
            if a > 0:
                draw_cards(q, a, zones, draw, pinfo, rng)
        else:
            zones[q, HAND, c] -= 1
            zones[q, DISCARD, c] += 1
            push(mach, K_CELLAR, q, a + 1, 0, 0, 0)
    elif kind == K_CHAPEL:
        if not done:
            _trash(q, c, HAND, zones, piles)
            push(mach, K_CHAPEL, q, a + 1, 0, 0, 0)
    elif kind == K_HARBINGER:
        if not done:
            zones[q, DISCARD, c] -= 1
            put_on_deck(q, c, draw, pinfo)
    elif kind == K_LIBRARY_KEEP:
        if code // NC == V_SET_ASIDE:
            mach[M_ASIDE + q * NC + c] += 1
        else:
            zones[q, HAND, c] += 1
    elif kind == K_MILITIA or kind == K_POACHER:
        zones[q, HAND, c] -= 1
        zones[q, DISCARD, c] += 1
        push(mach, kind, q, a - 1, 0, 0, 0)
    elif kind == K_MINE:
        if not done:
            _trash(q, c, HAND, zones, piles)
            push(mach, K_GAIN, q, COST[c] + 3, TO_HAND, 1, GAIN_TREASURE)
    elif kind == K_MONEYLENDER:
        if not done:
            _trash(q, COPPER, HAND, zones, piles)
            ts[COINS] += 3
    elif kind == K_REMODEL:
        _trash(q, c, HAND, zones, piles)
        push(mach, K_GAIN, q, COST[c] + 2, TO_DISCARD, 0, 1 + c)
    elif kind == K_SENTRY:
        if done:
            push(mach, K_SENTRY_ORDER, q, a, b, 0, 0)
        else:
            if code // NC == V_TRASH:
                zones[q, OWNED, c] -= 1
                piles[1, c] += 1
            else:
                zones[q, DISCARD, c] += 1
            if a == c:
                a = -1
            else:
                b = -1
            if a >= 0 or b >= 0:
                push(mach, K_SENTRY, q, a, b, 0, 0)
    elif kind == K_SENTRY_TOP:
        put_on_deck(q, b if c == a else a, draw, pinfo)
        put_on_deck(q, c, draw, pinfo)
    elif kind == K_STEWARD:
        if c == 0:
            draw_cards(q, 2, zones, draw, pinfo, rng)
        elif c == 1:
            ts[COINS] += 2
        else:
            push(mach, K_STEWARD_TRASH, q, 2, 0, 0, 0)
    elif kind == K_STEWARD_TRASH:
        _trash(q, c, HAND, zones, piles)
        push(mach, K_STEWARD_TRASH, q, a - 1, 0, 0, 0)
    elif kind == K_THRONE:
        if not done:
            zones[q, HAND, c] -= 1
            zones[q, PLAY, c] += 1
            push(mach, K_RESOLVE, q, c, 0, 0, 0)
            push(mach, K_RESOLVE, q, c, 0, 0, 0)
    elif kind == K_VASSAL_PLAY:
        if not done:
            zones[q, DISCARD, a] -= 1
            zones[q, PLAY, a] += 1
            push(mach, K_RESOLVE, q, a, 0, 0, 0)


@njit(void(Int, I1, Z, D, PI, PI, TS, R), cache=True)
def apply(code, mach, zones, draw, pinfo, piles, ts, rng):
    """Carry out option ``code`` of the next decision (one of :func:`options`)."""
    apply_inline(code, mach, zones, draw, pinfo, piles, ts, rng)


@njit(Int(I1, Z, D, PI, PI, TS, R, I1), cache=True)
def settle(mach, zones, draw, pinfo, piles, ts, rng, opts):
    """Run automatic steps and single-option decisions up to the next decision with two or
    more options; returns their number (0 once the game is over). ``opts`` holds them."""
    while mach[M_OVER] == 0:
        at = top(mach)
        if at >= 0 and mach[at] < FIRST_DECISION:
            run_auto(mach, zones, draw, pinfo, piles, ts, rng)
            continue
        n = options(mach, zones, piles, ts, opts)
        if n >= 2:
            return n
        if n == 1:
            apply(opts[0], mach, zones, draw, pinfo, piles, ts, rng)
        else:
            mach[M_SP] -= 1
    return 0


@njit(Int(Int, I1, Z, D, PI, PI, TS, R, I1), cache=True)
def step(code, mach, zones, draw, pinfo, piles, ts, rng, opts):
    """Apply option ``code`` of the pending decision, then :func:`settle`."""
    apply(code, mach, zones, draw, pinfo, piles, ts, rng)
    return settle(mach, zones, draw, pinfo, piles, ts, rng, opts)


@njit(Int(I1, Z, D, PI, PI, TS, R, I1), cache=True)
def deal_hands(mach, zones, draw, pinfo, piles, ts, rng, opts):
    """Every player draws a hand (five, printed) from its pile and the first turn begins
    again (the opening deal of a game whose piles were set by hand, as OpenSpiel's chance
    dealer does)."""
    for p in range(zones.shape[0]):
        draw_cards(p, mach[M_HAND], zones, draw, pinfo, rng)
    mach[M_ACTIVE] = 0
    mach[M_SP] = 0
    start_turn(mach, ts)
    return settle(mach, zones, draw, pinfo, piles, ts, rng, opts)
