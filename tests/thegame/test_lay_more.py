"""Laying more than the minimum (fallback-lay-more): the rule against brute force, the
engine's turns, and every other player left at exactly the minimum."""

from __future__ import annotations

import numpy as np
import pytest

from games.thegame import build_params, encode
from games.thegame._positions import extra_choice, position_value
from games.thegame._rules import legal_plays
from games.thegame._simulate import trace_game
from games.thegame._values import P_LAY_MARGIN
from tests.thegame.test_search import positions, v_deep

PLAYER = "fallback-lay-more"


@pytest.mark.parametrize("depth", [0, 1])
@pytest.mark.parametrize("margin", [0.0, 1.5])
def test_one_more_card_exactly_when_it_beats_the_position_by_the_margin(depth, margin):
    params = {"lay_margin": margin}
    laid_more = stopped = 0
    for tops, hand, laid, unknown in positions(10, seed=3):
        hand = hand[:6]  # the hand after a turn's two cards
        stay = position_value(PLAYER, params, tops, hand, laid, unknown=unknown)
        plays = legal_plays(tops, hand)
        children = {p: v_deep(PLAYER, params, tops, hand, laid, [p], unknown, max(depth - 1, 0))
                    for p in plays}
        chosen = extra_choice(PLAYER, params, tops, hand, laid, depth, unknown=unknown)
        best = max(children.values(), default=-np.inf)
        if best > stay + margin + 1e-9 * abs(stay):
            assert chosen is not None
            assert children[chosen] == pytest.approx(best, rel=1e-9)
            laid_more += 1
        elif best < stay + margin - 1e-9 * abs(stay):
            assert chosen is None
            stopped += 1
    assert laid_more and stopped  # both branches were checked


def test_other_players_never_lay_more():
    for name in ("recovery-fallback", "recovery-distance", "real-capacity"):
        assert encode(name, build_params(name))[P_LAY_MARGIN] == np.inf
    assert encode(PLAYER, build_params(PLAYER, {"lay_margin": 0.5}))[P_LAY_MARGIN] == 0.5


def _plays_per_turn(player, params, seed):
    _, plays = trace_game(player, params, 0, seed, 0)
    turns = [t for _, _, t in plays]
    return [turns.count(t) for t in range(max(turns) + 1)], len(plays)


def test_engine_lays_more_and_the_fitted_player_without_it_does_not():
    fitted = {k: v for k, v in build_params(PLAYER).__dict__.items()
              if k not in ("lay_margin", "held_bridge")}
    more_turns = 0
    for seed in range(4):
        counts, _ = _plays_per_turn(PLAYER, {"lay_margin": 0.0}, seed)
        assert all(c >= 1 for c in counts)
        more_turns += sum(c > 2 for c in counts)
        base, _ = _plays_per_turn("recovery-fallback", fitted, seed)
        assert all(c <= 2 for c in base)
    assert more_turns > 0


def test_held_bridges_cost_their_share_of_alpha():
    """Card 25 behind top 30 has its one bridge, 35, in the hand; no other card has all of
    its bridges there, and every other pile takes 25: v falls by exactly alpha^w - 1."""
    tops, hand, laid = [30, 1, 100, 100], [35, 60, 61, 62, 63, 64, 65, 66], {30}
    base = build_params(PLAYER)
    values = [position_value(PLAYER, {"held_bridge": h}, tops, hand, laid) for h in (0.0, 1.0)]
    assert values[0] - values[1] == pytest.approx(base.alpha ** base.w_first - 1.0, rel=1e-9)
    half = position_value(PLAYER, {"held_bridge": 0.5}, tops, hand, laid)
    expected = (1 + (base.alpha - 1) * 0.5) ** base.w_first - 1.0
    assert values[0] - half == pytest.approx(expected, rel=1e-9)
