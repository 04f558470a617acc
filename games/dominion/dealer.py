"""Dominion's chance outcomes under OpenSpiel (:mod:`games.interop.chance`): every card drawn,
looked at or revealed from the unseen part of a draw pile, the opening hands included; a
card put on top of a pile (Artisan, Bureaucrat, Sentry) is drawn as it lies, and a
reshuffle turns the discard pile into unseen cards. Only OpenSpiel uses it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from games.dominion.state import DominionState
from games.interop.chance import Dealer, Forced, adopt
from games.state import State


class ChanceDominion(Forced, DominionState):
    """A Dominion position whose draws from the unseen part of a pile are chance draws.
    ``unseen[p]``: how many cards at the bottom of ``p``'s draw pile nobody has seen
    (held in no particular order); the cards above them were put there face up or
    known."""

    unseen: list[int]

    def _refill(self, p: int) -> bool:
        if self.deck[p]:
            return True
        if not self.discard[p]:
            return False
        self.deck[p], self.discard[p] = sorted(self.discard[p]), []
        self.unseen[p] = len(self.deck[p])
        return True

    def top(self, p: int) -> int:
        if not self._refill(p):
            return -1
        deck = self.deck[p]
        if len(deck) > self.unseen[p]:
            return deck.pop()  # a known card on top
        card = self.chance(deck)
        deck.remove(card)
        self.unseen[p] -= 1
        return card

    def clone(self) -> ChanceDominion:
        twin = adopt(ChanceDominion, DominionState.clone(self))
        twin.unseen = list(self.unseen)
        return twin  # type: ignore[return-value]


class DominionDealer(Dealer):
    @property
    def max_outcomes(self) -> int:  # type: ignore[override]
        from games.dominion.cards import NC
        return NC

    def outcome_text(self, outcome: int) -> str:
        from games.dominion.cards import CARDS
        return "draw " + CARDS[outcome].key

    def opening(self, seed: int) -> State:
        state = adopt(ChanceDominion, self.bridge.new_state(seed))
        for p in range(state.n):  # the opening hands go back into the unseen decks
            state.deck[p], state.hand[p] = sorted(state.deck[p] + state.hand[p]), []
        state.unseen = [len(d) for d in state.deck]
        return state

    def redeal(self, state: Any) -> None:
        for p in range(state.n):
            state.draw(p, 5)
        state._start_turn()
        state._advance()

    def resample(self, state: Any, player: int, rng: np.random.Generator) -> State:
        """The view's deal of the opponents' hidden cards; ``player``'s own draw pile as it
        lies (its unseen part is drawn by chance anyway); every opponent's draw pile unseen
        (what ``player`` may have seen put on it is dealt again)."""
        out = state.view(player, rng)
        out.deck[player] = list(state.deck[player])
        out.unseen = [len(d) for d in out.deck]
        out.unseen[player] = state.unseen[player]
        return out


#: the game's dealer, found by :func:`games.interop.chance.dealer_for`
DEALER = DominionDealer
