"""Splendor's chance outcomes under OpenSpiel (:mod:`games.interop.chance`): a card turned face
up from a tier's deck, or reserved blind from it (one per move at most); the opening board
and nobles are public and come from the game's seed. Only OpenSpiel uses it; the engine's
own play is untouched.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from games.interop.chance import DEAL, Dealer, Outcomes, shares
from games.state import State


class SplendorDealer(Dealer):
    """A Splendor move draws at most one card; its outcome is swapped to the deck's next
    position before the move is played (the compiled rules then turn it up)."""

    max_outcomes = 90  # card ids

    def outcome_text(self, outcome: int) -> str:
        from games.splendor._state import card_text
        return "draw " + card_text(outcome)

    def resolve(self, before: Any, step: Hashable, forced: list[int]) -> State | Outcomes:
        from games.splendor._rules import DECK_OFF, O_DECK, O_DPTR, TIER_SIZE
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


#: the game's dealer, found by :func:`games.interop.chance.dealer_for`
DEALER = SplendorDealer
