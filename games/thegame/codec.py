"""The Game's OpenSpiel/PettingZoo codec (the per-game part of :mod:`games.interop.bridge`,
found by presence as ``CODEC``): ``(card, pile)`` is ``(card - 2) * piles + pile`` (4
piles printed), ending a turn is the last id; a seat sees its own hand, the piles and the draw pile's size (the
order of the draw pile and the other hands are hidden). Utility: minus the cards left, the
game's own score. Which draws are chance outcomes: :mod:`games.thegame.dealer`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from games.interop.bridge import Bridge, counts
from games.state import State


class TheGameBridge(Bridge):
    game = "thegame"
    max_length = 2 * 98 + 10
    player_range = (1, 5)
    default_players = 1

    def __init__(self, options: Any, players: int) -> None:
        # the table's size is an option of the game, which the player count sets
        super().__init__({**dict(options), "players": players}, players)

    def check_players(self, players: int) -> int:
        return int(self.options.players)

    @property
    def piles(self) -> int:
        return int(self.options.piles)

    def num_actions(self) -> int:
        return 98 * self.piles + 1

    def encode(self, move: Hashable) -> int:
        card, pile = move
        return 98 * self.piles if pile < 0 else (card - 2) * self.piles + pile

    def utility_range(self) -> tuple[float, float]:
        return -98.0, 0.0

    def utility(self, state: Any) -> list[float]:
        return [-s for s in state.scores()]

    def observation(self, state: Any, player: int) -> str:
        g = state
        others = [len(h) for q, h in enumerate(g.hands) if q != player]
        half = len(g.tops) // 2
        return (f"seat {player}, seat {g.current_player()} to move; piles up "
                f"{' '.join(map(str, g.tops[:half]))}, down "
                f"{' '.join(map(str, g.tops[half:]))}; "
                f"hand {' '.join(map(str, g.hands[player]))}; "
                f"laid this turn {g.laid_now} of {g.minimum}; draw pile "
                f"{len(g.draw)}; other hands {others}")

    def tensor_size(self) -> int:
        return 100 + self.piles + 5

    def tensor(self, state: Any, player: int) -> np.ndarray:
        g = state
        out = np.zeros(self.tensor_size(), dtype=np.float32)
        out[:100] = counts(g.hands[player], 100)
        out[100:100 + self.piles] = np.asarray(g.tops, dtype=np.float32) / 100.0
        out[100 + self.piles:] = (len(g.draw) / 98.0, g.laid_now, g.minimum,
                     float(g.current_player() == player), g.cards_left() / 98.0)
        return out

    def determinize(self, state: Any, player: int, rng: np.random.Generator) -> State:
        out = state.clone()
        others = [q for q in range(len(out.hands)) if q != player]
        pool = list(out.draw) + [c for q in others for c in out.hands[q]]
        pool = [pool[i] for i in rng.permutation(len(pool))]
        for q in others:
            k = len(out.hands[q])
            out.hands[q], pool = sorted(pool[:k]), pool[k:]
        out.draw = pool
        return out


#: the game's codec, found by :func:`games.interop.bridge.codec_for`
CODEC = TheGameBridge
