"""Positions both ways between our array (:mod:`games.splendor._rules`) and the referee's
board (an int8 array of 32 + 10n + n^2 rows by 7 for n players).

The referee's board rows: 0 the bank (five colours, gold, moves played); 1-24 the 12
face-up cards (two rows each, tier by tier); 25-30 per tier the deck's count and bit field
per card group; 31.. the n + 1 noble slots; then per player the tokens, the noble slots
won, the bonuses with card points (column 6) and the 3 reserved cards. Its board does not
say which card each player bought, in which order a deck lies, nor whether a reserve was
taken blind: :func:`from_theirs` takes those from the position before the move (the
``template``), with the cards drawn since put on top of their decks.
"""

from __future__ import annotations

import numpy as np

from games.splendor._rules import (
    DECK_OFF,
    O_BANK,
    O_BLIND,
    O_BOARD,
    O_BON,
    O_CAPPED,
    O_CUR,
    O_DECK,
    O_DONE,
    O_DPTR,
    O_FINAL,
    O_NCARD,
    O_NNOB,
    O_NOB,
    O_NOBOWN,
    O_NP,
    O_OWNER,
    O_PASSES,
    O_PHASE,
    O_PTS,
    O_RES,
    O_ROUND,
    O_TOK,
    O_TURN,
    PH_MAIN,
    TIER_SIZE,
    WIN_POINTS,
)
from games.splendor.alphazero._tables import BIT, N_COLOURS, POINTS_COL, Tables


class Rows:
    """Row offsets of the referee's board for ``n`` players."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.bank, self.cards, self.deck, self.nobles = 0, 1, 25, 31
        self.gems = 32 + n
        self.won = 32 + 2 * n  # (n + 1) rows per player
        self.bonus = 32 + 3 * n + n * n
        self.reserved = 32 + 4 * n + n * n  # 6 rows per player
        self.size = 32 + 10 * n + n * n


def _int8(value: int) -> np.int8:
    """A byte as the referee stores it (bit fields and move counts wrap in int8)."""
    return np.array(int(value) & 0xFF, dtype=np.uint8).view(np.int8)


def moves_played(board: np.ndarray) -> int:
    return int(board[0, POINTS_COL]) & 0xFF


def deck_cards(s: np.ndarray, t: int) -> list[int]:
    """Our tier-``t`` deck from its next card on."""
    off = O_DECK + DECK_OFF[t]
    return [int(c) for c in s[off + s[O_DPTR + t]:off + TIER_SIZE[t]]]


def to_theirs(s: np.ndarray, tables: Tables) -> np.ndarray:
    """The referee's board of our position ``s`` (a true position, between turns)."""
    n = int(s[O_NP])
    r = Rows(n)
    b = np.zeros((r.size, 7), dtype=np.int8)
    b[0, :6] = s[O_BANK:O_BANK + 6]
    b[0, POINTS_COL] = _int8(n * int(s[O_ROUND]) + int(s[O_CUR]))
    for i in range(12):
        b[r.cards + 2 * i:r.cards + 2 * i + 2] = tables.encode(int(s[O_BOARD + i]))
    for t in range(3):
        bits = np.zeros(N_COLOURS, dtype=np.int64)
        for c in deck_cards(s, t):
            _, g, i = tables.where[c]
            b[r.deck + 2 * t, g] += 1
            bits[g] |= BIT[i]
        for g in range(N_COLOURS):
            b[r.deck + 2 * t + 1, g] = _int8(bits[g])
    for k in range(n + 1):
        nob = int(s[O_NOB + k])
        if nob < 0:
            continue
        owner = int(s[O_NOBOWN + k])
        row = r.nobles + k if owner < 0 else r.won + (n + 1) * owner + k
        b[row] = tables.noble_rows(nob)
    for p in range(n):
        b[r.gems + p, :6] = s[O_TOK + 6 * p:O_TOK + 6 * p + 6]
        b[r.bonus + p, :N_COLOURS] = s[O_BON + 5 * p:O_BON + 5 * p + 5]
        b[r.bonus + p, POINTS_COL] = s[O_PTS + p] - 3 * s[O_NNOB + p]
        for j in range(3):
            at = r.reserved + 6 * p + 2 * j
            b[at:at + 2] = tables.encode(int(s[O_RES + 3 * p + j]))
    return b


def _remaining(board: np.ndarray, r: Rows, t: int, tables: Tables) -> set[int]:
    """Our ids of the cards left in the referee's tier-``t`` deck (its bit fields)."""
    out = set()
    for g in range(N_COLOURS):
        bits = int(board[r.deck + 2 * t + 1, g]) & 0xFF
        for i in range(tables.cards[t].shape[1]):
            if bits & int(BIT[i]):
                out.add(tables.ids[(t, g, i)])
    return out


def from_theirs(board: np.ndarray, template: np.ndarray, tables: Tables,
                done: bool = False) -> np.ndarray:
    """Our position of the referee's ``board``, reached from our position ``template`` by
    one move of its player (or equal to it): cards bought since are that player's, cards
    drawn since go on top of their decks, a new reserve is blind when it was not face up.
    ``done``: the referee says the game is over. Raises ValueError where the two do not fit.
    """
    s = template.copy()
    n = int(s[O_NP])
    r = Rows(n)
    mover = int(template[O_CUR])
    before = n * int(template[O_ROUND]) + int(template[O_CUR])
    moves = before + ((moves_played(board) - before) & 0xFF)
    s[O_CUR], s[O_ROUND] = moves % n, moves // n
    s[O_TURN] += moves - before
    s[O_BANK:O_BANK + 6] = board[0, :6]
    shown = set()
    for i in range(12):
        card = tables.decode(board[r.cards + 2 * i:r.cards + 2 * i + 2], i // 4)
        s[O_BOARD + i] = card
        shown.add(card)
    was_up = {int(c) for c in template[O_BOARD:O_BOARD + 12] if c >= 0}
    reserved = set()
    for p in range(n):
        s[O_TOK + 6 * p:O_TOK + 6 * p + 6] = board[r.gems + p, :6]
        s[O_BON + 5 * p:O_BON + 5 * p + 5] = board[r.bonus + p, :N_COLOURS]
        old = {int(template[O_RES + 3 * p + j]): int(template[O_BLIND + 3 * p + j])
               for j in range(3) if template[O_RES + 3 * p + j] >= 0}
        for j in range(3):
            at = r.reserved + 6 * p + 2 * j
            card = tables.decode(board[at:at + 2])
            s[O_RES + 3 * p + j] = card
            s[O_BLIND + 3 * p + j] = 0 if card < 0 else old.get(card, int(card not in was_up))
            reserved.add(card)
        won = 0
        for k in range(n + 1):
            if s[O_NOB + k] >= 0 and board[r.won + (n + 1) * p + k].any():
                s[O_NOBOWN + k] = p
                won += 1
        s[O_NNOB + p] = won
        s[O_NCARD + p] = int(board[r.bonus + p, :N_COLOURS].sum())
        s[O_PTS + p] = int(board[r.bonus + p, POINTS_COL]) + 3 * won
    for t in range(3):
        left = _remaining(board, r, t, tables)
        deck = deck_cards(template, t)
        drawn = [c for c in deck if c not in left]
        if set(deck) - set(drawn) != left:
            raise ValueError(f"tier {t + 1} deck: the referee holds cards our deck lacks")
        off = O_DECK + DECK_OFF[t] + template[O_DPTR + t]
        s[off:off + len(deck)] = drawn + [c for c in deck if c in left]
        s[O_DPTR + t] = template[O_DPTR + t] + len(drawn)
    placed = shown | reserved | {c for t in range(3) for c in deck_cards(s, t)}
    for c in np.flatnonzero(template[O_OWNER:O_OWNER + 90] < 0):
        if int(c) not in placed:
            s[O_OWNER + c] = mover
    _check_owned(s, n)
    s[O_PHASE] = PH_MAIN
    s[O_PASSES] = 0
    s[O_FINAL] = int(max(s[O_PTS:O_PTS + n]) >= WIN_POINTS)
    s[O_DONE] = int(done)
    s[O_CAPPED] = int(done and not s[O_FINAL])
    return s


def _check_owned(s: np.ndarray, n: int) -> None:
    """The bonuses the referee gives each player are those of the cards we say they own."""
    from games.splendor._cards import COLOUR

    for p in range(n):
        owned = np.zeros(N_COLOURS, dtype=np.int64)
        for c in np.flatnonzero(s[O_OWNER:O_OWNER + 90] == p):
            owned[COLOUR[c]] += 1
        if not np.array_equal(owned, s[O_BON + 5 * p:O_BON + 5 * p + 5]):
            raise ValueError(f"seat {p}: bonuses {s[O_BON + 5 * p:O_BON + 5 * p + 5]} "
                             f"differ from the cards bought ({owned})")


FIELDS = {
    "bank": lambda s: s[O_BANK:O_BANK + 6],
    "tokens": lambda s: s[O_TOK:O_TOK + 6 * s[O_NP]],
    "board": lambda s: s[O_BOARD:O_BOARD + 12],
    "reserves": lambda s: s[O_RES:O_RES + 3 * s[O_NP]],
    "blind": lambda s: s[O_BLIND:O_BLIND + 3 * s[O_NP]],
    "bonuses": lambda s: s[O_BON:O_BON + 5 * s[O_NP]],
    "points": lambda s: s[O_PTS:O_PTS + s[O_NP]],
    "cards": lambda s: s[O_NCARD:O_NCARD + s[O_NP]],
    "nobles": lambda s: np.concatenate([s[O_NOB:O_NOB + 5], s[O_NOBOWN:O_NOBOWN + 5]]),
    "owners": lambda s: s[O_OWNER:O_OWNER + 90],
    "decks": lambda s: np.concatenate([np.sort(deck_cards(s, t)) for t in range(3)]),
    "seat": lambda s: s[[O_CUR, O_ROUND]],
}


def differences(a: np.ndarray, b: np.ndarray) -> list[str]:
    """The names of the :data:`FIELDS` in which two of our positions differ."""
    return [name for name, get in FIELDS.items() if not np.array_equal(get(a), get(b))]
