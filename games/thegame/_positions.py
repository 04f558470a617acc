"""Look at single positions: their value under a player, and the turn the search chooses.

These run the engine's own numba kernels on a position given in plain Python (pile tops,
hand, cards laid), for tests, for users who want to see why a move was chosen, and for
checks of the search against brute force.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from games.core import InputError
from games.thegame._endgame import C_SIZE, MAX_CARDS, endgame_turn, start_exact, table_size
from games.thegame._engine import deepened_turn, deeper_depth, extra_play
from games.thegame._players import build_params, encode
from games.thegame._rules import HIGH_CARD, LOW_CARD, N_CARDS, is_playable
from games.thegame._search import search_turn, table_bits, workspace
from games.thegame._values import (
    BEHIND_SIZE,
    F_BRIDGES,
    F_FALLBACK,
    P_DRAWS,
    P_FAMILY,
    P_HAND,
    bridge_penalties,
    capacity_value,
    fill_bridge_rows,
    is_product_family,
    product_value,
    static_rows,
)


class _Turn:
    """Everything the kernels need about the start of one turn."""

    def __init__(self, player: str, params: Mapping[str, Any] | None, tops: Sequence[int],
                 hand: Sequence[int], laid: Iterable[int], unknown: int | None,
                 draws: int) -> None:
        self.prm = encode(player, build_params(player, params))
        self.prm[P_DRAWS] = draws
        self.tops = np.array(tops, dtype=np.int64)
        self.hand = np.array(hand, dtype=np.int64)
        self.unlaid = np.zeros(101, dtype=np.bool_)
        self.unlaid[LOW_CARD:HIGH_CARD + 1] = True
        for c in laid:
            self.unlaid[c] = False
        self.unlaid[self.tops[(self.tops >= LOW_CARD) & (self.tops <= HIGH_CARD)]] = False
        if any(not self.unlaid[c] for c in self.hand):
            raise InputError("a hand card is laid or on a pile")
        self.in_hand = np.zeros(101, dtype=np.bool_)
        self.in_hand[self.hand] = True
        n_unlaid = int(self.unlaid.sum())
        self.unknown = n_unlaid - len(self.hand) if unknown is None else int(unknown)
        self.m = np.where(self.unlaid, 1.0, 0.0)
        self.m[self.hand] = self.prm[P_HAND]
        self.static = static_rows(self.prm)
        self.rows = self.static.copy()
        self.bpen = np.empty((4, 5))
        bridge_penalties(self.bpen, self.prm, self.unknown)

    def row_table(self, tops: np.ndarray) -> np.ndarray:
        if int(self.prm[P_FAMILY]) not in (F_BRIDGES, F_FALLBACK):
            return self.static
        fill_bridge_rows(self.rows, self.prm, np.asarray(tops, dtype=np.int64),
                         np.zeros(1, dtype=np.int64), 0, self.in_hand, self.unlaid, self.bpen,
                         np.empty((4, BEHIND_SIZE)))
        return self.rows


def position_value(player: str, params: Mapping[str, Any] | None, tops: Sequence[int],
                   hand: Sequence[int], laid: Iterable[int] = (),
                   plays: Sequence[tuple[int, int]] = (), unknown: int | None = None,
                   draws: int = 2) -> float:
    """v(s') of the position reached from the turn start by ``plays`` ((card, pile) pairs).

    ``tops``/``hand``/``laid`` describe the turn's start; ``unknown`` is |D|, the cards the
    player cannot see (default: every unlaid card not in the hand).
    """
    turn = _Turn(player, params, tops, hand, laid, unknown, draws)
    cur = turn.tops.copy()
    for card, pile in plays:
        if card not in hand or not is_playable(pile, int(cur[pile]), card):
            raise InputError(f"illegal play {card} on pile {pile}")
        cur[pile] = card
    played = np.array([c for c, _ in plays] or [0], dtype=np.int64)
    if not is_product_family(int(turn.prm[P_FAMILY])):
        return float(capacity_value(turn.prm, cur.reshape(1, 4), 0, turn.unlaid, played,
                                    len(plays)))
    rows = turn.row_table(cur)
    return float(product_value(rows, turn.prm, cur, turn.m, played, len(plays),
                               np.empty(64, dtype=np.int64)))


def choose_turn(player: str, params: Mapping[str, Any] | None, tops: Sequence[int],
                hand: Sequence[int], laid: Iterable[int] = (), depth: int = 0,
                tmin: int | None = None, unknown: int | None = None,
                transpositions: bool = True) -> tuple[list[tuple[int, int]], int]:
    """The plays the engine's search chooses in this position, and how many candidates it saw.

    ``transpositions=False`` switches the transposition table off (every order is searched
    and valued on its own), for checking that merging transpositions changes nothing.
    A player with ``deepen_k`` > 1 chooses by selective deepening, as in the engine.
    """
    turn = _Turn(player, params, tops, hand, laid, unknown, 2)
    if tmin is None:
        tmin = 2 if turn.unknown > 0 else 1
    deep = deeper_depth(turn.prm, depth)
    deepen = deep > depth

    def table(d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        size = (1 << table_bits(d, tmin)) if transpositions else 1
        return np.zeros(size, dtype=np.int64), np.zeros(size), np.full(size, -1, np.int64)

    out_slots = np.empty(8, dtype=np.int64)
    out_piles = np.empty(8, dtype=np.int64)
    loo = np.zeros((max(depth, deep) + tmin + 1, 4, 100))
    args = (turn.prm, turn.static, turn.rows, 1, turn.tops, turn.hand, len(turn.hand), tmin)
    state = (turn.m, turn.in_hand, turn.unlaid, turn.unknown)
    scratch = (np.empty(64, dtype=np.int64), loo, np.zeros((4, len(turn.hand) + 1, 100)),
               *workspace(), out_slots, out_piles)
    if deepen:
        count = deepened_turn(*args, depth, deep, *state, *table(depth), *table(deep),
                              *scratch)
    else:
        count = search_turn(*args, depth, *state, *table(depth), *scratch)
    if count == 0:
        return [], 0
    return [(int(turn.hand[out_slots[k]]), int(out_piles[k])) for k in range(tmin)], count


def extra_choice(player: str, params: Mapping[str, Any] | None, tops: Sequence[int],
                 hand: Sequence[int], laid: Iterable[int] = (), depth: int = 0,
                 unknown: int | None = None) -> tuple[int, int] | None:
    """The one further card (card, pile) the engine lays after a turn's minimum in this
    position, or None when it stops (games.thegame._engine.extra_play)."""
    turn = _Turn(player, params, tops, hand, laid, unknown, 2)
    size = 1 << table_bits(max(depth - 1, 0), 1)
    card, pile = extra_play(
        turn.prm, turn.static, turn.rows, 1, turn.tops, turn.hand, len(turn.hand), depth,
        turn.m, turn.in_hand, turn.unlaid, turn.unknown, np.zeros(size, dtype=np.int64),
        np.zeros(size), np.full(size, -1, dtype=np.int64), np.empty(64, dtype=np.int64),
        np.zeros((depth + 2, 4, 100)), np.zeros((4, len(turn.hand) + 1, 100)), *workspace(),
        np.empty(8, dtype=np.int64), np.empty(8, dtype=np.int64))
    return (int(card), int(pile)) if card else None


def exact_turn(tops: Sequence[int], hand: Sequence[int], laid: Iterable[int] = (),
               tmin: int = 2, hand_size: int = 8) -> tuple[list[tuple[int, int]], float]:
    """Solo end of game: the turn with the highest chance of laying every card, and that
    chance (games.thegame._endgame). The draw pile is every card neither laid, on a pile,
    nor in the hand, in an unknown order; at most 16 cards may be left in all. No plays
    when the chance is 0."""
    turn = _Turn("recovery-fallback", None, tops, hand, laid, None, tmin)
    if len(turn.hand) > hand_size:
        raise InputError(f"a hand of {len(turn.hand)} cards is larger than {hand_size}")
    ctx = np.zeros(C_SIZE, dtype=np.int64)
    if not start_exact(ctx, turn.tops, turn.unlaid):
        raise InputError(f"exact play needs at most {MAX_CARDS} cards left, "
                         f"got {int(turn.unlaid.sum())}")
    size = table_size(0)
    out_slots = np.empty(hand_size, dtype=np.int64)
    out_piles = np.empty(hand_size, dtype=np.int64)
    nplay, chance = endgame_turn(ctx, turn.tops, turn.hand, len(turn.hand), turn.unlaid, tmin,
                                 hand_size, np.zeros(size, dtype=np.int64), np.zeros(size),
                                 np.full(size, -1, dtype=np.int64), out_slots, out_piles)
    return [(int(turn.hand[out_slots[k]]), int(out_piles[k])) for k in range(nplay)], chance


def unknown_cards(hand: Sequence[int], laid: Iterable[int], tops: Sequence[int]) -> int:
    """Cards neither laid, on a pile, nor in the hand (the solo draw pile)."""
    gone = set(laid) | {t for t in tops if LOW_CARD <= t <= HIGH_CARD}
    return N_CARDS - len(gone) - len(hand)
