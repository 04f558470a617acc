"""Our games under OpenSpiel: OpenSpiel's own random simulation test, and observations that
hide what the rules hide.

``pyspiel.random_sim_test`` with its default settings checks at every step of random games:
legal actions and chance outcomes in range, clones, serialization (a pickled state read
back), observation and information-state strings and tensors, returns within the declared
utility range, history length within ``max_game_length``. It is costly per step through a
Python game (a clone, strings and tensors for every seat at every step), so the games here
are short where the game has a length option: 100 games each of The Game, a 6-turn
deck-building game, Splendor capped at 8 rounds and Dominion capped at 6 rounds (pure
Python, about 10x slower per step), 400 in all, about 25 s on one core.
`benchmarks/interop_speed.py` runs the full-length games.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from games.interop import openspiel  # noqa: E402  (registers the games)
from games.interop.bridge import codec_for, codec_games  # noqa: E402

SIMS = [("thegame", '{}', 100), ("deckbuilder", '{"turns": 6}', 100),
        ("splendor", '{"cap": 8}', 100), ("dominion", '{"cap": 6}', 100),
        ("thegame", '{"piles": 6, "backwards": 7, "hand_size": 6}', 30)]


@pytest.mark.parametrize(("game", "options", "sims"), SIMS,
                         ids=["thegame", "deckbuilder", "splendor", "dominion", "thegame-6-piles"])
def test_random_simulation(game: str, options: str, sims: int) -> None:
    loaded = pyspiel.load_game(openspiel.PREFIX + game, {"options": options, "seed": 3})
    pyspiel.random_sim_test(loaded, num_sims=sims, serialize=True, verbose=False)
    bridge = codec_for(game)(json.loads(options), loaded.num_players())
    assert loaded.num_distinct_actions() == bridge.num_actions()


def test_every_game_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {openspiel.PREFIX + g for g in codec_games()} <= names


def test_players_and_options_reach_the_game() -> None:
    three = pyspiel.load_game("tabletune_splendor", {"players": 3})
    assert three.num_players() == 3 and three.new_initial_state().inner.players == 3
    table = pyspiel.load_game("tabletune_thegame", {"players": 3})
    assert len(table.new_initial_state().inner.hands) == 3
    short = pyspiel.load_game("tabletune_deckbuilder", {"options": '{"turns": 4}'})
    assert short.max_game_length() == 5


def test_bad_parameters_fail_in_one_line() -> None:
    from games.core import InputError
    with pytest.raises(InputError, match="played by"):
        openspiel.GAMES["splendor"]({"players": 5})
    with pytest.raises(InputError, match="JSON"):
        openspiel.GAMES["splendor"]({"options": "{cap"})


def test_new_states_deal_by_chance_and_clones_replay_the_same_outcomes() -> None:
    game = pyspiel.load_game("tabletune_thegame", {"seed": 11})
    first = game.new_initial_state()
    assert first.is_chance_node() and len(first.chance_outcomes()) == 98
    twin = first.clone()
    rng = np.random.default_rng(0)
    while not first.is_terminal():
        if first.is_chance_node():
            cards, probs = zip(*first.chance_outcomes(), strict=True)
            action = int(rng.choice(cards, p=probs))
        else:
            action = int(rng.choice(first.legal_actions()))
        first.apply_action(action)
        twin.apply_action(action)
        assert str(first) == str(twin)
    assert first.returns() == twin.returns() and first.returns()[0] <= 0


def test_splendor_hides_the_deck_order() -> None:
    from games.splendor._rules import DECK_OFF, O_DECK, O_DPTR, TIER_SIZE
    state = codec_for("splendor")({}, 2).new_state(5)
    bridge = codec_for("splendor")({}, 2)
    other = state.clone()
    for t in range(3):  # reorder the unseen part of every tier's deck
        base = O_DECK + DECK_OFF[t]
        lo, hi = base + other.array[O_DPTR + t], base + TIER_SIZE[t]
        other.array[lo:hi] = other.array[lo:hi][::-1]
    assert str(other.array.tolist()) != str(state.array.tolist())
    for p in (0, 1):
        assert bridge.observation(other, p) == bridge.observation(state, p)
        assert np.array_equal(bridge.tensor(other, p), bridge.tensor(state, p))


def test_dominion_sees_what_its_view_keeps() -> None:
    bridge = codec_for("dominion")({}, 2)
    state = bridge.new_state(2)
    rng = np.random.default_rng(1)
    for _ in range(40):  # into the game, where decks and discard piles have cards
        state.apply(state.legal_moves()[int(rng.integers(len(state.legal_moves())))])
    p = state.current_player()
    view = state.view(p, np.random.default_rng(9))
    assert bridge.observation(view, p) == bridge.observation(state, p)
    assert np.array_equal(bridge.tensor(view, p), bridge.tensor(state, p))
    assert bridge.observation(state, 1 - p) != bridge.observation(state, p)


def test_the_game_hides_the_draw_pile_order() -> None:
    bridge = codec_for("thegame")({}, 2)
    state = bridge.new_state(4)
    guess = bridge.determinize(state, 0, np.random.default_rng(2))
    assert guess.draw != state.draw and sorted(guess.draw + guess.hands[1]) == sorted(
        state.draw + state.hands[1])
    assert bridge.observation(guess, 0) == bridge.observation(state, 0)


def test_a_game_with_several_options_saves_and_loads_again() -> None:
    """A game string splits parameters at commas: the options are kept in a form it holds
    (';' between items, structure characters escaped inside strings), read back exactly."""
    options = '{"kingdom": "smithy,witch,militia", "cap": 30}'
    game = pyspiel.load_game("tabletune_dominion", {"options": options, "seed": 3})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(40):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    again, twin = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    assert again == game and str(twin) == str(state)
    assert pyspiel.load_game(str(game)).bridge.options.kingdom == ("smithy", "witch", "militia")
    assert openspiel.parse_options("dominion", openspiel.options_text(
        {"a": "x,(y)=z;w", "b": [1, 2]})) == {"a": "x,(y)=z;w", "b": [1, 2]}
