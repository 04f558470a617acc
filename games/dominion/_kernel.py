"""The engine's kernels that whole games share with the rule machine: dealing a game, scoring
it, and the learned and random players' buys (the learned player's value of a gain, with
the estimated endgame).

Whole games are played by :mod:`games.dominion._play` on the rules of
:mod:`games.dominion._rules`, every decision by the seat's bot (:mod:`games.dominion._policy`,
which calls :func:`learned_buy` and :func:`random_buy`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.dominion._cards import (
    COIN,
    COST,
    CURSE,
    NC,
    PLUS_COINS,
)
from games.dominion._encoder import W1, encode
from games.dominion._engine import (
    COINS,
    DISCARD,
    I1,
    LP_END_RULE,
    LP_ENDGAME,
    LP_EPS,
    LP_EXPLORE,
    LP_MARGIN,
    LP_TIEBREAK,
    NTS,
    O1,
    OWNED,
    PI,
    TS,
    TURNS,
    Bool,
    D,
    Flt,
    Int,
    R,
    Z,
    draw_cards,
    gains_to_end,
    game_over,
    rng_below,
    u8,
    victory_points,
    void,
)
from games.dominion._features import NACTIVE_MAX


@njit(Int(Int, Z, PI, TS, R), cache=True)
def random_buy(p, zones, piles, ts, rng):
    """A uniformly random affordable card in stock other than a Curse, or nothing (one more
    option)."""
    n = 0
    for c in range(NC):
        if piles[0, c] > 0 and COST[c] <= ts[COINS] and c != CURSE:
            n += 1
    r = rng_below(rng, n + 1)
    for c in range(NC):
        if piles[0, c] > 0 and COST[c] <= ts[COINS] and c != CURSE:
            if r == 0:
                return c
            r -= 1
    return -1


MONEY_CAP = 16      # hand money bins of afford_chances: 0 .. 15 and 16+


@njit(Flt(Int, Int, Int, Bool, Flt, Z, PI), cache=True)
def final_reward(p, q, q_vp, tiebreak, margin, zones, pinfo):
    """p's reward (outcome +1 / 0 / -1 + margin * VP difference to the best other seat,
    clipped to +-30) if the game ends after p's current turn or, with ``q >= 0``, after
    q's next turn in which q gains ``q_vp`` VP: the rule of ``score_game``."""
    players = zones.shape[0]
    best = -(1 << 30)
    for r in range(players):
        v = victory_points(r, zones) + (q_vp if r == q else 0)
        if v > best:
            best = v
    fewest = 1 << 30
    for r in range(players):
        v = victory_points(r, zones) + (q_vp if r == q else 0)
        t = pinfo[r, TURNS] + (1 if r == p or r == q else 0)
        if v == best and t < fewest:
            fewest = t
    n_first = 0
    p_first = False
    other = -(1 << 30)
    for r in range(players):
        v = victory_points(r, zones) + (q_vp if r == q else 0)
        t = pinfo[r, TURNS] + (1 if r == p or r == q else 0)
        first = v == best and (not tiebreak or t == fewest)
        if first:
            n_first += 1
            if r == p:
                p_first = True
        if r != p and v > other:
            other = v
    outcome = 0.0 if (p_first and n_first > 1) else (1.0 if p_first else -1.0)
    diff = victory_points(p, zones) - other
    diff = -30 if diff < -30 else (30 if diff > 30 else diff)
    return outcome + margin * diff


@njit(void(Int, Z, W1), cache=True)
def afford_chances(q, zones, out):
    """``out[m]``: the chance that five cards drawn at random from q's whole deck hold $m
    (treasure coins plus +$ of actions; the last bin is $16+). Public information only:
    the deck's contents, not the hand q holds now.

    An estimate of what q can pay next turn, not its distribution: it ignores what q's
    actions draw (a Smithy hand sees eight cards) and extra buys, and which cards are in
    q's draw pile rather than its discard, so it is too low against decks that draw."""
    ways = np.zeros((6, MONEY_CAP + 1))
    ways[0, 0] = 1.0
    total = 0
    for d in range(NC):
        n = zones[q, OWNED, d]
        if n <= 0:
            continue
        total += n
        v = COIN[d] + PLUS_COINS[d]
        for k in range(5, -1, -1):
            for m in range(MONEY_CAP, -1, -1):
                w = ways[k, m]
                if w == 0.0:
                    continue
                comb = 1.0
                for j in range(1, 6 - k):
                    if j > n:
                        break
                    comb = comb * (n - j + 1) / j
                    mm = m + j * v
                    ways[k + j, mm if mm < MONEY_CAP else MONEY_CAP] += w * comb
    draw = 5 if total >= 5 else total
    s = 0.0
    for m in range(MONEY_CAP + 1):
        s += ways[draw, m]
    for m in range(MONEY_CAP + 1):
        out[m] = ways[draw, m] / s if s > 0.0 else (1.0 if m == 0 else 0.0)


@njit(Flt(Int, Int, Flt, W1, Z, PI, PI, W1), cache=True)
def endgame_value(p, c, v, lp, zones, pinfo, piles, chances):
    """The value of p gaining c (learned value ``v``) by the estimated endgame: a gain that
    ends the game is worth its actual reward; in a two-player game, a gain after which the
    opponent can end the game in one gain that it would not lose is worth, for each amount
    of money the opponent may hold, the worse of ``v`` and that ending, weighted by
    ``afford_chances`` of its deck (five random cards: an estimate that ignores draws and
    extra buys, see there). This is the penultimate-Province rule and the Duchy/Estate
    dance near the end, without a learned estimate of them; the opponent's chance of ending
    it is estimated, not exact. ``chances``: scratch for ``afford_chances``
    (``chances[0] < 0``: not computed yet)."""
    end_rule = int(lp[LP_END_RULE])
    tiebreak = lp[LP_TIEBREAK] > 0.0
    margin = lp[LP_MARGIN]
    if c >= 0:
        zones[p, OWNED, c] += 1
        piles[0, c] -= 1
    out = v
    if game_over(piles, end_rule):
        out = final_reward(p, -1, 0, tiebreak, margin, zones, pinfo)
    elif zones.shape[0] == 2 and gains_to_end(piles) <= 1:
        q = 1 - p
        worst_at = np.full(MONEY_CAP + 1, v)
        found = False
        for e in range(NC):
            if piles[0, e] <= 0:
                continue
            piles[0, e] -= 1
            ends = game_over(piles, end_rule)
            piles[0, e] += 1
            if not ends:
                continue
            zones[q, OWNED, e] += 1
            r = final_reward(p, q, 0, tiebreak, margin, zones, pinfo)
            zones[q, OWNED, e] -= 1
            if r >= v:
                continue
            found = True
            for m in range(COST[e], MONEY_CAP + 1):
                if r < worst_at[m]:
                    worst_at[m] = r
        if found:
            if chances[0] < 0.0:  # once per decision: q's deck is the same for every c
                afford_chances(q, zones, chances)
            out = 0.0
            for m in range(MONEY_CAP + 1):
                out += chances[m] * worst_at[m]
    if c >= 0:
        zones[p, OWNED, c] -= 1
        piles[0, c] += 1
    return out


@njit(Int(Int, Int, W1, W1, Z, PI, PI, TS, R, PI), cache=True)
def learned_buy(p, g, w, lp, zones, pinfo, piles, ts, rng, rec_idx):
    """The affordable card (or nothing) whose resulting state has the highest value (``g``:
    the guide list's choice, see ``encode``): the linear value, or with ``lp[LP_ENDGAME]``
    set and the end within two gains, ``endgame_value`` (the estimated endgame). With probability
    ``lp[LP_EPS]`` it explores: a random legal buy (``lp[LP_EXPLORE]`` 0) or the runner-up
    by value (1)."""
    eps = lp[LP_EPS]
    explore = eps > 0.0 and rng_below(rng, 1 << 30) < eps * (1 << 30)
    if explore and lp[LP_EXPLORE] == 0.0:
        return random_buy(p, zones, piles, ts, rng)
    near = lp[LP_ENDGAME] > 0.0 and gains_to_end(piles) <= 2
    chances = np.full(MONEY_CAP + 1 if near else 1, -1.0)  # -1: not computed yet
    out = rec_idx[0]
    best = -1
    best_v = encode(p, -1, g, zones, pinfo, piles, w, lp, out, False)
    if near:
        best_v = endgame_value(p, -1, best_v, lp, zones, pinfo, piles, chances)
    second = -2
    second_v = -1e300
    for c in range(NC):  # every card of this game's supply but Curse
        if piles[0, c] > 0 and COST[c] <= ts[COINS] and c != CURSE:
            v = encode(p, c, g, zones, pinfo, piles, w, lp, out, False)
            if near:
                v = endgame_value(p, c, v, lp, zones, pinfo, piles, chances)
            if v > best_v:
                second_v = best_v
                second = best
                best_v = v
                best = c
            elif v > second_v:
                second_v = v
                second = c
    if explore and second != -2:
        return second
    return best


@njit(void(u8, I1, Int, Z, D, PI, PI, R), cache=True)
def setup_game(seed, supply0, hand, zones, draw, pinfo, piles, rng):
    """Fresh supply; each player gets 7 Copper and 3 Estate, shuffles and draws ``hand``
    cards (five, printed)."""
    rng[0] = seed
    players = zones.shape[0]
    for c in range(NC):  # plain loops: cheaper to compile than slice assignment
        piles[0, c] = supply0[c]
        piles[1, c] = 0
        for p in range(players):
            for z in range(4):
                zones[p, z, c] = 0
    for p in range(players):
        pinfo[p, 0] = 0
        pinfo[p, 1] = 0
        zones[p, DISCARD, 0] = 7   # Copper
        zones[p, DISCARD, 3] = 3   # Estate
        zones[p, OWNED, 0] = 7
        zones[p, OWNED, 3] = 3
        draw_cards(p, hand, zones, draw, pinfo, rng)


@njit(void(Z, PI, Bool, O1, I1), cache=True)
def score_game(zones, pinfo, tiebreak, out_outcome, out_vp):
    """Outcome per seat: 1 sole winner, 0 shared first place, -1 loss."""
    players = zones.shape[0]
    best = -(1 << 30)
    for p in range(players):
        out_vp[p] = victory_points(p, zones)
        if out_vp[p] > best:
            best = out_vp[p]
    fewest = 1 << 30
    for p in range(players):
        if out_vp[p] == best and pinfo[p, TURNS] < fewest:
            fewest = pinfo[p, TURNS]
    n_first = 0
    for p in range(players):
        first = out_vp[p] == best and (not tiebreak or pinfo[p, TURNS] == fewest)
        out_outcome[p] = 1 if first else -1
        n_first += 1 if first else 0
    if n_first > 1:
        for p in range(players):
            if out_outcome[p] == 1:
                out_outcome[p] = 0


def new_state(players: int, supply0: np.ndarray) -> tuple[np.ndarray, ...]:
    """Work arrays of one game (zones, draw, pinfo, piles, ts, rng), reused across games."""
    total = 10 * players + int(supply0[supply0 > 0].sum())
    return (np.zeros((players, 4, NC), dtype=np.int64), np.zeros((players, total), np.int8),
            np.zeros((players, 2), dtype=np.int64), np.zeros((2, NC), dtype=np.int64),
            np.zeros(NTS, dtype=np.int64), np.zeros(1, dtype=np.uint64))


def new_record(rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sample buffers of a batch: feature indices per row (as wide as the wider layout;
    a row of the sources' layout leaves its last column 0), (game row, seat), (count,
    game)."""
    return (np.zeros((max(1, rows), NACTIVE_MAX), dtype=np.int64),
            np.zeros((max(1, rows), 2), dtype=np.int64), np.zeros(2, dtype=np.int64))
