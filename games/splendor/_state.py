"""The turn-level API: :class:`SplendorState`, a :class:`games.state.State` over the same
compact array and numba rules as the batch kernel.

Decisions are the move codes of :mod:`games.splendor._rules`; a turn is a main move, then a
``return`` decision per token above 10 and a ``noble`` decision when several qualify. Every
way to pay a card is its own main move: the plain buy code pays gold last, and each other
legal payment (gold in place of coloured tokens the player could pay) follows the plain
moves as a paid-buy code (:mod:`games.splendor._payment`).
:meth:`SplendorState.view` is what one seat may know (hidden deck order and opponents' blind
reserves), the position search players use.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from games.core import InputError, game_seeds
from games.splendor._cards import HIDDEN, NOBLE_REQ, POINTS, TIER
from games.splendor._deal import setup
from games.splendor._payment import buy_card, paid_move, payments
from games.splendor._rules import (
    M_BLIND,
    M_BUYRES,
    M_NOBLE,
    M_PAID,
    M_PASS,
    M_RESERVE,
    M_RETURN,
    M_TAKE,
    M_TAKE2,
    MAX_LEGAL,
    N_PAYMENTS,
    O_BANK,
    O_BOARD,
    O_BON,
    O_CAPPED,
    O_CUR,
    O_DONE,
    O_DPTR,
    O_NCARD,
    O_NOB,
    O_NOBOWN,
    O_NP,
    O_PHASE,
    O_PTS,
    O_RES,
    O_ROUND,
    O_TOK,
    PAYMENTS,
    PH_MAIN,
    SIZE,
    TAKE_SETS,
    TIER_SIZE,
    WIN_POINTS,
    apply_move,
    legal_moves,
    outcome,
)
from games.splendor._search import view
from games.state import State

PHASES = ("main", "return", "noble")
_GEM = ("W", "U", "G", "R", "K", "*")  # white, blue, green, red, black, gold


def card_text(card: int) -> str:
    """``T1 R 2pt [3W2K]`` style text of a card id (``T2 ?`` for a hidden one)."""
    from games.splendor._cards import COLOUR, COST

    if card < 0:
        return "-"
    if card >= HIDDEN:
        return f"T{card - HIDDEN + 1} ?"
    cost = "".join(f"{COST[card, c]}{_GEM[c]}" for c in range(5) if COST[card, c])
    return f"T{TIER[card] + 1} {_GEM[COLOUR[card]]} {POINTS[card]}pt [{cost}]"


def move_text(move: int, s: np.ndarray | None = None) -> str:
    """A readable form of a move code (with the card when the position is given)."""
    def card_at(i: int) -> str:
        return f" {card_text(int(s[i]))}" if s is not None else ""

    p = int(s[O_CUR]) if s is not None else 0
    if move >= M_PAID:
        b, k = divmod(move - M_PAID, N_PAYMENTS)
        gold = " ".join(f"{g}{_GEM[c]}" for c, g in enumerate(PAYMENTS[k]) if g)
        return move_text(b, s) + f" paying gold for {gold or 'nothing'}"
    if move < M_BUYRES:
        return f"buy tier {move // 4 + 1} slot {move % 4 + 1}" + card_at(O_BOARD + move)
    if move < M_TAKE:
        return f"buy reserved {move - M_BUYRES + 1}" + card_at(O_RES + 3 * p + move - M_BUYRES)
    if move < M_TAKE2:
        return "take " + "".join(_GEM[c] for c in range(5) if TAKE_SETS[move - M_TAKE, c])
    if move < M_RESERVE:
        return f"take 2 {_GEM[move - M_TAKE2]}"
    if move < M_BLIND:
        i = move - M_RESERVE
        return f"reserve tier {i // 4 + 1} slot {i % 4 + 1}" + card_at(O_BOARD + i)
    if move < M_PASS:
        return f"reserve blind tier {move - M_BLIND + 1}"
    if move == M_PASS:
        return "pass"
    if move < M_NOBLE:
        return f"return {_GEM[move - M_RETURN]}"
    return f"noble {move - M_NOBLE + 1}"


class SplendorState(State):
    """One Splendor position (see :class:`games.state.State` for the protocol)."""

    def __init__(self, array: np.ndarray) -> None:
        super().__init__()
        self.array = array

    @classmethod
    def new(cls, players: int = 2, seed: int = 0, index: int = 0,
            cap: int = 100, win: int = WIN_POINTS, nobles: int = 0) -> SplendorState:
        """Game ``index`` of the run with root ``seed`` (the deal the kernel plays), under
        the rules' points to win and nobles (:func:`games.splendor._deal.setup`)."""
        if players not in (2, 3, 4):
            raise InputError(f"splendor is played by 2, 3 or 4 players, got {players}")
        s = np.zeros(SIZE, dtype=np.int64)
        deal = np.array([game_seeds(seed, 1, index)[0]], dtype=np.uint64)
        setup(s, players, int(cap), deal, int(win), int(nobles))
        return cls(s)

    # ---- the State protocol
    def current_player(self) -> int:
        return -1 if self.array[O_DONE] else int(self.array[O_CUR])

    def _legal_moves(self) -> list[int]:
        out = np.empty(MAX_LEGAL, dtype=np.int64)
        n = legal_moves(self.array, out)
        moves = [int(m) for m in out[:n]]
        return moves + self.paid_buys(moves)

    def paid_buys(self, moves: list[int]) -> list[int]:
        """The paid-buy codes of the buys among ``moves``: every legal payment but the
        gold-last one, which the plain buy code stands for."""
        if self.array[O_PHASE] != PH_MAIN:
            return []
        s, p = self.array, int(self.array[O_CUR])
        ks = np.empty(N_PAYMENTS, dtype=np.int64)
        out = []
        for b in (m for m in moves if m < M_TAKE):
            n = payments(s, p, buy_card(s, p, b), ks)
            out += [int(paid_move(b, int(k))) for k in ks[1:n]]
        return out

    def _apply(self, move: int) -> None:
        apply_move(self.array, int(move))

    def is_terminal(self) -> bool:
        return bool(self.array[O_DONE])

    def returns(self) -> list[float]:
        out = np.zeros(self.players, dtype=np.int64)
        outcome(self.array, out)
        return [(float(v) + 1.0) / 2.0 for v in out]

    def clone(self) -> SplendorState:
        other = SplendorState(self.array.copy())
        other.history = list(self.history)
        return other

    def move_to_string(self, move: Any) -> str:
        return move_text(int(move), self.array)

    # ---- Splendor's own
    def view(self, player: int, sampled: bool = False,
             rng: np.random.Generator | None = None) -> SplendorState:
        """What ``player`` may know: hidden decks and opponents' blind reserves (placeholders,
        no refills), or with ``sampled`` one shuffle of the unseen cards (refills on)."""
        seed = (rng or np.random.default_rng(0)).integers(0, 2**63, dtype=np.uint64)
        out = np.empty(SIZE, dtype=np.int64)
        view(self.array, int(player), int(sampled), np.array([seed], dtype=np.uint64), out)
        return SplendorState(out)

    @property
    def players(self) -> int:
        return int(self.array[O_NP])

    @property
    def phase(self) -> str:
        return PHASES[int(self.array[O_PHASE])]

    @property
    def rounds(self) -> int:
        return int(self.array[O_ROUND])

    @property
    def capped(self) -> bool:
        return bool(self.array[O_CAPPED])

    def scores(self) -> list[float]:
        """Prestige points per seat."""
        return [float(p) for p in self.points()]

    def points(self) -> list[int]:
        return [int(self.array[O_PTS + p]) for p in range(self.players)]

    def cards_bought(self) -> list[int]:
        return [int(self.array[O_NCARD + p]) for p in range(self.players)]

    def tokens(self, player: int) -> list[int]:
        """Tokens of ``player`` per colour (white, blue, green, red, black, gold)."""
        return [int(v) for v in self.array[O_TOK + 6 * player:O_TOK + 6 * player + 6]]

    def bonuses(self, player: int) -> list[int]:
        return [int(v) for v in self.array[O_BON + 5 * player:O_BON + 5 * player + 5]]

    def bank(self) -> list[int]:
        return [int(v) for v in self.array[O_BANK:O_BANK + 6]]

    def board(self) -> list[list[int]]:
        """Face-up card ids per tier (-1: empty slot)."""
        return [[int(v) for v in self.array[O_BOARD + 4 * t:O_BOARD + 4 * t + 4]]
                for t in range(3)]

    def reserved(self, player: int) -> list[int]:
        return [int(v) for v in self.array[O_RES + 3 * player:O_RES + 3 * player + 3]
                if v >= 0]

    def nobles(self) -> list[tuple[int, int]]:
        """(noble id, owner seat or -1) of the nobles in play."""
        return [(int(self.array[O_NOB + k]), int(self.array[O_NOBOWN + k]))
                for k in range(5) if self.array[O_NOB + k] >= 0]

    def deck_sizes(self) -> list[int]:
        return [int(TIER_SIZE[t] - self.array[O_DPTR + t]) for t in range(3)]

    def describe(self) -> str:
        """A few lines showing the board, the bank and every player."""
        lines = [f"round {self.rounds + 1}, seat {self.current_player()} to move "
                 f"({self.phase}); bank " + " ".join(
                     f"{_GEM[c]}{v}" for c, v in enumerate(self.bank()))]
        for t in (2, 1, 0):
            lines.append(f"  tier {t + 1} ({self.deck_sizes()[t]} left): " + " | ".join(
                card_text(c) for c in self.board()[t]))
        nobles = []
        for nob, owner in self.nobles():
            req = "".join(f"{v}{_GEM[c]}" for c, v in enumerate(NOBLE_REQ[nob]) if v)
            nobles.append(f"[{req}]" + (f" seat {owner}" if owner >= 0 else ""))
        lines.append("  nobles (3 pts): " + " | ".join(nobles))
        for p in range(self.players):
            tok = " ".join(f"{_GEM[c]}{v}" for c, v in enumerate(self.tokens(p)) if v)
            bon = " ".join(f"{_GEM[c]}{v}" for c, v in enumerate(self.bonuses(p)) if v)
            res = "; ".join(card_text(c) for c in self.reserved(p))
            lines.append(f"  seat {p}: {self.points()[p]} pts, {self.cards_bought()[p]} cards"
                         f" [{bon}], tokens [{tok}], reserved [{res}]")
        return "\n".join(lines)
