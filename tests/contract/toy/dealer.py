"""The toy's chance outcomes under OpenSpiel, found by presence as ``DEALER``: each card of
each hand (an outcome is the card's index in :data:`CARDS`)."""

from __future__ import annotations

from typing import Any

from games.interop.chance import Dealer, Forced, adopt
from games.state import State

from .game import CARDS, ToyState


class ChanceToy(Forced, ToyState):
    """A toy position whose hands are drawn card by card by chance."""

    def _draw(self) -> list[str]:
        deck = self.decks[self.player]
        left, hand = list(range(len(deck))), []
        for _ in range(min(5, len(deck))):
            card = CARDS[self.chance([CARDS.index(deck[i]) for i in left])]
            i = next(i for i in left if deck[i] == card)
            left.remove(i)
            hand.append(card)
        return hand

    def clone(self) -> ChanceToy:
        return adopt(ChanceToy, ToyState.clone(self))


class ToyDealer(Dealer):
    max_outcomes = 5

    def outcome_text(self, outcome: int) -> str:
        return "draw " + CARDS[outcome]

    def opening(self, seed: int) -> State:
        return adopt(ChanceToy, self.bridge.new_state(seed))

    def redeal(self, state: Any) -> None:
        state.hand = state._draw()


#: the game's dealer, found by :func:`games.interop.chance.dealer_for`
DEALER = ToyDealer
