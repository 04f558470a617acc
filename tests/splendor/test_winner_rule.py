"""Splendor's winning rule is written once (rules.seat_result): a finished game's outcome and
the search leaves' WinLoss term both give what the rule says, on many seeded positions."""

from __future__ import annotations

import numpy as np

from games.splendor._heuristics import win_loss
from games.splendor._rules import (
    O_DONE,
    O_FINAL,
    O_NCARD,
    O_NP,
    O_PTS,
    SIZE,
    outcome,
    seat_result,
)


def expected(points: list[int], cards: list[int]) -> list[int]:
    """The rule as the thesis states it: most points, then fewest development cards; first
    place shared by equal points and cards is a tie (0) for those seats."""
    best = max(zip(points, [-c for c in cards], strict=True))
    top = [(pt, -c) == best for pt, c in zip(points, cards, strict=True)]
    return [(1 if sum(top) == 1 else 0) if t else -1 for t in top]


def position(points: list[int], cards: list[int], final: int = 1) -> np.ndarray:
    s = np.zeros(SIZE, dtype=np.int64)
    s[O_NP] = len(points)
    s[O_FINAL] = final
    for p, (pt, c) in enumerate(zip(points, cards, strict=True)):
        s[O_PTS + p], s[O_NCARD + p] = pt, c
    return s


def test_outcome_and_win_loss_follow_the_one_rule():
    rng = np.random.default_rng(27)
    seen = set()
    for _ in range(400):
        players = int(rng.integers(2, 5))
        points = [int(x) for x in rng.integers(13, 17, players)]  # small ranges: many ties
        cards = [int(x) for x in rng.integers(8, 11, players)]
        s = position(points, cards)
        out = np.zeros(players, dtype=np.int64)
        outcome(s, out)
        want = expected(points, cards)
        assert out.tolist() == want, (points, cards)
        assert [seat_result(s, p) for p in range(players)] == want
        assert [win_loss(s, p) for p in range(players)] == want
        seen.add(tuple(sorted(want)))
    assert {(-1, 1), (0, 0), (-1, -1, 1), (-1, 0, 0), (0, 0, 0)} <= seen


def test_win_loss_is_zero_before_the_final_round_and_counts_once_the_game_is_done():
    s = position([16, 3], [9, 9], final=0)
    assert [win_loss(s, p) for p in range(2)] == [0, 0]
    s[O_DONE] = 1
    assert [win_loss(s, p) for p in range(2)] == [1, -1]
