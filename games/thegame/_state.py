"""The Game's turn-level API: one play (card, pile) at a time, or the end of a turn.

Deals follow the batch engine (``shuffled_deck`` of the game's seed, hands dealt player by
player), so a state from seed S starts game S of the engine. A turn lays at least 2 cards (3
in expert mode) while the draw pile has cards, then at least 1; a player who cannot reach the
minimum loses the game for the table. The table wins when all 98 cards are laid.

The table is a rule too: ``piles`` (even, 2-8; the first half ascend from 1, the others
descend from 100) and the backwards trick's ``step`` (10 printed; 0: no trick).
"""

from __future__ import annotations

import numpy as np

from games.core import InputError
from games.state import State
from games.thegame._rules import (
    ASC_START,
    DESC_START,
    N_CARDS,
    N_PILES,
    hand_size_for,
    shuffled_deck,
)

BACKWARDS_STEP = 10  # the printed backwards trick: exactly 10 back


def check_table(piles: int, step: int) -> None:
    """InputError unless ``piles`` is even and 2-8 and ``step`` is 0-30."""
    if piles % 2 or not 2 <= piles <= 8:
        raise InputError(f"piles must be an even number from 2 to 8 (half ascending, half "
                         f"descending), got {piles}")
    if not 0 <= step <= 30:
        raise InputError(f"the backwards trick's step must be 0-30 (0: no trick), got {step}")


def may_lay(pile: int, piles: int, top: int, card: int, step: int) -> bool:
    """Whether ``card`` may go on ``pile`` of a table of ``piles`` with backwards ``step``."""
    if pile < piles // 2:
        return card > top or (step > 0 and card == top - step)
    return card < top or (step > 0 and card == top + step)

END_TURN = (0, -1)  # the move that ends a turn once its minimum is laid


class TheGameState(State):
    """Piles, hands, draw pile and the turn in progress of one cooperative game."""

    def __init__(self, seed: int, players: int = 1, expert: bool = False,
                 hand_size: int = 0, piles: int = N_PILES, step: int = BACKWARDS_STEP) -> None:
        super().__init__()
        check_table(piles, step)
        self.piles, self.step = piles, step
        deck = [int(c) for c in shuffled_deck(np.uint64(seed))]
        #: cards in each hand (0 given: the rules' hand for the players)
        self.hand_size = size = hand_size or hand_size_for(players)
        self.hands = [sorted(deck[q * size:(q + 1) * size]) for q in range(players)]
        self.draw = deck[players * size:]
        self.tops = [ASC_START] * (piles // 2) + [DESC_START] * (piles // 2)
        self.expert, self.player, self.laid_now, self.laid = expert, 0, 0, 0
        self.lost = False
        self.minimum = self._minimum()

    def _minimum(self) -> int:
        return (3 if self.expert else 2) if self.draw else 1

    def plays(self) -> list[tuple[int, int]]:
        return [(c, p) for c in self.hands[self.player] for p in range(self.piles)
                if may_lay(p, self.piles, self.tops[p], c, self.step)]

    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.player

    def _legal_moves(self) -> list[tuple[int, int]]:
        return self.plays() + ([END_TURN] if self.laid_now >= self.minimum else [])

    def _apply(self, move: tuple[int, int]) -> None:
        if move == END_TURN:
            hand = self.hands[self.player]
            while len(hand) < self.hand_size and self.draw:
                hand.append(self._take())
            hand.sort()
            self._next_player()
        else:
            card, pile = move
            self.hands[self.player].remove(card)
            self.tops[pile] = card
            self.laid_now += 1
            self.laid += 1
        if not self.is_terminal() and not self._legal_moves():
            self.lost = True  # the minimum cannot be reached: the table loses

    def _take(self) -> int:
        """The next card of the draw pile (its top: the pile is dealt in order)."""
        return self.draw.pop(0)

    def _next_player(self) -> None:
        self.laid_now = 0
        for _ in range(len(self.hands)):
            self.player = (self.player + 1) % len(self.hands)
            if self.hands[self.player]:
                break
        self.minimum = self._minimum()

    def is_terminal(self) -> bool:
        return self.lost or self.laid == N_CARDS

    def cards_left(self) -> int:
        return N_CARDS - self.laid

    def returns(self) -> list[float]:
        won = 1.0 if self.laid == N_CARDS else 0.0
        return [won] * len(self.hands)

    def scores(self) -> list[float]:
        """Cards not laid (0 = a win), the same for every seat."""
        return [float(self.cards_left())] * len(self.hands)

    def clone(self) -> TheGameState:
        twin = TheGameState.__new__(TheGameState)
        twin.history = list(self.history)
        twin.hands = [list(h) for h in self.hands]
        twin.draw, twin.tops = list(self.draw), list(self.tops)
        twin.expert, twin.player, twin.laid_now, twin.laid = (self.expert, self.player,
                                                              self.laid_now, self.laid)
        twin.lost, twin.minimum, twin.hand_size = self.lost, self.minimum, self.hand_size
        twin.piles, twin.step = self.piles, self.step
        return twin

    def move_to_string(self, move: tuple[int, int]) -> str:
        return "end turn" if move == END_TURN else f"{move[0]} on pile {move[1]}"
