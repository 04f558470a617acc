"""Paying for a card: the legal payments, the move codes that name them and the payment
policies bots carry. All numba-compiled.

The rules let gold stand in for any colour, also where a coloured token could pay. A
payment is how many gold tokens stand in for each colour (a row of
:data:`games.splendor._rules.PAYMENTS`); it is legal when each colour's gold is at most that
colour's price after bonuses, the player's coloured tokens pay the rest, and the gold adds
up to at most what the player holds. A plain buy code (0-14) pays gold last; every other
legal payment is the move ``M_PAID + b * N_PAYMENTS + k`` (:func:`paid_move`). The batch
kernel's searches and the genetic players consider plain buy codes only; the turn-level
state lists every payment as its own move, so a player of that API chooses.

Policies (``pay`` of a bot), applied to the buy the bot has chosen:

- ``gold-last`` (0, the default, what every bot did before payments were a choice): the
  plain buy code.
- ``gold-first`` (1): as much gold as the price takes, white's share first, then blue,
  green, red, black; coloured tokens pay the rest. Keeps the most colours in hand and out
  of the bank.
- ``keep-target`` (2): gold in place of the coloured tokens that the bot's next target
  needs (the face-up or reserved card, other than the one bought, that would be fewest
  tokens short after this buy; ties to more points, then the first in board order).

Gold pays for any colour, so keeping a coloured token instead of a gold one never makes a
card affordable sooner; what a policy changes is the bank (the colours kept are not there
for the opponent, the gold goes back for the next reserve) and which tokens a later return
to 10 gives up.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.splendor._cards import COLOUR, COST, HIDDEN, POINTS
from games.splendor._rules import (
    M_BUYRES,
    M_PAID,
    M_TAKE,
    N_PAYMENTS,
    O_BOARD,
    O_BON,
    O_CUR,
    O_RES,
    O_TOK,
    PAYMENTS,
)

PAY_POLICIES = ("gold-last", "gold-first", "keep-target")
PAY_GOLD_LAST, PAY_GOLD_FIRST, PAY_KEEP_TARGET = range(3)


def _pay_index() -> np.ndarray:
    """Row of PAYMENTS by the payment's base-6 code (sum of gold[c] * 6**c)."""
    out = np.full(6 ** 5, -1, dtype=np.int64)
    for k, g in enumerate(PAYMENTS):
        out[int(sum(int(v) * 6 ** c for c, v in enumerate(g)))] = k
    return out


PAY_INDEX = _pay_index()


@njit(cache=True)
def buy_card(s: np.ndarray, p: int, b: int) -> int:
    """The card that buy code ``b`` (0-14) of seat ``p`` buys."""
    return s[O_BOARD + b] if b < M_BUYRES else s[O_RES + 3 * p + b - M_BUYRES]


@njit(cache=True)
def payment_index(gold: np.ndarray) -> int:
    """The PAYMENTS row of gold per colour ``gold`` (5 ints, at most 5 in all)."""
    code = 0
    for c in range(4, -1, -1):
        code = code * 6 + gold[c]
    return PAY_INDEX[code]


@njit(cache=True)
def paid_move(b: int, k: int) -> int:
    """The move that buys as buy code ``b`` with payment ``k``."""
    return M_PAID + b * N_PAYMENTS + k


@njit(cache=True)
def payment_legal(s: np.ndarray, p: int, card: int, k: int) -> bool:
    """Whether seat ``p`` may pay ``card`` with gold per colour ``PAYMENTS[k]``."""
    if card < 0 or card >= HIDDEN:
        return False
    gold = 0
    for c in range(5):
        need = max(COST[card, c] - s[O_BON + 5 * p + c], 0)
        g = PAYMENTS[k, c]
        if g > need or need - g > s[O_TOK + 6 * p + c]:
            return False
        gold += g
    return gold <= s[O_TOK + 6 * p + 5]


@njit(cache=True)
def gold_last(s: np.ndarray, p: int, card: int, gold: np.ndarray) -> None:
    """Gold per colour of the gold-last payment of ``card`` (assumed affordable)."""
    for c in range(5):
        need = max(COST[card, c] - s[O_BON + 5 * p + c], 0)
        gold[c] = max(need - s[O_TOK + 6 * p + c], 0)


@njit(cache=True)
def payments(s: np.ndarray, p: int, card: int, out: np.ndarray) -> int:
    """Every legal payment of ``card`` by seat ``p`` into ``out`` (N_PAYMENTS room), the
    gold-last one first; their number (0 when it cannot be bought)."""
    gold = np.zeros(5, dtype=np.int64)
    if card < 0 or card >= HIDDEN:
        return 0
    gold_last(s, p, card, gold)
    first = payment_index(gold)
    if first < 0 or not payment_legal(s, p, card, first):
        return 0
    out[0] = first
    n = 1
    for k in range(N_PAYMENTS):
        if k != first and payment_legal(s, p, card, k):
            out[n] = k
            n += 1
    return n


@njit(cache=True)
def _target(s: np.ndarray, p: int, card: int, bonus: np.ndarray, tok: np.ndarray) -> int:
    """The visible card other than ``card`` that is fewest tokens short with ``bonus`` and
    ``tok`` (colours then gold); ties to more points, then board order; -1 if none."""
    best, short_best, pts_best = -1, 1 << 30, -1
    for i in range(15):
        t = s[O_BOARD + i] if i < 12 else s[O_RES + 3 * p + i - 12]
        if t < 0 or t >= HIDDEN or t == card:
            continue
        short = 0
        for c in range(5):
            short += max(COST[t, c] - bonus[c] - tok[c], 0)
        short = max(short - tok[5], 0)
        if short < short_best or (short == short_best and POINTS[t] > pts_best):
            best, short_best, pts_best = t, short, POINTS[t]
    return best


@njit(cache=True)
def policy_payment(s: np.ndarray, p: int, card: int, policy: int) -> int:
    """The PAYMENTS row that ``policy`` picks for ``card`` (affordable by seat ``p``)."""
    gold = np.zeros(5, dtype=np.int64)
    gold_last(s, p, card, gold)
    if policy == PAY_GOLD_LAST:
        return payment_index(gold)
    need = np.zeros(5, dtype=np.int64)
    spare = s[O_TOK + 6 * p + 5]
    for c in range(5):
        need[c] = max(COST[card, c] - s[O_BON + 5 * p + c], 0)
        spare -= gold[c]
    save = need - gold  # coloured tokens that gold could still replace, per colour
    if policy == PAY_KEEP_TARGET:
        bonus = np.zeros(5, dtype=np.int64)
        tok = np.zeros(6, dtype=np.int64)
        for c in range(5):
            bonus[c] = s[O_BON + 5 * p + c] + (1 if COLOUR[card] == c else 0)
            tok[c] = s[O_TOK + 6 * p + c] - save[c]
        tok[5] = spare
        t = _target(s, p, card, bonus, tok)
        for c in range(5):
            wanted = max(COST[t, c] - bonus[c], 0) if t >= 0 else 0
            free = max(s[O_TOK + 6 * p + c] - wanted, 0)  # tokens the target does not need
            save[c] = max(save[c] - free, 0)
    for c in range(5):
        extra = min(save[c], spare)
        gold[c] += extra
        spare -= extra
    return payment_index(gold)


@njit(cache=True)
def pay_as(s: np.ndarray, m: int, policy: int) -> int:
    """Move ``m`` of the player to move, a plain buy paid by ``policy`` (other moves, and
    buys the policy pays gold last, unchanged)."""
    if m >= M_TAKE or policy == PAY_GOLD_LAST:
        return m
    p = s[O_CUR]
    card = buy_card(s, p, m)
    k = policy_payment(s, p, card, policy)
    gold = np.zeros(5, dtype=np.int64)
    gold_last(s, p, card, gold)
    return m if k == payment_index(gold) else paid_move(m, k)
