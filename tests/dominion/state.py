"""Build engine state by hand for card and rule tests (same dtypes as the kernel uses)."""

from __future__ import annotations

import numpy as np

from games.dominion.cards import INDEX, NC, initial_supply
from games.dominion.engine import DISCARD, DLEN, HAND, NTS, OWNED, PLAY


class State:
    """Arrays of one game: zones, draw pile, player info, piles, turn state, rng."""

    def __init__(self, players: int = 1, kingdom: tuple[str, ...] = ("smithy",),
                 seed: int = 1) -> None:
        supply = initial_supply(max(players, 2), kingdom)
        self.supply0 = supply.copy()
        self.zones = np.zeros((players, 4, NC), dtype=np.int64)
        self.draw = np.zeros((players, 400), dtype=np.int8)
        self.pinfo = np.zeros((players, 2), dtype=np.int64)
        self.piles = np.zeros((2, NC), dtype=np.int64)
        self.piles[0] = supply
        self.ts = np.zeros(NTS, dtype=np.int64)  # actions, buys, coins, Merchants played
        self.ts[:2] = 1
        self.rng = np.array([seed], dtype=np.uint64)

    def _add(self, p: int, zone: int, cards: dict[str, int]) -> None:
        for name, n in cards.items():
            self.zones[p, zone, INDEX[name]] += n
            self.zones[p, OWNED, INDEX[name]] += n

    def hand(self, p: int = 0, **cards: int) -> State:
        self._add(p, HAND, {k.replace("_", "-"): v for k, v in cards.items()})
        return self

    def discard(self, p: int = 0, **cards: int) -> State:
        self._add(p, DISCARD, {k.replace("_", "-"): v for k, v in cards.items()})
        return self

    def deck(self, names: list[str], p: int = 0) -> State:
        """Draw pile listed top first."""
        for i, name in enumerate(reversed(names)):
            self.draw[p, self.pinfo[p, DLEN] + i] = INDEX[name]
            self.zones[p, OWNED, INDEX[name]] += 1
        self.pinfo[p, DLEN] += len(names)
        return self

    def count(self, zone: int, name: str, p: int = 0) -> int:
        return int(self.zones[p, zone, INDEX[name]])

    def hand_size(self, p: int = 0) -> int:
        return int(self.zones[p, HAND].sum())

    def in_play(self, name: str, p: int = 0) -> int:
        return self.count(PLAY, name, p)

    def args(self):
        return self.zones, self.draw, self.pinfo, self.piles, self.ts, self.rng
