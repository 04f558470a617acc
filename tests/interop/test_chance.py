"""What a stock OpenSpiel algorithm may trust: OpenSpiel's random simulation test with its
default settings, a clone that does not know the future, a resampled information state
that its player cannot tell from the real one, OpenSpiel's information-set MCTS playing a
Splendor match, and a Dominion observation that hides the card Library drew."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from games.interop import openspiel  # noqa: E402  (registers the games)
from games.interop.bridge import codec_for  # noqa: E402

#: the short games of each kind (a cap where the game has one)
SHORT = {"thegame": "{}", "deckbuilder": '{"turns": 6}', "splendor": '{"cap": 6}',
         "dominion": '{"cap": 5}'}
HIDDEN = ["splendor", "dominion", "thegame"]


def _load(game: str, players: int = 2) -> object:
    params = {"options": SHORT[game], "seed": 5}
    if game != "deckbuilder":
        params["players"] = players
    return pyspiel.load_game(openspiel.PREFIX + game, params)


def _chance(state: object, rng: np.random.Generator) -> int:
    cards, probs = zip(*state.chance_outcomes(), strict=True)
    assert abs(sum(probs) - 1.0) < 1e-9
    return int(rng.choice(cards, p=probs))


def _into_game(state: object, rng: np.random.Generator, decisions: int) -> None:
    """Random play until ``decisions`` decisions were taken and a player is to move."""
    while (decisions > 0 or state.is_chance_node()) and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            decisions -= 1


@pytest.mark.parametrize("game", list(SHORT))
def test_random_simulation_with_default_settings(game: str) -> None:
    pyspiel.random_sim_test(_load(game), num_sims=1, serialize=True, verbose=False)
    assert _load(game).get_type().chance_mode == \
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


@pytest.mark.parametrize("game", HIDDEN)
def test_a_clone_does_not_know_the_future(game: str) -> None:
    """Original and clone play the same moves; the real game and the search each sample
    the draws: the clone's future differs while everything the players saw was equal."""
    differed = 0
    for seed in range(4):
        real = _load(game).new_initial_state()
        _into_game(real, np.random.default_rng(seed), 6)
        clone = real.clone()
        real_rng, search_rng = np.random.default_rng(100 + seed), np.random.default_rng(seed)
        while not real.is_terminal():
            for p in range(real.num_players()):
                assert real.observation_string(p) == clone.observation_string(p)
                assert real.information_state_string(p) == clone.information_state_string(p)
            if real.is_chance_node():
                assert real.chance_outcomes() == clone.chance_outcomes()
                drawn, guess = _chance(real, real_rng), _chance(clone, search_rng)
                real.apply_action(drawn)
                clone.apply_action(guess)
                if drawn != guess:
                    differed += 1
                    assert str(real) != str(clone)
                    break
            else:
                action = int(real_rng.choice(real.legal_actions()))
                real.apply_action(action)
                clone.apply_action(action)
    assert differed >= 3  # a clone draws what its own sampling says, not the real cards


def _scramble(game: str, inner: object) -> None:
    """Reorder what nobody has seen in one of our states (the stored deck order)."""
    if game == "splendor":
        from games.splendor._rules import DECK_OFF, O_DECK, O_DPTR, TIER_SIZE
        for t in range(3):
            lo = O_DECK + DECK_OFF[t] + inner.array[O_DPTR + t]
            hi = O_DECK + DECK_OFF[t] + TIER_SIZE[t]
            inner.array[lo:hi] = inner.array[lo:hi][::-1].copy()
    elif game == "dominion":
        for p, deck in enumerate(inner.deck):
            k = inner.unseen[p]
            deck[:k] = deck[:k][::-1]
    else:
        inner.draw.reverse()


@pytest.mark.parametrize("game", HIDDEN)
def test_the_stored_order_of_unseen_cards_changes_nothing(game: str) -> None:
    """A state's own deck order is not the future: reordering it changes no outcome."""
    state = _load(game).new_initial_state()
    rng = np.random.default_rng(3)
    _into_game(state, rng, 4)
    other = state.clone()
    _scramble(game, other.inner)
    for _ in range(60):
        if state.is_terminal():
            break
        for p in range(state.num_players()):
            assert state.observation_string(p) == other.observation_string(p)
        if state.is_chance_node():
            assert state.chance_outcomes() == other.chance_outcomes()
            action = _chance(state, rng)
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        other.apply_action(action)


@pytest.mark.parametrize("game", HIDDEN)
def test_resampling_keeps_what_the_player_knows(game: str) -> None:
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    changed = 0
    for seed in range(3):
        state = _load(game).new_initial_state()
        _into_game(state, np.random.default_rng(seed), 4)
        p = state.current_player()
        assert p >= 0
        for _ in range(3):
            guess = state.resample_from_infostate(p, sampler)
            assert guess.information_state_string(p) == state.information_state_string(p)
            assert guess.observation_tensor(p) == state.observation_tensor(p)
            assert guess.legal_actions() == state.legal_actions()
            changed += (guess.observation_string(1 - p) != state.observation_string(1 - p)
                        or str(guess) != str(state))
    assert changed > 0  # what the other seat holds unseen (or the deck order) dealt anew


def test_information_set_mcts_plays_a_splendor_match() -> None:
    """A whole game (no cap reached), 4 simulations a move: about 3 s."""
    game = pyspiel.load_game("tabletune_splendor", {"seed": 5})
    rng = np.random.default_rng(11)
    sampler = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(11))
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4,
                             random_state=np.random.RandomState(seat))
            for seat in range(2)]
    for bot in bots:
        bot.set_resampler(lambda s, p: s.resample_from_infostate(p, sampler))
    state, moves = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
        else:
            state.apply_action(bots[state.current_player()].step(state))
            moves += 1
    assert not state.inner.capped and max(state.inner.points()) >= 15
    assert moves >= 20 and sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])


def test_dominion_hides_the_card_library_drew() -> None:
    from games.dominion._cards import INDEX
    from games.dominion._steps import M_SP, M_STACK, SW
    bridge = codec_for("dominion")({"kingdom": "library,village,smithy,festival,market,"
                                  "laboratory,cellar,chapel,moat,militia"}, 2)
    rng = np.random.default_rng(0)
    for seed in range(200):
        state = bridge.new_state(seed)
        while not state.is_terminal():
            q = state.current_player()
            if state.stack and state.stack[-1][:2] == ("library-keep", q):
                break
            moves = state.legal_moves()
            plays = [m for m in moves if tuple(m) == ("play", "library")]
            state.apply(plays[0] if plays else moves[int(rng.integers(len(moves)))])
        else:
            continue
        other = state.clone()
        drawn = other.looking[q][-1]
        at = M_STACK + SW * (int(other.mach[M_SP]) - 1) + 2  # the card the step holds
        other.mach[at] = INDEX["village"] if drawn != INDEX["village"] else INDEX["smithy"]
        other.refresh()
        for p in (0, 1):
            same = bridge.observation(other, p) == bridge.observation(state, p)
            assert same == (p != q)
            assert np.array_equal(bridge.tensor(other, p), bridge.tensor(state, p)) or p == q
        return
    pytest.fail("no Library decision came up")
