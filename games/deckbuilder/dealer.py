"""The deck-building model's chance outcomes under OpenSpiel (:mod:`games.interop.chance`):
each card of each turn's hand. Only OpenSpiel uses it.
"""

from __future__ import annotations

from typing import Any

from games.deckbuilder._state import DeckbuilderState
from games.interop.chance import Dealer, Forced, adopt
from games.state import State


class ChanceDeckbuilder(Forced, DeckbuilderState):
    """A deck-building position whose hands are drawn card by card by chance (an outcome
    is the card's index in the card set)."""

    def _hand(self, deck: list[str]) -> list[int]:
        names = [c.name for c in self.card_set.cards]
        ids = [names.index(n) for n in deck]
        left, hand = list(range(len(deck))), []
        for _ in range(min(self.card_set.hand_size, len(deck))):
            card = self.chance([ids[i] for i in left])
            i = next(i for i in left if ids[i] == card)
            left.remove(i)
            hand.append(i)
        return hand

    def clone(self) -> ChanceDeckbuilder:
        twin = adopt(ChanceDeckbuilder, DeckbuilderState.clone(self))
        return twin  # type: ignore[return-value]


class DeckbuilderDealer(Dealer):
    @property
    def max_outcomes(self) -> int:  # type: ignore[override]
        return len(self.bridge.cards.cards)

    def outcome_text(self, outcome: int) -> str:
        return "draw " + self.bridge.cards.cards[outcome].name

    def opening(self, seed: int) -> State:
        state = adopt(ChanceDeckbuilder, self.bridge.new_state(seed))
        return state

    def redeal(self, state: Any) -> None:
        state.money = state._draw()


#: each game's dealer, by game name


#: the game's dealer, found by :func:`games.interop.chance.dealer_for`
DEALER = DeckbuilderDealer
