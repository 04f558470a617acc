"""Each game's chance outcomes under OpenSpiel (:mod:`games.interop.chance`): which draws
are chance draws, and a state class whose draws take them.

- Splendor: a card turned face up from a tier's deck, or reserved blind from it (one per
  move at most); the opening board and nobles are public and come from the game's seed.
- Dominion: every card drawn, looked at or revealed from the unseen part of a draw pile,
  the opening hands included; a card put on top of a pile (Artisan, Bureaucrat, Sentry) is
  drawn as it lies. A reshuffle just turns the discard pile into unseen cards.
- The Game: the opening hands and every card drawn at the end of a turn.
- Deck-building model: each card of each turn's hand.

The engines' own play (batch kernels, matches, our search bots) is untouched: the chance
state classes here exist only under OpenSpiel.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from games.deckbuilder.state import DeckbuilderState
from games.dominion.state import DominionState
from games.interop.chance import DEAL, Dealer, Forced, Outcomes, adopt, shares
from games.state import State
from games.thegame.state import TheGameState


# ---- Splendor
class SplendorDealer(Dealer):
    """A Splendor move draws at most one card; its outcome is swapped to the deck's next
    position before the move is played (the compiled rules then turn it up)."""

    max_outcomes = 90  # card ids

    def outcome_text(self, outcome: int) -> str:
        from games.splendor.state import card_text
        return "draw " + card_text(outcome)

    def resolve(self, before: Any, step: Hashable, forced: list[int]) -> State | Outcomes:
        from games.splendor.rules import DECK_OFF, O_DECK, O_DPTR, TIER_SIZE
        if step == DEAL:
            return before.clone()
        trial = before.clone()
        trial.apply(step)
        moved = [t for t in range(3) if trial.array[O_DPTR + t] != before.array[O_DPTR + t]]
        if not moved:
            return trial
        (t,) = moved
        base, ptr = int(O_DECK + DECK_OFF[t]), int(before.array[O_DPTR + t])
        unseen = before.array[base + ptr:base + int(TIER_SIZE[t])]
        if not forced:
            return shares(unseen.tolist())
        where = np.flatnonzero(unseen == forced[0])
        if len(forced) > 1 or not len(where):
            raise ValueError(f"chance outcome {forced[-1]} is not among the unseen cards")
        out = before.clone()
        a, k = out.array, base + ptr + int(where[0])
        a[base + ptr], a[k] = a[k], a[base + ptr]
        out.apply(step)
        return out


# ---- Dominion
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


# ---- The Game
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
        from games.thegame.rules import hand_size_for
        size = hand_size_for(len(state.hands))
        for hand in state.hands:
            hand.extend(state._take() for _ in range(size))
            hand.sort()
        state.minimum = state._minimum()


# ---- deck-building model
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
DEALERS: dict[str, type[Dealer]] = {"splendor": SplendorDealer, "dominion": DominionDealer,
                                    "thegame": TheGameDealer,
                                    "deckbuilder": DeckbuilderDealer}
