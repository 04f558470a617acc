"""Our games as PettingZoo AEC environments: PettingZoo's own API test, masks and errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from games.core import InputError  # noqa: E402
from games.interop.pettingzoo import env  # noqa: E402

# short games where the game has a length option (Dominion's state is pure Python)
ENVS = [("thegame", {}), ("deckbuilder", {}), ("splendor", {"cap": 12}),
        ("dominion", {"cap": 6})]


@pytest.mark.parametrize(("game", "options"), ENVS, ids=[g for g, _ in ENVS])
def test_api(game: str, options: dict) -> None:
    with warnings.catch_warnings():  # dict observations with masks: PettingZoo only warns
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(game, options=options, seed=1), num_cycles=150)


def test_a_game_to_its_end_pays_the_game_returns() -> None:
    e = env("splendor", players=3, options={"cap": 30})
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    final = {}
    for agent in e.agent_iter():
        obs, reward, done, cut, _ = e.last()
        assert obs["action_mask"].dtype == np.int8
        if done or cut:
            final[agent] = reward
            e.step(None)
            continue
        assert obs["action_mask"].sum() == len(e.state.legal_moves())
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(final) == ["player_0", "player_1", "player_2"]
    assert 1.0 <= sum(final.values()) <= 1.5 and set(final.values()) <= {0.0, 0.5, 1.0}


def test_an_action_outside_the_mask_raises() -> None:
    e = env("thegame")
    e.reset(seed=0)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    with pytest.raises(ValueError, match="must act"):
        e.step(None)


def test_unknown_game_and_bad_players_are_input_errors() -> None:
    with pytest.raises(InputError, match="unknown game 'chess'"):
        env("chess")
    with pytest.raises(InputError, match="played by"):
        env("splendor", players=7)


def test_reset_without_a_seed_deals_the_next_game() -> None:
    e = env("thegame", seed=3)
    e.reset()
    first = e.observe("player_0")["observation"].copy()
    e.reset()
    assert not np.array_equal(first, e.observe("player_0")["observation"])
    e.reset(seed=5)
    again = env("thegame")
    again.reset(seed=5)
    assert np.array_equal(e.observe("player_0")["observation"],
                          again.observe("player_0")["observation"])
