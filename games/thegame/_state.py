"""The Game's turn-level API: one play (card, pile) at a time, or the end of a turn.

Deals follow the batch engine (``shuffled_deck`` of the game's seed, hands dealt player by
player), so a state from seed S starts game S of the engine. A turn lays at least 2 cards (3
in expert mode) while the draw pile has cards, then at least 1; a player who cannot reach the
minimum loses the game for the table. The table wins when all 98 cards are laid.
"""

from __future__ import annotations

import numpy as np

from games.state import State
from games.thegame._rules import (
    N_CARDS,
    N_PILES,
    START_TOPS,
    hand_size_for,
    is_playable,
    shuffled_deck,
)

END_TURN = (0, -1)  # the move that ends a turn once its minimum is laid


class TheGameState(State):
    """Piles, hands, draw pile and the turn in progress of one cooperative game."""

    def __init__(self, seed: int, players: int = 1, expert: bool = False,
                 hand_size: int = 0) -> None:
        super().__init__()
        deck = [int(c) for c in shuffled_deck(np.uint64(seed))]
        #: cards in each hand (0 given: the rules' hand for the players)
        self.hand_size = size = hand_size or hand_size_for(players)
        self.hands = [sorted(deck[q * size:(q + 1) * size]) for q in range(players)]
        self.draw = deck[players * size:]
        self.tops = list(START_TOPS)
        self.expert, self.player, self.laid_now, self.laid = expert, 0, 0, 0
        self.lost = False
        self.minimum = self._minimum()

    def _minimum(self) -> int:
        return (3 if self.expert else 2) if self.draw else 1

    def plays(self) -> list[tuple[int, int]]:
        return [(c, p) for c in self.hands[self.player] for p in range(N_PILES)
                if is_playable(p, self.tops[p], c)]

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
        return twin

    def move_to_string(self, move: tuple[int, int]) -> str:
        return "end turn" if move == END_TURN else f"{move[0]} on pile {move[1]}"
