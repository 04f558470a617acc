"""A new game is its package plus one line: the toy game of this folder (``toy/``: its
description, codec and dealer) is named once, in ``TABLETUNE_GAMES`` (a built-in game's line
is in ``games/catalog.py``), and from then on OpenSpiel, PettingZoo and OpenSpiel's MCTS bot
know it as they know the built-in games, found by presence: nothing shared names it."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from games import registry
from games.capabilities import CAPABILITIES, offers, package_of, part
from games.interop._params import MCTS

TOY = "toy-deckbuilder"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def toy() -> registry.Game:
    return registry.get(TOY)


def test_every_part_lies_in_the_toys_own_package(toy):
    import sys

    folder = Path(sys.modules[package_of(toy)].__file__).parent
    assert folder == Path(__file__).resolve().parent / "toy"
    for capability in ("codec", "dealer"):
        module = sys.modules[part(toy, capability).__module__]
        assert Path(module.__file__).parent == folder, capability
    offered = {c for c in CAPABILITIES if offers(toy, c)}
    assert {"state", "state_players", "contract", "codec", "dealer", "openspiel"} <= offered


def test_nothing_shared_names_the_toy():
    for path in [*(ROOT / "games").rglob("*.py"), *(ROOT / "tuning").rglob("*.py")]:
        assert TOY not in path.read_text(encoding="utf-8"), path


def test_openspiels_bot_joins_the_toys_bots_and_plays_it(toy):
    assert MCTS in toy.bots() and MCTS in toy.warm_skip
    line_up = [toy.parse_bot(f"{MCTS}:simulations=8"), toy.parse_bot("big-money")]
    out = toy.play(line_up, toy.check_options({}), 7, 0, 2)
    assert out.count == 2 and np.array_equal(out.seating, registry.seating_for(0, 2, 2))
    again = toy.play(line_up, toy.check_options({}), 7, 0, 2)
    assert np.array_equal(out.score, again.score)
    assert toy.exact(line_up[0], toy.check_options({}), "win_rate") is None


def test_openspiel_plays_the_toy():
    pyspiel = pytest.importorskip("pyspiel")
    from games.interop import openspiel

    loaded = openspiel.game_class(TOY)({"seed": 3})
    assert pyspiel.load_game(openspiel.PREFIX + TOY, {"seed": 3}).num_players() == 2
    pyspiel.random_sim_test(loaded, num_sims=10, serialize=True, verbose=False)
    assert loaded.num_distinct_actions() == 4


def test_pettingzoo_plays_the_toy():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from games.interop.pettingzoo import env

    with warnings.catch_warnings():  # dict observations with masks: PettingZoo only warns
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(TOY, options={"cap": 10}, seed=1), num_cycles=60)


def test_the_command_line_and_its_workers_find_the_toys_parts(tmp_path):
    """A fresh process (the CLI, two worker processes) imports the toy from its one line
    and finds its codec and dealer beside it: OpenSpiel's MCTS plays it from the CLI."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=str(ROOT))  # TABLETUNE_GAMES names the toy (conftest)
    done = subprocess.run(
        [sys.executable, "-m", "tuning.cli", "play", TOY, "--bots",
         f"{MCTS}:simulations=4,big-money", "-n", "4", "--jobs", "2", "--json"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["games"] == 4 and set(out["bots"]) == {MCTS, "big-money"}
