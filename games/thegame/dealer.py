"""The Game's chance outcomes under OpenSpiel (:mod:`games.interop.chance`): the opening hands
and every card drawn at the end of a turn. Only OpenSpiel uses it.
"""

from __future__ import annotations

from typing import Any

from games.interop.chance import Dealer, Forced, adopt
from games.state import State
from games.thegame._state import TheGameState


class ChanceTheGame(Forced, TheGameState):
    """A position of The Game whose draw pile is unseen cards drawn by chance."""

    def _take(self) -> int:
        card = self.chance(self.draw)
        self.draw.remove(card)
        return card

    def clone(self) -> ChanceTheGame:
        twin = adopt(ChanceTheGame, TheGameState.clone(self))
        return twin  # type: ignore[return-value]


class TheGameDealer(Dealer):
    max_outcomes = 100  # card values 2 .. 99

    def outcome_text(self, outcome: int) -> str:
        return f"draw {outcome}"

    def opening(self, seed: int) -> State:
        state = adopt(ChanceTheGame, self.bridge.new_state(seed))
        state.draw = sorted(state.draw + [c for h in state.hands for c in h])
        state.hands = [[] for _ in state.hands]
        return state

    def redeal(self, state: Any) -> None:
        for hand in state.hands:
            hand.extend(state._take() for _ in range(state.hand_size))
            hand.sort()
        state.minimum = state._minimum()


#: the game's dealer, found by :func:`games.interop.chance.dealer_for`
DEALER = TheGameDealer
