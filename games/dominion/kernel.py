"""Buy phase, turns and whole games in numba: the hot loop behind every match.

``run_batch`` plays a block of games given their seeds and seatings and writes one row of
results per game. Bots arrive as arrays (see ``games.dominion.bots.compile_bots``):

* ``rules[b, r, :]``: bot b's r-th buy rule (card, copy limit, conditions), ``nrules[b]``;
* ``amode[b]``: action mode, ``bmode[b]``: buy mode, ``fparams[b] = (k, wa)`` for mode 1;
* ``dparams[b]``: decision parameters and ``porder[b]``: play order (see
  :mod:`games.dominion.decisions`), read by the action player of :mod:`games.dominion.actions`.

Game rules decided here: a turn is action phase, buy phase (all treasures played, the
first Silver worth +$1 per Merchant played), clean-up.
The game ends after a turn that empties the Province pile or (standard end rule) a third
supply pile. Games reaching ``cap`` rounds stop there, are flagged as capped, and are scored
like any other game. The winner has most VP; with ``tiebreak`` set, a VP tie goes to the
player with fewer turns; what is still tied is shared. Solo mode (one player,
``solo_target > 0``) ends as soon as the player owns that many Provinces.

Longer than 400 lines on purpose: every kernel here is compiled eagerly with an explicit
numba signature over the array types of :mod:`games.dominion.engine`, and they form one call
graph from ``run_batch`` down to the buy rules and the learned player's buy (the state and
its helpers are already apart, in ``engine``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.dominion.actions import actions_in_hand, bot_actions
from games.dominion.cards import (
    COIN,
    COST,
    CURSE,
    NC,
    PLUS_COINS,
    PROVINCE,
    SILVER,
)
from games.dominion.encoder import W1, encode
from games.dominion.engine import (
    ACTIONS,
    B1,
    BUY_LEARNED,
    BUY_RULES,
    BUYS,
    COINS,
    DISCARD,
    F2,
    F3,
    HAND,
    I1,
    LP_END_RULE,
    LP_ENDGAME,
    LP_EPS,
    LP_EXPLORE,
    LP_MARGIN,
    LP_TIEBREAK,
    MERCHANTS,
    NTS,
    O1,
    O2,
    OWNED,
    PI,
    TS,
    TURNS,
    U1,
    Bool,
    D,
    Flt,
    Int,
    R,
    Z,
    cleanup,
    draw_cards,
    gain,
    gains_to_end,
    game_over,
    hand_money,
    rng_below,
    u8,
    victory_points,
    void,
)
from games.dominion.features import NACTIVE_MAX
from games.dominion.matcher import choose_buy


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


@njit(void(Int, Z, TS), cache=True)
def play_treasures(p, zones, ts):
    """Play every treasure in hand: their coins, and +$1 per Merchant played on the first
    Silver."""
    ts[COINS] += hand_money(p, zones)
    if ts[MERCHANTS] > 0 and zones[p, HAND, SILVER] > 0:
        ts[COINS] += ts[MERCHANTS]


@njit(void(Int, Int, F2, Int, W1, W1, Z, PI, PI, TS, R, PI, PI, I1), cache=True)
def buy_phase(p, bmode, rule_tab, nrule, w, lp, zones, pinfo, piles, ts, rng, rec_idx,
              rec_meta, rec_n):
    """Buy as the bot decides while buys remain (treasures already played). A learned bot
    with ``lp[1] > 0`` records the features of each state it chooses (row ``rec_n[0]``,
    tagged with the game row ``rec_n[1]`` and the seat) while the buffer has room."""
    while ts[BUYS] > 0:
        if bmode == BUY_RULES:
            c = choose_buy(p, rule_tab, nrule, zones, pinfo, piles, ts)
        elif bmode == BUY_LEARNED:
            g = choose_buy(p, rule_tab, nrule, zones, pinfo, piles, ts) if nrule > 0 else -2
            c = learned_buy(p, g, w, lp, zones, pinfo, piles, ts, rng, rec_idx)
            if lp[1] > 0.0 and rec_n[0] < rec_idx.shape[0]:
                r = rec_n[0]
                encode(p, c, g, zones, pinfo, piles, w, lp, rec_idx[r], True)
                rec_meta[r, 0] = rec_n[1]
                rec_meta[r, 1] = p
                rec_n[0] += 1
        else:
            c = random_buy(p, zones, piles, ts, rng)
        if c < 0:
            return
        gain(p, c, zones, piles)
        ts[COINS] -= COST[c]
        ts[BUYS] -= 1


@njit(void(Int, Int, F3, I1, I1, I1, F2, F2, F2, F2, PI, I1, Z, D, PI, PI, TS, R, PI, PI, I1),
      cache=True)
def take_turn(p, b, rules, nrules, amode, bmode, fparams, weights, lparams, dparams, porder,
              seats, zones, draw, pinfo, piles, ts, rng, rec_idx, rec_meta, rec_n):
    """One full turn of player p played by bot b (``seats[q]``: the bot in seat q)."""
    ts[ACTIONS] = 1
    ts[BUYS] = 1
    ts[COINS] = 0
    ts[MERCHANTS] = 0
    if actions_in_hand(p, zones) > 0:  # the action player is a long call: only when needed
        bot_actions(p, amode[b], fparams[b, 0], fparams[b, 1], dparams[b], porder[b], dparams,
                    seats, rules[b], nrules[b], zones, draw, pinfo, piles, ts, rng)
    play_treasures(p, zones, ts)
    buy_phase(p, bmode[b], rules[b], nrules[b], weights[b], lparams[b], zones, pinfo, piles,
              ts, rng, rec_idx, rec_meta, rec_n)
    cleanup(p, zones, draw, pinfo, rng)
    pinfo[p, TURNS] += 1


@njit(void(u8, I1, Z, D, PI, PI, R), cache=True)
def setup_game(seed, supply0, zones, draw, pinfo, piles, rng):
    """Fresh supply; each player gets 7 Copper and 3 Estate, shuffles and draws five."""
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
        draw_cards(p, 5, zones, draw, pinfo, rng)


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


@njit(void(U1, PI, F3, I1, I1, I1, F2, F2, F2, F2, PI, I1, Int, Bool, Int, Int, O2, PI, I1, I1,
           B1, Z, D, PI, PI, TS, R, PI, PI, I1), cache=True, nogil=True)
def run_batch(seeds, seating, rules, nrules, amode, bmode, fparams, weights, lparams, dparams,
              porder, supply0, end_rule, tiebreak, cap, solo_target, out_outcome, out_vp,
              out_turns, out_plies, out_capped, zones, draw, pinfo, piles, ts, rng, rec_idx,
              rec_meta, rec_n):
    """Play len(seeds) games to their end (or the cap); game i seats bot ``seating[i, k]``
    in seat k. Writes outcome and VP per seat, rounds (turns of the first player), plies
    (turns of all players) and the capped flag. Work arrays come from :func:`new_state`;
    ``rec_*`` from :func:`new_record` (learned bots' training samples)."""
    players = zones.shape[0]
    order = np.full(porder.shape, -1, dtype=np.int64)  # play orders without absent cards
    for b in range(porder.shape[0]):
        k = 0
        for j in range(porder.shape[1]):
            if porder[b, j] >= 0 and supply0[porder[b, j]] >= 0:
                order[b, k] = porder[b, j]
                k += 1
    for i in range(seeds.shape[0]):
        rec_n[1] = i
        setup_game(seeds[i], supply0, zones, draw, pinfo, piles, rng)
        p = 0
        capped = False
        while True:
            take_turn(p, seating[i, p], rules, nrules, amode, bmode, fparams, weights, lparams,
                      dparams, order, seating[i], zones, draw, pinfo, piles, ts, rng,
                      rec_idx, rec_meta, rec_n)
            if solo_target > 0 and zones[p, OWNED, PROVINCE] >= solo_target:
                break
            if game_over(piles, end_rule):
                break
            if p == players - 1 and pinfo[p, TURNS] >= cap:
                capped = True
                break
            p = (p + 1) % players
        plies = 0
        for q in range(players):
            plies += pinfo[q, TURNS]
        if solo_target > 0:
            out_vp[i, 0] = victory_points(0, zones)
            out_outcome[i, 0] = 0 if capped else 1
        else:
            score_game(zones, pinfo, tiebreak, out_outcome[i], out_vp[i])
        out_turns[i] = pinfo[0, TURNS]
        out_plies[i] = plies
        out_capped[i] = capped
