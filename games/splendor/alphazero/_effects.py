"""What a turn does, in either engine, as one comparable value: an :data:`Effect`.

An effect is (kind, target, token change of the mover in five colours and gold): kind
``buy`` (face-up slot), ``buyres`` (reserve slot), ``reserve`` (face-up slot), ``blind``
(tier) or ``tokens`` (target -1; a pass is ``tokens`` with no change). Two turns with the
same effect leave the same position, up to the card a refill draws and the nobles that
visit (the referee gives every noble a buy earns; we give one a turn, the player's
choice). Our whole turns (main move, then tokens returned) are listed with
:func:`our_turns`; the referee's moves (its action indices 0-80) with
:func:`referee_effect`.
"""

from __future__ import annotations

import numpy as np

from games.splendor._payment import buy_card, paid_move, payments
from games.splendor._rules import (
    M_BLIND,
    M_BUYRES,
    M_PAID,
    M_PASS,
    M_RESERVE,
    M_RETURN,
    M_TAKE,
    MAX_LEGAL,
    N_PAYMENTS,
    O_CUR,
    O_DONE,
    O_PHASE,
    O_TOK,
    PH_RETURN,
    apply_move,
    legal_moves,
)
from games.splendor.alphazero._convert import Rows
from games.splendor.alphazero._tables import N_COLOURS, Tables

Effect = tuple[str, int, tuple[int, ...]]
PASS = 80  # the referee's "do nothing"
_NONE = (0,) * 6


def referee_effect(board: np.ndarray, action: int, player: int, tables: Tables) -> Effect:
    """The effect of the referee's ``action`` by ``player`` (absolute seat) on ``board``."""
    r = Rows(players_of(board))
    gems = board[r.gems + player, :6].astype(np.int64)
    if action < 12 or 27 <= action < 30:
        if action < 12:
            rows = board[r.cards + 2 * action:r.cards + 2 * action + 2]
            kind, target = "buy", action
        else:
            at = r.reserved + 6 * player + 2 * (action - 27)
            rows = board[at:at + 2]
            kind, target = "buyres", action - 27
        need = np.maximum(rows[0, :N_COLOURS].astype(np.int64)
                          - board[r.bonus + player, :N_COLOURS], 0)
        pay = np.minimum(need, gems[:N_COLOURS])
        delta = np.zeros(6, dtype=np.int64)
        delta[:N_COLOURS] = -pay
        delta[5] = -int((need - pay).sum())
        return kind, target, tuple(int(v) for v in delta)
    if action < 27:
        gold = int(board[0, 5] > 0 and gems.sum() <= 9)
        kind, target = ("reserve", action - 12) if action < 24 else ("blind", action - 24)
        return kind, target, (0, 0, 0, 0, 0, gold)
    delta = np.zeros(6, dtype=np.int64)
    if action < 55:
        delta[:N_COLOURS] = tables.takes[action - 30, :N_COLOURS]
    elif action < 60:
        delta[action - 55] = 2
    elif action < 75:
        delta[:N_COLOURS] = -tables.gives[action - 60, :N_COLOURS]
    elif action < 80:
        delta[action - 75] = -2
    return "tokens", -1, tuple(int(v) for v in delta)


def players_of(board: np.ndarray) -> int:
    """The number of players a referee board is laid out for."""
    for n in (2, 3, 4):
        if Rows(n).size == board.shape[0]:
            return n
    raise ValueError(f"a board of {board.shape[0]} rows is no referee board")


def referee_effects(board: np.ndarray, valid: np.ndarray, player: int,
                    tables: Tables) -> dict[Effect, int]:
    """The effects of the referee's legal moves, each with its action index."""
    out: dict[Effect, int] = {}
    for a in np.flatnonzero(valid):
        out.setdefault(referee_effect(board, int(a), player, tables), int(a))
    return out


def kind_of(main: int) -> tuple[str, int]:
    """(kind, target) of our main move code."""
    if main >= M_PAID:
        main = (main - M_PAID) // N_PAYMENTS
    if main < M_BUYRES:
        return "buy", main
    if main < M_TAKE:
        return "buyres", main - M_BUYRES
    if M_RESERVE <= main < M_BLIND:
        return "reserve", main - M_RESERVE
    if M_BLIND <= main < M_PASS:
        return "blind", main - M_BLIND
    return "tokens", -1


def our_effect(before: np.ndarray, after: np.ndarray, main: int) -> Effect:
    """The effect of our turn that began with ``main`` in ``before`` and left ``after``."""
    p = int(before[O_CUR])
    kind, target = kind_of(main)
    delta = after[O_TOK + 6 * p:O_TOK + 6 * p + 6] - before[O_TOK + 6 * p:O_TOK + 6 * p + 6]
    return kind, target, tuple(int(v) for v in delta)


def main_moves(s: np.ndarray) -> list[int]:
    """Our legal main moves, every payment of a buy included."""
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    moves = [int(m) for m in out[:legal_moves(s, out)]]
    p = int(s[O_CUR])
    ks = np.empty(N_PAYMENTS, dtype=np.int64)
    paid = []
    for b in (m for m in moves if m < M_TAKE):
        n = payments(s, p, buy_card(s, p, b), ks)
        paid += [int(paid_move(b, int(k))) for k in ks[1:n]]
    return moves + paid


def our_turns(s: np.ndarray) -> list[tuple[list[int], Effect]]:
    """Every whole turn of the player to move (main move, then each way to return tokens
    down to 10, colours in rising order), with its effect; a noble choice still due is
    left to the player."""
    out = []
    for m in main_moves(s):
        after = s.copy()
        apply_move(after, m)
        for decisions, end in _returns(after, [m], -1):
            out.append((decisions, our_effect(s, end, m)))
    return out


def _returns(s: np.ndarray, done: list[int], least: int) -> list[tuple[list[int], np.ndarray]]:
    if s[O_DONE] or s[O_PHASE] != PH_RETURN:
        return [(done, s)]
    p = int(s[O_CUR])
    out = []
    for c in range(max(least, 0), 6):
        if s[O_TOK + 6 * p + c] > 0:
            nxt = s.copy()
            apply_move(nxt, M_RETURN + c)
            out += _returns(nxt, done + [M_RETURN + c], c)
    return out


def is_pass(effect: Effect) -> bool:
    return effect == ("tokens", -1, _NONE)
