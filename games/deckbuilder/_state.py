"""The deck-building model's turn-level API: each turn a hand is drawn from the whole deck
and the player buys one affordable card or passes; after ``turns`` turns the deck's points
are the score. Moves are card names, or ``"pass"``."""

from __future__ import annotations

import numpy as np

from games.deckbuilder._model import TREASURE, CardSet
from games.state import State

PASS = "pass"


class DeckbuilderState(State):
    """Card counts, the hand's money and the turn of one solo game."""

    def __init__(self, card_set: CardSet, turns: int, rng: np.random.Generator) -> None:
        super().__init__()
        self.card_set, self.turns, self.rng, self.turn = card_set, turns, rng, 0
        start = dict(card_set.start)
        self.counts = {c.name: int(start.get(c.name, 0)) for c in card_set.cards}
        self.money = self._draw()

    def _draw(self) -> int:
        deck = [name for name, k in self.counts.items() for _ in range(k)]
        hand = self._hand(deck)
        return sum(self.card_set.card(deck[i]).value for i in hand
                   if self.card_set.card(deck[i]).kind == TREASURE)

    def _hand(self, deck: list[str]) -> list[int]:
        """Positions in ``deck`` of this turn's hand: a random draw without replacement."""
        return list(self.rng.choice(len(deck), size=min(self.card_set.hand_size, len(deck)),
                                    replace=False))

    def current_player(self) -> int:
        return -1 if self.is_terminal() else 0

    def _legal_moves(self) -> list[str]:
        return [PASS] + [c.name for c in self.card_set.cards if c.cost <= self.money]

    def _apply(self, move: str) -> None:
        if move != PASS:
            self.counts[move] += 1
        self.turn += 1
        if not self.is_terminal():
            self.money = self._draw()

    def is_terminal(self) -> bool:
        return self.turn >= self.turns

    def points(self) -> int:
        return sum(k * self.card_set.card(n).points for n, k in self.counts.items())

    def returns(self) -> list[float]:
        """A score attack has no winner: a finished game returns 1; :meth:`scores` holds
        its points."""
        return [1.0]

    def scores(self) -> list[float]:
        return [float(self.points())]

    def clone(self) -> DeckbuilderState:
        twin = DeckbuilderState.__new__(DeckbuilderState)
        twin.history, twin.counts = list(self.history), dict(self.counts)
        twin.card_set, twin.turns, twin.turn, twin.money = (self.card_set, self.turns,
                                                            self.turn, self.money)
        twin.rng = np.random.Generator(np.random.PCG64())
        twin.rng.bit_generator.state = self.rng.bit_generator.state
        return twin
