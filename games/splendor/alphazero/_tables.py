"""Card, noble and gem-combination tables of the referee engine, and the maps between them
and our ids.

The referee keeps a card as two rows of 7 int8 (cost per colour; the colour it gives,
one-hot, with its points in column 6), grouped by tier then by a group of one colour, and
its deck of a tier as a count and a bit field per group. A card is known by (tier, group,
index); we match it to our card id by tier, colour, points and cost, which are unique.
:func:`tables_from_ours` builds tables of the same layout from our own data, so the
conversion can be tested without the referee's checkout.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from games.core import InputError
from games.splendor._cards import COLOUR, COST, N_CARDS, N_NOBLES, NOBLE_REQ, POINTS, TIER

N_COLOURS = 5
POINTS_COL = 6
BIT = np.array([128, 64, 32, 16, 8, 4, 2, 1], dtype=np.int64)  # index i of a group: bit i


def gem_combinations(most: int) -> np.ndarray:
    """Every set of 1..``most`` different colours as 7-wide rows, in the referee's order
    (by size, then lexicographic): the rows of its take and give-back moves."""
    rows = []
    for n in range(1, most + 1):
        for comb in itertools.combinations(range(N_COLOURS), n):
            row = np.zeros(7, dtype=np.int8)
            row[list(comb)] = 1
            rows.append(row)
    return np.array(rows, dtype=np.int8)


@dataclass(frozen=True)
class Tables:
    """The referee's tables: ``cards[t]`` (groups, per group, 2, 7), ``nobles`` (10, 7),
    ``takes`` (sets of up to 3 colours) and ``gives`` (up to 2)."""

    cards: tuple[np.ndarray, np.ndarray, np.ndarray]
    nobles: np.ndarray
    takes: np.ndarray
    gives: np.ndarray
    ids: dict[tuple[int, int, int], int] = field(init=False, repr=False)
    where: dict[int, tuple[int, int, int]] = field(init=False, repr=False)
    noble_ids: dict[bytes, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        ours = {(int(TIER[c]), int(COLOUR[c]), int(POINTS[c]),
                 tuple(int(v) for v in COST[c, :N_COLOURS])): c for c in range(N_CARDS)}
        ids: dict[tuple[int, int, int], int] = {}
        for t, groups in enumerate(self.cards):
            for g in range(groups.shape[0]):
                for i in range(groups.shape[1]):
                    cost, gain = groups[g, i, 0], groups[g, i, 1]
                    key = (t, int(np.argmax(gain[:N_COLOURS])), int(gain[POINTS_COL]),
                           tuple(int(v) for v in cost[:N_COLOURS]))
                    if key not in ours:
                        raise InputError(f"the referee's tier {t + 1} card {g}/{i} "
                                         f"(cost {key[3]}, {key[2]} points) is none of ours")
                    ids[(t, g, i)] = ours[key]
        if sorted(ids.values()) != list(range(N_CARDS)):
            raise InputError(f"the referee's cards are not our {N_CARDS} cards")
        req = {bytes(NOBLE_REQ[n, :N_COLOURS].astype(np.int8)): n for n in range(N_NOBLES)}
        nob = {}
        for row in self.nobles:
            key = bytes(row[:N_COLOURS].astype(np.int8))
            if key not in req:
                raise InputError(f"the referee's noble {row[:N_COLOURS].tolist()} is none "
                                 "of ours")
            nob[key] = req[key]
        object.__setattr__(self, "ids", ids)
        object.__setattr__(self, "where", {c: k for k, c in ids.items()})
        object.__setattr__(self, "noble_ids", nob)

    def encode(self, card: int) -> np.ndarray:
        """The two rows of our card ``card`` (zeros for an empty slot, ``card`` < 0)."""
        if card < 0:
            return np.zeros((2, 7), dtype=np.int8)
        t, g, i = self.where[int(card)]
        return self.cards[t][g, i]

    def decode(self, rows: np.ndarray, tier: int | None = None) -> int:
        """Our id of a card's two rows (-1 for an empty slot)."""
        if not rows[0, :N_COLOURS].any():
            return -1
        colour = int(np.argmax(rows[1, :N_COLOURS]))
        for t in ((tier,) if tier is not None else range(3)):
            groups = self.cards[t]
            for g in range(groups.shape[0]):
                if int(np.argmax(groups[g, 0, 1, :N_COLOURS])) != colour:
                    continue
                for i in range(groups.shape[1]):
                    if np.array_equal(groups[g, i], rows):
                        return self.ids[(t, g, i)]
        raise ValueError(f"no card has the rows {rows.tolist()}")

    def noble_rows(self, noble: int) -> np.ndarray:
        """The referee's row of our noble ``noble``."""
        for row in self.nobles:
            if self.noble_ids[bytes(row[:N_COLOURS].astype(np.int8))] == noble:
                return row
        raise ValueError(f"no noble {noble}")

    def noble_id(self, row: np.ndarray) -> int:
        return self.noble_ids[bytes(row[:N_COLOURS].astype(np.int8))]


def tables_from_ours(seed: int = 0) -> Tables:
    """Tables in the referee's layout made from our own card data, groups in a shuffled
    colour order and cards in a shuffled order per group (the tests' stand-in)."""
    rng = np.random.default_rng(seed)
    tiers = []
    for t in range(3):
        groups = []
        for colour in rng.permutation(N_COLOURS):
            ids = [c for c in range(N_CARDS) if TIER[c] == t and COLOUR[c] == colour]
            rows = []
            for c in rng.permutation(ids):
                card = np.zeros((2, 7), dtype=np.int8)
                card[0, :N_COLOURS] = COST[c, :N_COLOURS]
                card[1, int(COLOUR[c])] = 1
                card[1, POINTS_COL] = POINTS[c]
                rows.append(card)
            groups.append(rows)
        tiers.append(np.array(groups, dtype=np.int8))
    nobles = np.zeros((N_NOBLES, 7), dtype=np.int8)
    nobles[:, :N_COLOURS] = NOBLE_REQ[:N_NOBLES, :N_COLOURS]
    nobles[:, POINTS_COL] = 3
    return Tables((tiers[0], tiers[1], tiers[2]), nobles[rng.permutation(N_NOBLES)],
                  gem_combinations(3), gem_combinations(2))
