"""Splendor's rules as options a balance study tunes: the points that end the game and the
nobles on the table; the printed rules stay the default."""

from __future__ import annotations

import numpy as np

from games import registry
from games.core import BotSpec
from games.splendor._rules import O_NOB, O_WIN, WIN_POINTS
from games.splendor._state import SplendorState


def test_the_printed_rules_are_the_default():
    opts = registry.get("splendor").check_options({})
    assert opts.points_to_win == WIN_POINTS == 15 and opts.nobles == 0
    s = SplendorState.new(3, 5).array
    assert s[O_WIN] == 15 and int((s[O_NOB:O_NOB + 5] >= 0).sum()) == 4


def test_the_nobles_on_the_table():
    for nobles in (1, 2, 5):
        s = SplendorState.new(2, 5, nobles=nobles).array
        assert int((s[O_NOB:O_NOB + 5] >= 0).sum()) == nobles


def test_fewer_points_to_win_end_the_game_sooner():
    game = registry.get("splendor")
    bots = [BotSpec("greedy"), BotSpec("greedy")]
    short = game.play(bots, game.check_options({"points_to_win": 6}), 3, 0, 300)
    printed = game.play(bots, game.check_options({}), 3, 0, 300)
    assert short.turns.mean() + 5 < printed.turns.mean()
    finished = ~short.capped
    assert np.all(short.score[finished].max(axis=1) >= 6)
    assert np.all(short.score[finished].max(axis=1) < 6 + 15)  # ended in that round
