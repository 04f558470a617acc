"""Hand size as a rule: every hand (the opening one and each clean-up's) holds the chosen
number of cards, in the batch engine and on the State alike; five is the printed game."""

from __future__ import annotations

import json

import numpy as np
import pytest

from games.core import BotSpec, InputError
from games.dominion._cards import NC
from games.dominion._engine import HAND
from games.dominion._match import _play_games
from games.dominion._options import GameConfig
from games.dominion._state import DominionState
from games.dominion.game import GAME


def _hand(state: DominionState, seat: int) -> int:
    return int(state.zones[seat, HAND, :NC].sum())


@pytest.mark.parametrize("size", [3, 5, 7])
def test_every_hand_holds_the_chosen_number_of_cards(size):
    st = DominionState.new(2, ["smithy"], seed=11, hand_size=size)
    assert _hand(st, 0) == size and _hand(st, 1) == size
    mover = st.current_player()
    turns = 0
    while not st.is_terminal() and turns < 6:  # end turns at once: clean-up redraws
        moves = st.legal_moves()
        end = [m for m in moves if "end" in st.move_to_string(m).lower()]
        st.apply(end[0] if end else moves[0])
        if st.current_player() != mover:
            assert _hand(st, mover) == size, (size, turns)
            mover = st.current_player()
            turns += 1
    assert turns == 6


def test_five_is_the_printed_game_and_other_sizes_change_it():
    bots = [BotSpec("big-money"), BotSpec("smithy-big-money")]
    printed = _play_games(bots, 4, 0, 200)
    five = _play_games(bots, 4, 0, 200, config=GameConfig(hand_size=5))
    assert np.array_equal(printed.vp, five.vp) and np.array_equal(printed.turns, five.turns)
    turns = [_play_games(bots, 4, 0, 400, config=GameConfig(hand_size=h)).turns.mean()
             for h in (4, 5, 6)]
    assert turns[0] > turns[1] + 3 and turns[1] > turns[2] + 2  # bigger hands buy faster


def test_the_state_plays_the_engines_games_under_another_hand_size():
    specs = [GAME.check_bot(GAME.parse_bot(t)) for t in ("big-money", "smithy-big-money")]
    for size in (4, 6):
        opts = GAME.check_options({"hand_size": size})
        for seed in (3, 4):
            engine = GAME.play(specs, opts, seed, 0, 1)
            st = GAME.new_state(opts, seed, 2)
            players = [GAME.state_player(s, opts, np.random.default_rng(0)) for s in specs]
            while not st.is_terminal():
                st.apply(players[st.current_player()].act(st))
            assert st.scores() == engine.score[0].tolist(), (size, seed)
            assert st.turns[0] == engine.turns[0]


def test_a_bad_hand_size_is_one_line():
    from typer.testing import CliRunner

    from tuning.cli import app
    with pytest.raises(InputError, match="hand size"):
        DominionState.new(2, [], hand_size=0)
    with pytest.raises(InputError, match="hand_size"):
        GAME.check_options({"hand_size": 11})
    play = ["play", "dominion", "--bots", "big-money,big-money"]
    res = CliRunner().invoke(app, [*play, "-n", "10", "--hand-size", "0"])
    assert res.exit_code == 2 and "hand_size" in res.output
    res = CliRunner().invoke(app, [*play, "-n", "200", "--hand-size", "6", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["mean_turns"] < 15
