"""The toy's OpenSpiel/PettingZoo codec, found by presence as ``CODEC``: a move (the card
bought, or ``pass``) is its index in :data:`MOVES`; a seat sees both decks (every buy is
public), the hand of the seat to move and the Provinces left; the order of the decks is
hidden (each hand is a chance draw: ``dealer.py``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from games.interop.bridge import Bridge, counts
from games.state import State

from .game import CARDS, ToyState

MOVES = ("pass", "silver", "gold", "province")


class ToyCodec(Bridge):
    game = "toy-deckbuilder"
    player_range = (2, 2)

    @property
    def max_length(self) -> int:
        return 2 * int(self.options["cap"]) + 2

    def num_actions(self) -> int:
        return len(MOVES)

    def encode(self, move: Hashable) -> int:
        return MOVES.index(move)

    def observation(self, state: Any, player: int) -> str:
        s: ToyState = state
        decks = "; ".join(f"deck {q}: " + ",".join(sorted(d)) for q, d in enumerate(s.decks))
        return (f"seat {player}; seat {s.current_player()} to move; round {s.turn}; "
                f"provinces {s.provinces}; hand {','.join(sorted(s.hand))}; {decks}")

    def tensor_size(self) -> int:
        return 3 * len(CARDS) + 3

    def tensor(self, state: Any, player: int) -> np.ndarray:
        s: ToyState = state
        ids = {c: i for i, c in enumerate(CARDS)}
        parts = [counts([ids[c] for c in s.hand], len(CARDS))]
        parts += [counts([ids[c] for c in s.decks[(player + k) % 2]], len(CARDS))
                  for k in (0, 1)]
        parts.append(np.asarray([s.provinces, s.turn, float(s.current_player() == player)],
                                dtype=np.float32))
        return np.concatenate(parts)

    def determinize(self, state: Any, player: int, rng: np.random.Generator) -> State:
        out = state.clone()  # the hand is seen; only the future draws are unknown
        out.rng = np.random.default_rng(int(rng.integers(2**63)))
        return out


#: the game's codec, found by :func:`games.interop.bridge.codec_for`
CODEC = ToyCodec
