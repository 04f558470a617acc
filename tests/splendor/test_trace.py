"""Traces replay the kernel's games exactly and record every decision."""

from __future__ import annotations

import pytest

from games.splendor._trace import trace_game
from games.splendor.game import GAME


@pytest.mark.parametrize("bots, options, index", [
    (["random", "greedy"], {}, 3),
    (["minimax:2", "random-search:3,20"], {"refill": "sampled"}, 1),
    (["random", "greedy2", "random"], {}, 4),
])
def test_trace_is_the_kernel_game(bots, options, index):
    trace = trace_game(bots, options, seed=7, index=index)
    out = GAME.play([GAME.parse_bot(b) for b in bots], options, 7, index, 1)
    assert trace.points == out.score[0].tolist()
    assert trace.outcome == out.outcome[0].tolist()
    assert trace.rounds == out.turns[0] and trace.capped == bool(out.capped[0])
    assert trace.seating == [GAME.parse_bot(bots[b]).label for b in out.seating[0]]
    mains = [s for s in trace.steps if s.phase == "main"]
    assert mains and all(s.text for s in trace.steps)
    text = trace.render()
    assert "seat 0" in text and "F =" in text and text.count("tier 3") >= len(mains)
