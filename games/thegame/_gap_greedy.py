"""Gap-greedy: the rule-generic player of The Game, for any table (see
:mod:`games.thegame._variant`, which plays it). The value-function players read the printed
table (four piles, a backwards trick of 10); a study that changes those rules plays this one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from games.core import make_params, tunable

GAP_GREEDY = "gap-greedy"
SUMMARY = ("the cheapest play first (backwards tricks, then the smallest gap); more than the "
           "minimum while a play moves its pile at most lay_more_gap; any piles or trick")


@dataclass(frozen=True)
class GapGreedyParams:
    """How far past the minimum gap-greedy goes."""

    lay_more_gap: int = tunable(1, 0, 30, integer=True,
                                doc="after the minimum, keep laying while the cheapest play "
                                    "moves its pile at most this far (backwards tricks always)")


def play_gap_greedy(params: Mapping[str, Any] | None, seeds: np.ndarray, players: int,
                    hand_size: int, expert: bool, short_turn: bool, piles: int,
                    step: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cards left, backwards tricks and turns of one game per seed, gap-greedy at every
    seat."""
    from games.thegame._variant import play_variant

    prm: GapGreedyParams = make_params(GapGreedyParams, params)
    n = seeds.size
    left, back, turns = (np.zeros(n, dtype=np.int64) for _ in range(3))
    play_variant(seeds, int(piles), int(step), int(players), int(hand_size), 3 if expert else 2,
                 bool(short_turn), int(prm.lay_more_gap), left, back, turns)
    return left, back, turns
