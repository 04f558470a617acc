"""The turn-level State, which steps the rule machine, against the oracle (an independent
pure-Python Dominion written from the printed rules, tests/dominion/oracle): the same seed
and the same moves give the same game, move for move and shuffle for shuffle. Moves are
chosen at random among the legal ones; kingdoms are random draws of every kingdom card,
with 1-4 players."""

from __future__ import annotations

import numpy as np
import pytest

from games.dominion._cards import KINGDOM_KEYS
from games.dominion._state import DominionState
from tests.dominion.oracle.state import DominionState as Oracle


def _table(st) -> tuple:
    """Everything both implementations show: who moves, the options, every zone (the
    draw piles in order), the supply, the trash, the turn's counters."""
    return (st.current_player(), [tuple(m) for m in st.legal_moves()],
            [sorted(h) for h in st.hand], [list(d) for d in st.deck],
            [sorted(d) for d in st.discard], [sorted(p) for p in st.play],
            [sorted(a) for a in st.aside], [sorted(x) for x in st.looking],
            list(st.supply), sorted(st.trash), list(st.turns), st.active,
            st.phase if not st.is_terminal() else None, st.actions, st.buys, st.coins)


def play_both(game: int, cap: int = 40) -> int:
    """Play one random game in both; returns its number of moves."""
    r = np.random.default_rng(game)
    players = int(r.integers(1, 5))
    kingdom = tuple(str(k) for k in r.choice(KINGDOM_KEYS, size=10, replace=False))
    solo = int(r.integers(1, 5)) if players == 1 else 0
    seed = int(r.integers(2**63))
    ours = DominionState.new(players, kingdom, seed=seed, cap=cap, solo=solo)
    oracle = Oracle.new(players, kingdom, seed=seed, cap=cap, solo=solo)
    moves = 0
    while True:
        assert _table(ours) == _table(oracle), (game, kingdom, players, moves)
        if ours.is_terminal():
            break
        legal = ours.legal_moves()
        move = legal[int(r.integers(len(legal)))]
        ours.apply(move)
        oracle.apply(move)
        moves += 1
    assert ours.returns() == oracle.returns() and ours.scores() == oracle.scores()
    assert ours.capped == oracle.capped
    return moves


@pytest.mark.parametrize("block", range(10))
def test_state_and_oracle_play_the_same_games(block):
    total = sum(play_both(game) for game in range(100 * block, 100 * block + 100))
    assert total > 100 * 50  # whole games, not a few moves each


def test_a_state_from_options_deals_game_zero_of_the_run_as_the_engine():
    from games import registry
    game = registry.get("dominion")
    st = game.new_state(game.check_options({}), 7, 2)
    oracle = Oracle.from_options(game.check_options({}), 7, 2)
    assert _table(st) == _table(oracle)
