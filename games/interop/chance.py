"""Draws as chance outcomes: the part of the OpenSpiel game (:mod:`games.interop.openspiel`)
that keeps the future out of a state.

Our states carry their own future (a shuffled deck, a seeded generator), so a copy of one
would draw the same cards as the real game. Under OpenSpiel every card taken from a pile
that nobody has seen is instead a chance outcome, chosen when it is drawn: the game's
:class:`Dealer` replays the move being resolved from the position before it, with the
outcomes chosen so far forced onto the draws, until the move needs no further outcome. A
copy of a position therefore knows nothing the players do not: what it draws next is
whatever the chance outcomes (a search's own sampling, or the real game's) make it.

A chance outcome is the id of the card drawn (:meth:`Dealer.outcome_text` names it); its
probability is the share of that card among the unseen cards the draw comes from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from games.state import State

#: the pending step that deals a new game (rather than a move)
DEAL = "deal"

Outcomes = list[tuple[int, float]]


class NeedChance(Exception):  # noqa: N818  (a signal, not an error)
    """A draw past the forced outcomes: the step needs one more chance outcome."""

    def __init__(self, outcomes: Outcomes) -> None:
        super().__init__("a chance outcome is needed")
        self.outcomes = outcomes


def shares(pool: Sequence[int]) -> Outcomes:
    """Each distinct card of ``pool`` with its share of the pool, sorted by card id."""
    count = Counter(int(c) for c in pool)
    return [(c, count[c] / len(pool)) for c in sorted(count)]


class Forced:
    """Mixin of a state whose draws of unseen cards take forced outcomes in turn
    (:class:`NeedChance` once they run out)."""

    forced: list[int] = []
    at: int = 0

    def chance(self, pool: Sequence[int]) -> int:
        """The card drawn from the unseen cards ``pool`` (an id in ``pool``)."""
        if self.at >= len(self.forced):
            raise NeedChance(shares(pool))
        card = self.forced[self.at]
        if card not in pool:
            raise ValueError(f"chance outcome {card} is not among the unseen cards")
        self.at += 1
        return card


def adopt(cls: type, state: Any) -> Any:
    """``state``'s fields in a new instance of ``cls`` (a chance subclass of its class)."""
    out = cls.__new__(cls)
    out.__dict__.update(state.__dict__)
    return out


class Dealer:
    """One game's chance outcomes: its opening deal and its moves, replayed with forced
    outcomes (see the module text). A game writes :meth:`redeal` (and its chance state
    class); Splendor, whose engine draws inside a compiled kernel, writes :meth:`step`."""

    #: chance outcome ids lie in 0 .. max_outcomes - 1
    max_outcomes: int = 1

    def __init__(self, bridge: Any) -> None:
        self.bridge = bridge

    def outcome_text(self, outcome: int) -> str:
        return f"draw {outcome}"

    def opening(self, seed: int) -> State:
        """The seeded deal, made ready to replay its draws (public parts stay seeded)."""
        return self.bridge.new_state(seed)

    def redeal(self, state: Any) -> None:
        """Draw the opening hands of ``state`` (a copy of :meth:`opening`) as chance draws."""

    def resolve(self, before: Any, step: Hashable, forced: list[int]) -> State | Outcomes:
        """The position after ``step`` (a move, or :data:`DEAL`) with ``forced`` outcomes,
        or the outcomes of the next chance draw it needs."""
        trial = before.clone()
        trial.forced, trial.at = list(forced), 0
        try:
            if step == DEAL:
                self.redeal(trial)
            else:
                self.step(trial, step)
        except NeedChance as need:
            return need.outcomes
        trial.forced, trial.at = [], 0
        return trial

    def step(self, state: Any, move: Hashable) -> None:
        """Play ``move`` on ``state`` (a copy of the position before it) in place."""
        state.apply(move)

    def resample(self, state: Any, player: int, rng: np.random.Generator) -> State:
        """A position ``player`` cannot tell from ``state``, what it cannot see dealt at
        random (by default the bridge's determinization, made a chance state again)."""
        return self.bridge.determinize(state, player, rng)


def dealer_for(game: str) -> type[Dealer]:
    """The chance dealer a game offers: its ``dealer`` part (``DEALER`` in
    ``games/<game>/dealer.py`` for a built-in game, :mod:`games.capabilities`); found by
    presence, so the bridge names no game. ValueError when the game offers none."""
    from games import registry
    from games.capabilities import part

    dealer = part(registry.get(game), "dealer")
    if dealer is None:
        raise ValueError(f"game {game!r} offers no chance dealer")
    return dealer
