"""Splendor's rules over one compact int64 array per position, numba-compiled.

Everything a position holds lives in a flat array ``s`` at the offsets below, so copying a
position is one array copy. The batch kernel, the search players and the Python
:class:`games.splendor._state.SplendorState` all call these same functions.

A player's turn is one main move, then (when above 10 tokens) one ``return`` decision per
token given back, then (when several nobles qualify) one ``noble`` decision; ``phase`` says
which decision is due. Gaps the rules leave open, decided here: a player with no legal main
move passes; if every player passes in a row the position can never change, so the game
ends there and counts as capped (unless someone already has 15 points); games stop after
``cap`` rounds (capped). A move that takes tokens and gives the same ones back is legal;
the cap stops endless loops (Greedy with allEval falls into them: it never pays 3 or more
gems for a card worth 0 points, so two such players can trade tokens forever).

Move codes (ints):
  0-11 buy face-up (tier*4+slot)   12-14 buy reserved (slot)   15-39 take different colours
  (TAKE_SETS row; 3 colours, or 2/1 only when fewer colours are left)   40-44 take two of
  one colour   45-56 reserve face-up   57-59 reserve blind from tier deck   60 pass
  61-66 return one token (colour, 5 = gold)   67-71 take the noble in noble slot k
The order is the Greedy tie order: buy, take 3, take 2, reserve.
A buy code (0-14) pays gold last: coloured tokens first, gold only for what they cannot
cover. The rules let gold stand in for a colour the player could pay: ``M_PAID + b *
N_PAYMENTS + k`` buys as buy code ``b`` paying with gold per colour ``PAYMENTS[k]`` (see
:mod:`games.splendor._payment`, which lists the legal ones and the bots' payment policies).

Longer than 400 lines on purpose: the array layout (the offsets above) and every function
that reads or writes a position through it (legal moves, buys, reserves, nobles, the end)
are kept in one file, so that a change of the layout is made and checked in one place.
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

from games.splendor._cards import COLOUR, COST, HIDDEN, NOBLE_REQ, POINTS, TIER

MAXP = 4
WIN_POINTS = 15
TOKEN_LIMIT = 10
GEMS_FOR = np.array([0, 0, 4, 5, 7], dtype=np.int64)  # per colour, by player count
GOLD_TOKENS = 5

# --------------------------------------------------------------------------- layout
O_NP, O_CUR, O_PHASE, O_ROUND, O_TURN, O_FINAL, O_DONE, O_PASSES = range(8)
O_CAPPED, O_REFILL, O_CAP, O_SIM = 8, 9, 10, 11
O_WIN = 12  # points that end the game (the rules' 15 unless a balance study changes it)
O_BANK = 13  # 6: five colours then gold
O_TOK = O_BANK + 6  # 4 players x 6
O_BON = O_TOK + 24  # 4 x 5 card bonuses
O_PTS = O_BON + 20  # 4
O_NCARD = O_PTS + 4  # 4 cards bought
O_NNOB = O_NCARD + 4  # 4 nobles taken
O_RES = O_NNOB + 4  # 4 x 3 reserved card ids, packed from slot 0, -1 empty
O_BLIND = O_RES + 12  # 4 x 3: 1 when the reserved card was taken blind
O_BOARD = O_BLIND + 12  # 3 tiers x 4 face-up card ids, -1 empty
O_NOB = O_BOARD + 12  # 5 noble ids in play (-1: none in this slot)
O_NOBOWN = O_NOB + 5  # 5 owner seat of that noble (-1 free)
O_DPTR = O_NOBOWN + 5  # 3 next deck position per tier
O_DECK = O_DPTR + 3  # 90: tier 0 then 1 then 2, shuffled
O_OWNER = O_DECK + 90  # 90 seat that bought card c (-1 none)
SIZE = O_OWNER + 90

PH_MAIN, PH_RETURN, PH_NOBLE = 0, 1, 2

M_BUY, M_BUYRES, M_TAKE, M_TAKE2 = 0, 12, 15, 40
M_RESERVE, M_BLIND, M_PASS, M_RETURN, M_NOBLE = 45, 57, 60, 61, 67
N_MOVES = 72
MAX_LEGAL = 64

_sets = ([c for c in itertools.combinations(range(5), 3)]
         + [c for c in itertools.combinations(range(5), 2)]
         + [(c,) for c in range(5)])
TAKE_SETS = np.zeros((25, 5), dtype=np.int64)
for _i, _cs in enumerate(_sets):
    TAKE_SETS[_i, list(_cs)] = 1

def _takes_for_mask() -> np.ndarray:
    """Row m: [count, TAKE_SETS rows...] of the legal different-colour takes when the colours
    in bit mask m have tokens left: every set of min(3, colours left) of them."""
    out = np.zeros((32, 11), dtype=np.int64)
    for m in range(32):
        left = [c for c in range(5) if m >> c & 1]
        rows = [i for i, cs in enumerate(_sets)
                if len(cs) == min(3, len(left)) and set(cs) <= set(left)] if left else []
        out[m, 0] = len(rows)
        out[m, 1:1 + len(rows)] = rows
    return out


TAKES_FOR_MASK = _takes_for_mask()
#: every payment: gold tokens standing in per colour (at most GOLD_TOKENS in all), row 0 none
PAYMENTS = np.array(sorted((g for g in itertools.product(range(GOLD_TOKENS + 1), repeat=5)
                            if sum(g) <= GOLD_TOKENS), key=lambda g: (sum(g), g[::-1])),
                    dtype=np.int64)
N_PAYMENTS = len(PAYMENTS)
M_PAID = N_MOVES  # buy code b paid with PAYMENTS[k]: M_PAID + b * N_PAYMENTS + k
TIER_SIZE = np.array([40, 30, 20], dtype=np.int64)
DECK_OFF = np.array([0, 40, 70], dtype=np.int64)
TIER_START = np.array([int(np.argmax(TIER[:90] == t)) for t in range(3)], dtype=np.int64)

# --------------------------------------------------------------------------- queries


@njit(cache=True, inline="always")
def copy_state(dst: np.ndarray, src: np.ndarray) -> None:
    """Copy a position; a search view without refills never reads its decks or card owners,
    so only the part before them is copied (a third less to move per search node)."""
    if src[O_REFILL]:
        dst[:] = src
    else:
        dst[:O_DECK] = src[:O_DECK]


@njit(cache=True, inline="always")
def token_total(s: np.ndarray, p: int) -> int:
    base = O_TOK + 6 * p
    return s[base] + s[base + 1] + s[base + 2] + s[base + 3] + s[base + 4] + s[base + 5]


@njit(cache=True, inline="always")
def n_reserved(s: np.ndarray, p: int) -> int:
    n = 0
    for j in range(3):
        if s[O_RES + 3 * p + j] >= 0:
            n += 1
    return n


@njit(cache=True, inline="always")
def deck_left(s: np.ndarray, t: int) -> int:
    return TIER_SIZE[t] - s[O_DPTR + t]


@njit(cache=True, inline="always")
def can_afford(s: np.ndarray, p: int, card: int) -> bool:
    """Whether seat ``p`` can pay ``card`` with bonuses, tokens and gold (never a hidden one)."""
    short = 0
    for c in range(5):
        need = COST[card, c] - s[O_BON + 5 * p + c] - s[O_TOK + 6 * p + c]
        if need > 0:
            short += need
    return short <= s[O_TOK + 6 * p + 5]


@njit(cache=True)
def legal_main(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal main moves of the player to move into ``out``; their number (>= 1)."""
    p = s[O_CUR]
    n = 0
    for i in range(12):
        card = s[O_BOARD + i]
        if card >= 0 and can_afford(s, p, card):
            out[n] = M_BUY + i
            n += 1
    for j in range(3):
        card = s[O_RES + 3 * p + j]
        if card >= 0 and can_afford(s, p, card):
            out[n] = M_BUYRES + j
            n += 1
    mask = 0
    for c in range(5):
        if s[O_BANK + c] > 0:
            mask |= 1 << c
    for j in range(TAKES_FOR_MASK[mask, 0]):
        out[n] = M_TAKE + TAKES_FOR_MASK[mask, 1 + j]
        n += 1
    for c in range(5):
        if s[O_BANK + c] >= 4:
            out[n] = M_TAKE2 + c
            n += 1
    if n_reserved(s, p) < 3:
        for i in range(12):
            if s[O_BOARD + i] >= 0:
                out[n] = M_RESERVE + i
                n += 1
        for t in range(3):
            if deck_left(s, t) > 0:
                out[n] = M_BLIND + t
                n += 1
    if n == 0:
        out[0] = M_PASS
        n = 1
    return n


@njit(cache=True)
def noble_fits(s: np.ndarray, p: int, k: int) -> bool:
    """Whether the free noble in slot ``k`` would visit seat ``p``."""
    nob = s[O_NOB + k]
    if nob < 0 or s[O_NOBOWN + k] >= 0:
        return False
    for c in range(5):
        if s[O_BON + 5 * p + c] < NOBLE_REQ[nob, c]:
            return False
    return True


@njit(cache=True)
def legal_moves(s: np.ndarray, out: np.ndarray) -> int:
    """Legal decisions of the phase due (main move, token to return or noble to take)."""
    if s[O_DONE]:
        return 0
    ph = s[O_PHASE]
    if ph == PH_MAIN:
        return legal_main(s, out)
    p = s[O_CUR]
    n = 0
    if ph == PH_RETURN:
        for c in range(6):
            if s[O_TOK + 6 * p + c] > 0:
                out[n] = M_RETURN + c
                n += 1
        return n
    for k in range(5):
        if noble_fits(s, p, k):
            out[n] = M_NOBLE + k
            n += 1
    return n


# --------------------------------------------------------------------------- moves


@njit(cache=True)
def _refill(s: np.ndarray, slot: int) -> None:
    t = slot // 4
    if s[O_REFILL] and deck_left(s, t) > 0:
        s[O_BOARD + slot] = s[O_DECK + DECK_OFF[t] + s[O_DPTR + t]]
        s[O_DPTR + t] += 1
    else:
        s[O_BOARD + slot] = -1


@njit(cache=True)
def _buy(s: np.ndarray, p: int, card: int, k: int) -> None:
    """Seat ``p`` buys ``card``: gold last when ``k`` < 0, else gold per colour
    ``PAYMENTS[k]`` (assumed legal) and coloured tokens for the rest of the price."""
    tok = O_TOK + 6 * p
    for c in range(5):
        need = COST[card, c] - s[O_BON + 5 * p + c]
        if need > 0:
            gold = need - min(need, s[tok + c]) if k < 0 else PAYMENTS[k, c]
            pay = need - gold
            s[tok + c] -= pay
            s[O_BANK + c] += pay
            s[tok + 5] -= gold
            s[O_BANK + 5] += gold
    if card < 90:
        s[O_OWNER + card] = p
        s[O_BON + 5 * p + COLOUR[card]] += 1
    s[O_PTS + p] += POINTS[card]
    s[O_NCARD + p] += 1


@njit(cache=True)
def _buy_slot(s: np.ndarray, p: int, b: int, k: int) -> None:
    """Buy face-up slot ``b`` (< 12) or reserved slot ``b - 12`` with payment ``k``."""
    if b < M_BUYRES:
        _buy(s, p, s[O_BOARD + b], k)
        _refill(s, b)
        return
    j = b - M_BUYRES
    base = O_RES + 3 * p
    _buy(s, p, s[base + j], k)
    for i in range(j, 2):
        s[base + i] = s[base + i + 1]
        s[O_BLIND + 3 * p + i] = s[O_BLIND + 3 * p + i + 1]
    s[base + 2] = -1
    s[O_BLIND + 3 * p + 2] = 0


@njit(cache=True)
def _reserve(s: np.ndarray, p: int, card: int, blind: int) -> None:
    j = n_reserved(s, p)
    s[O_RES + 3 * p + j] = card
    s[O_BLIND + 3 * p + j] = blind
    if s[O_BANK + 5] > 0:
        s[O_BANK + 5] -= 1
        s[O_TOK + 6 * p + 5] += 1


@njit(cache=True)
def _after_action(s: np.ndarray, p: int) -> None:
    """Return phase when above 10 tokens, else the noble visit and the end of the turn."""
    if token_total(s, p) > TOKEN_LIMIT:
        s[O_PHASE] = PH_RETURN
    else:
        _nobles(s, p)


@njit(cache=True)
def _nobles(s: np.ndarray, p: int) -> None:
    fits = 0
    last = -1
    for k in range(5):
        if noble_fits(s, p, k):
            fits += 1
            last = k
    if fits == 0:
        end_turn(s)
    elif fits == 1:
        _take_noble(s, p, last)
    else:
        s[O_PHASE] = PH_NOBLE


@njit(cache=True)
def _take_noble(s: np.ndarray, p: int, k: int) -> None:
    s[O_NOBOWN + k] = p
    s[O_PTS + p] += 3
    s[O_NNOB + p] += 1
    end_turn(s)


@njit(cache=True)
def end_turn(s: np.ndarray) -> None:
    """Pass the turn on; finish the game at the end of the round once someone has the
    points to win (15)."""
    p = s[O_CUR]
    s[O_PHASE] = PH_MAIN
    if s[O_PTS + p] >= s[O_WIN]:
        s[O_FINAL] = 1
    s[O_TURN] += 1
    s[O_SIM] += 1
    players = s[O_NP]
    if s[O_PASSES] >= players:  # nobody can ever move again
        s[O_DONE] = 1
        s[O_CAPPED] = 1 - s[O_FINAL]
        s[O_CUR] = (p + 1) % players
        return
    p = (p + 1) % players
    s[O_CUR] = p
    if p == 0:
        s[O_ROUND] += 1
        if s[O_FINAL]:
            s[O_DONE] = 1
        elif s[O_ROUND] >= s[O_CAP]:
            s[O_DONE] = 1
            s[O_CAPPED] = 1


@njit(cache=True)
def apply_move(s: np.ndarray, m: int) -> None:
    """Play decision ``m`` (assumed legal) for the player to move, in place."""
    p = s[O_CUR]
    if m >= M_PAID:
        s[O_PASSES] = 0
        _buy_slot(s, p, (m - M_PAID) // N_PAYMENTS, (m - M_PAID) % N_PAYMENTS)
        _after_action(s, p)
        return
    if m >= M_NOBLE:
        _take_noble(s, p, m - M_NOBLE)
        return
    if m >= M_RETURN:
        c = m - M_RETURN
        s[O_TOK + 6 * p + c] -= 1
        s[O_BANK + c] += 1
        if token_total(s, p) <= TOKEN_LIMIT:
            _nobles(s, p)
        return
    if m == M_PASS:
        s[O_PASSES] += 1
        end_turn(s)
        return
    s[O_PASSES] = 0
    if m < M_TAKE:
        _buy_slot(s, p, m, -1)
    elif m < M_TAKE2:
        r = m - M_TAKE
        for c in range(5):
            if TAKE_SETS[r, c]:
                s[O_BANK + c] -= 1
                s[O_TOK + 6 * p + c] += 1
    elif m < M_RESERVE:
        c = m - M_TAKE2
        s[O_BANK + c] -= 2
        s[O_TOK + 6 * p + c] += 2
    elif m < M_BLIND:
        slot = m - M_RESERVE
        _reserve(s, p, s[O_BOARD + slot], 0)
        _refill(s, slot)
    else:
        t = m - M_BLIND
        card = s[O_DECK + DECK_OFF[t] + s[O_DPTR + t]] if s[O_REFILL] else HIDDEN + t
        s[O_DPTR + t] += 1
        _reserve(s, p, card, 1)
    _after_action(s, p)


# --------------------------------------------------------------------------- results


@njit(cache=True)
def seat_result(s: np.ndarray, p: int) -> int:
    """The winning rule, in one place: 1 when seat ``p`` alone has the most points, and of
    those the fewest development cards; 0 when it shares that first place; -1 else.
    Used for a finished game (:func:`outcome`) and by search leaves that score a position as
    if the game ended now (:func:`games.splendor._heuristics.win_loss`)."""
    players = s[O_NP]
    best = -1
    fewest = 1000
    for q in range(players):
        pts = s[O_PTS + q]
        if pts > best or (pts == best and s[O_NCARD + q] < fewest):
            best = pts
            fewest = s[O_NCARD + q]
    if s[O_PTS + p] != best or s[O_NCARD + p] != fewest:
        return -1
    winners = 0
    for q in range(players):
        if s[O_PTS + q] == best and s[O_NCARD + q] == fewest:
            winners += 1
    return 1 if winners == 1 else 0


@njit(cache=True)
def outcome(s: np.ndarray, out: np.ndarray) -> None:
    """Per seat 1 win, 0 shared first place, -1 loss (:func:`seat_result`)."""
    for p in range(s[O_NP]):
        out[p] = seat_result(s, p)
