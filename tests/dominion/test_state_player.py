"""Dominion's buy-list bots playing the turn-level State move by move, beside OpenSpiel's
MCTS (games.dominion.state_player)."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from games import registry
from games.core import InputError
from games.dominion.cards import COPPER, ESTATE, GOLD, INDEX, SILVER
from games.dominion.state import DominionState
from games.dominion.turns.moves import END_TURN, PLAY_TREASURES, Move

GAME = registry.get("dominion")


def _buy_phase(kingdom: tuple[str, ...], hand: list[int], owned_extra: tuple[int, ...] = ()
               ) -> DominionState:
    """Seat 0 to move in its buy phase with ``hand``; ``owned_extra`` in its discard pile."""
    st = DominionState.new(2, kingdom, rng=np.random.default_rng(7))
    st.hand[0] = list(hand)
    st.discard[0] = list(owned_extra)
    st.refresh()
    assert st.current_player() == 0 and PLAY_TREASURES in st.legal_moves()
    return st


def _buys(text: str, st: DominionState) -> Move:
    player = GAME.state_player(GAME.parse_bot(text), {}, np.random.default_rng(0))
    assert player.act(st) == PLAY_TREASURES
    st.apply(PLAY_TREASURES)
    return player.act(st)


def test_buys_follow_the_buy_list():
    rich = [GOLD, GOLD, SILVER, COPPER, ESTATE]  # $9
    # province only at 4 or fewer left (8 now): the next entry, gold
    assert _buys("province@<=4 | gold | silver", _buy_phase((), rich)) == Move("buy", "gold")
    assert _buys("province | gold", _buy_phase((), rich)) == Move("buy", "province")
    # smithy:1 with a Smithy owned already: its copy limit skips it
    smithy = INDEX["smithy"]
    st = _buy_phase(("smithy",), [SILVER, COPPER, COPPER, ESTATE, ESTATE], [smithy])
    assert _buys("smithy:1 | silver", st) == Move("buy", "silver")
    st = _buy_phase(("smithy",), [SILVER, COPPER, COPPER, ESTATE, ESTATE])
    assert _buys("smithy:1 | silver", st) == Move("buy", "smithy")
    # nothing affordable matches: the buy ends
    st = _buy_phase((), [COPPER, COPPER, ESTATE, ESTATE, ESTATE])
    assert _buys("gold | silver", st) == END_TURN


def test_mcts_against_big_money_rotates_seats_and_replays_identically():
    bots = [GAME.parse_bot("openspiel-mcts:simulations=4"), GAME.parse_bot("big-money")]
    opts = {"cap": 3}  # three rounds: a short game
    a = GAME.play(bots, opts, 11, 0, 4)
    b = GAME.play(bots, opts, 11, 0, 4)
    for key in ("seating", "outcome", "score", "turns", "capped"):
        assert np.array_equal(getattr(a, key), getattr(b, key)), key
    assert {tuple(s) for s in a.seating.tolist()} == {(0, 1), (1, 0)}
    assert a.capped.all() and (a.extra["moves"] > 0).all()


def test_a_kernel_only_bot_beside_mcts_is_refused_in_one_line():
    bots = [GAME.parse_bot("openspiel-mcts:simulations=2"), GAME.parse_bot("heuristic")]
    with pytest.raises(InputError, match="heuristic"):
        GAME.play(bots, {}, 1, 0, 1)
    from tuning.cli import app
    res = CliRunner().invoke(app, ["play", "dominion", "--bots",
                                   "openspiel-mcts:simulations=2,heuristic", "-n", "2"])
    assert res.exit_code == 2 and "heuristic" in res.output
    assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1
