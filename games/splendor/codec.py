"""Splendor's OpenSpiel/PettingZoo codec (the per-game part of :mod:`games.interop.bridge`,
found by presence as ``CODEC``): a move code is its own action id; a seat sees the game's
honest view (:meth:`SplendorState.view`: deck order and opponents' blind reserves hidden).
Which draws are chance outcomes: :mod:`games.splendor.dealer`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from games.interop.bridge import Bridge
from games.state import State


class SplendorBridge(Bridge):
    game = "splendor"
    player_range = (2, 4)

    def num_actions(self) -> int:
        from games.splendor._rules import M_PAID, M_TAKE, N_PAYMENTS
        return M_PAID + M_TAKE * N_PAYMENTS

    @property
    def max_length(self) -> int:
        return int(self.options.cap) * self.players * 6 + 10

    def encode(self, move: Hashable) -> int:
        return int(move)

    def observation(self, state: Any, player: int) -> str:
        # the honest view's array in full: compact, and hiding exactly what the view hides
        # (its describe() is readable but costs more than the rest of a step)
        return f"seat {player}: " + " ".join(map(str, state.view(player).array.tolist()))

    def text(self, state: Any) -> str:
        return " ".join(map(str, state.array.tolist()))

    def tensor_size(self) -> int:
        from games.splendor._rules import SIZE
        return SIZE

    def tensor(self, state: Any, player: int) -> np.ndarray:
        return state.view(player).array.astype(np.float32)

    def determinize(self, state: Any, player: int, rng: np.random.Generator) -> State:
        return state.view(player, sampled=True, rng=rng)


#: the game's codec, found by :func:`games.interop.bridge.codec_for`
CODEC = SplendorBridge
