"""The table as a rule: piles (2-8) and the backwards trick's step, played by gap-greedy.

The batch kernel (games.thegame._variant) is checked game by game against gap-greedy played
move by move on the turn-level State, whose rules are written separately: same deals, same
cards left, backwards tricks and turns, on printed and changed tables."""

from __future__ import annotations

import numpy as np
import pytest

from games.core import BotSpec, InputError, game_seeds
from games.thegame._gap_greedy import play_gap_greedy
from games.thegame._state import END_TURN, TheGameState
from games.thegame.game import GAME


def _cost(state: TheGameState, card: int, pile: int) -> int:
    top = state.tops[pile]
    if pile < state.piles // 2:
        return card - top if card > top else -state.step
    return top - card if card < top else -state.step


def _short_turn(state: TheGameState, limit: int) -> list[tuple[int, int]]:
    """The first longest sequence of at most ``limit`` plays, in (card, pile) order."""
    best: list[tuple[int, int]] = []

    def walk(st: TheGameState, seq: list[tuple[int, int]]) -> None:
        nonlocal best
        if len(seq) > len(best):
            best = list(seq)
        if len(seq) == limit:
            return
        for move in sorted(st.plays()):
            twin = st.clone()
            twin.hands[twin.player].remove(move[0])
            twin.tops[move[1]] = move[0]
            walk(twin, [*seq, move])

    walk(state, [])
    return best


def _oracle(seed: int, players: int, hand: int, expert: bool, short_turn: bool, piles: int,
            step: int, gap: int) -> tuple[int, int, int]:
    """(cards left, backwards tricks, turns) of one game of gap-greedy on the State."""
    st = TheGameState(seed, players, expert, hand, piles, step)
    back = turns = 0
    while not st.is_terminal():
        start, back0 = st.clone(), back
        while True:  # one turn
            plays = st.plays()
            if not plays:
                break
            cost, card, pile = min((_cost(st, c, p), c, p) for c, p in plays)
            if st.laid_now >= st.minimum and cost > gap:
                break
            back += cost < 0
            st.apply((card, pile))
            if st.is_terminal():
                break
        turns += 1
        if st.lost or (st.laid_now < st.minimum and not st.is_terminal()):
            back, laid = back0, start.laid  # the short turn, as the engine plays it
            if short_turn:
                for card, pile in _short_turn(start, start.minimum - 1):
                    back += _cost(start, card, pile) < 0
                    start.tops[pile] = card
                    laid += 1
            return 98 - laid, back, turns
        if st.is_terminal():
            break
        st.apply(END_TURN)
        turns += st.lost  # the next seat can lay nothing at all: a turn of no plays
    return st.cards_left(), back, turns


@pytest.mark.parametrize("players, hand, expert, short_turn, piles, step, gap", [
    (1, 8, False, True, 4, 10, 1),
    (2, 7, False, False, 4, 10, 3),
    (3, 6, True, True, 6, 7, 2),
    (2, 7, False, True, 2, 0, 0),
    (5, 5, True, False, 8, 10, 5),
    (1, 6, False, True, 4, 3, 1),
])
def test_the_kernel_plays_the_states_games(players, hand, expert, short_turn, piles, step, gap):
    seeds = game_seeds(7, 60)
    left, back, turns = play_gap_greedy({"lay_more_gap": gap}, seeds, players, hand, expert,
                                        short_turn, piles, step)
    for g, seed in enumerate(seeds):
        want = _oracle(int(seed), players, hand, expert, short_turn, piles, step, gap)
        assert (int(left[g]), int(back[g]), int(turns[g])) == want, (g, want)


def test_more_piles_and_the_trick_help_the_table():
    def win_rate(**rules):
        opts = GAME.check_options({"players": 1, **rules})
        out = GAME.play([BotSpec("gap-greedy")], opts, 5, 0, 3000)
        return float((out.score[:, 0] == 0).mean())
    printed, six, no_trick = win_rate(), win_rate(piles=6), win_rate(backwards=0)
    assert six > printed + 0.5 and no_trick < printed


def test_the_state_and_bridge_follow_the_table():
    st = GAME.new_state(GAME.check_options({"piles": 6, "backwards": 5}), 3, 1)
    assert st.tops == [1, 1, 1, 100, 100, 100]
    assert {p for _, p in st.plays()} == set(range(6))
    st.tops[0] = 50
    assert st.piles == 6 and st.step == 5
    from games.thegame._state import may_lay
    assert may_lay(0, 6, 50, 45, 5) and not may_lay(0, 6, 50, 40, 5)
    assert may_lay(3, 6, 50, 55, 5) and not may_lay(3, 6, 50, 60, 5)
    assert not may_lay(0, 6, 50, 45, 0)


def test_the_value_players_refuse_another_table_and_bad_tables_are_one_line():
    opts = GAME.check_options({"piles": 6})
    with pytest.raises(InputError, match="printed table"):
        GAME.play([BotSpec("recovery-fallback")], opts, 1, 0, 2)
    with pytest.raises(InputError, match="even"):
        GAME.check_options({"piles": 5})
    with pytest.raises(InputError, match="backwards"):
        GAME.check_options({"backwards": 31})
    with pytest.raises(InputError, match="depth"):
        GAME.play([BotSpec("gap-greedy")], GAME.check_options({"depth": 1}), 1, 0, 2)
    with pytest.raises(InputError, match="piles"):
        TheGameState(1, piles=10)


def test_the_printed_table_is_the_default():
    a = GAME.play([BotSpec("gap-greedy")], GAME.check_options({}), 2, 0, 500)
    b = GAME.play([BotSpec("gap-greedy")], GAME.check_options({"piles": 4, "backwards": 10}),
                  2, 0, 500)
    assert np.array_equal(a.score, b.score)
    st = TheGameState(9)
    assert st.tops == [1, 1, 100, 100] and st.step == 10
