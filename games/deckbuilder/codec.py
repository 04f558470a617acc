"""The deck-building model's OpenSpiel/PettingZoo codec (the per-game part of
:mod:`games.interop.bridge`, found by presence as ``CODEC``): ``pass`` is 0, card ``i`` of
the set is ``i + 1``; solo and fully seen but for the future draws. Utility: the deck's
points. Which draws are chance outcomes: :mod:`games.deckbuilder.dealer`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from games.interop.bridge import Bridge
from games.state import State


class DeckbuilderBridge(Bridge):
    game = "deckbuilder"
    perfect_information = True  # solo and seen whole, but for the future draws

    def __init__(self, options: Any, players: int) -> None:
        super().__init__(options, players)
        self.cards = self.new_state(0).card_set  # the set the options describe
        self.index = {c.name: i + 1 for i, c in enumerate(self.cards.cards)}

    @property
    def max_length(self) -> int:
        return int(self.options.turns) + 1

    def num_actions(self) -> int:
        return len(self.cards.cards) + 1

    def encode(self, move: Hashable) -> int:
        return self.index.get(move, 0)

    def utility_range(self) -> tuple[float, float]:
        start = sum(k * self.cards.card(n).points for n, k in self.cards.start)
        best = max(c.points for c in self.cards.cards)
        low = min([0] + [c.points for c in self.cards.cards])
        return float(start + low * self.options.turns), float(start + best * self.options.turns)

    def utility(self, state: Any) -> list[float]:
        return state.scores()

    def observation(self, state: Any, player: int) -> str:
        s = state
        owned = ", ".join(f"{n} {k}" for n, k in s.counts.items())
        return f"turn {s.turn + 1} of {s.turns}; money {s.money}; deck {owned}"

    def tensor_size(self) -> int:
        return len(self.cards.cards) + 2

    def tensor(self, state: Any, player: int) -> np.ndarray:
        s = state
        return np.asarray(list(s.counts.values()) + [s.money, s.turn],
                          dtype=np.float32)

    def determinize(self, state: Any, player: int, rng: np.random.Generator) -> State:
        out = state.clone()
        out.rng = np.random.default_rng(int(rng.integers(2**63)))
        return out


#: the game's codec, found by :func:`games.interop.bridge.codec_for`
CODEC = DeckbuilderBridge
