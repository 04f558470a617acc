"""Dominion's bots playing the turn-level State move by move, beside OpenSpiel's MCTS
(games.dominion._state_player): the engine's own policy, so bots play the engine's games."""

from __future__ import annotations

import numpy as np

from games import registry
from games.dominion._cards import COPPER, ESTATE, GOLD, INDEX, SILVER
from games.dominion._moves import END_TURN, PLAY_TREASURES, Move
from games.dominion._state import DominionState

GAME = registry.get("dominion")


def _buy_phase(kingdom: tuple[str, ...], hand: list[int], owned_extra: tuple[int, ...] = ()
               ) -> DominionState:
    """Seat 0 to move in its buy phase with ``hand``; ``owned_extra`` in its discard pile."""
    st = DominionState.new(2, kingdom, rng=np.random.default_rng(7))
    st.set_cards(0, hand=hand, discard=owned_extra)
    st.restart_turn()
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


def test_bots_through_the_state_play_the_engines_games():
    """Every kind of bot (buy lists, a strategy with a play order and settings, the scored
    heuristic, a learned model) decides on the State by the engine's own policy: the State's
    game i equals the engine's game i of the same run. (A random bot draws from a stream of
    its own through the State, and from the game's in whole games, so its games differ.)"""
    line_ups = [
        ("big-money", "smithy-big-money", {}),
        ("double-witch", "chapel-witch", {"kingdom": "attack"}),
        ("province | gold | throne-room:2 | militia:2 | silver | play: throne-room > militia"
         " | set: throne_target=1", "heuristic", {"kingdom": "throne-room,militia,moat,"
                                                  "village,smithy,cellar,chapel,witch,market,"
                                                  "library"}),
        ("learned:reports/dominion-learned/model.npz", "big-money", {}),
        ("province | gold | sentry | library | vassal:2 | harbinger | silver",
         "province | gold | bandit | bureaucrat | remodel | mine | artisan | silver",
         {"kingdom": "militia,sentry,library,vassal,harbinger,bandit,bureaucrat,remodel,mine,"
                     "artisan"}),
    ]
    for a, b, options in line_ups:
        specs = [GAME.check_bot(GAME.parse_bot(t)) for t in (a, b)]
        opts = GAME.check_options(options)
        for seed in (3, 4):
            engine = GAME.play(specs, opts, seed, 0, 1)
            st = GAME.new_state(opts, seed, 2)
            players = [GAME.state_player(s, opts, np.random.default_rng(0)) for s in specs]
            while not st.is_terminal():
                st.apply(players[st.current_player()].act(st))
            assert engine.seating.tolist() == [[0, 1]]
            assert st.scores() == engine.score[0].tolist(), (a, b, seed)
            assert st.turns[0] == engine.turns[0] and st.capped == bool(engine.capped[0])


def test_the_heuristic_bot_plays_beside_mcts():
    bots = [GAME.parse_bot("openspiel-mcts:simulations=2"), GAME.parse_bot("heuristic")]
    out = GAME.play(bots, {"cap": 2}, 1, 0, 2)
    assert out.capped.all()
