"""OpenSpiel's MCTS as a bot of our games: in `tabletune play`, in specs, tuned by Optuna,
refused in one line when its parameters are bad. Games are tiny (2 simulations a move)."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("pyspiel")

from typer.testing import CliRunner  # noqa: E402

from games import registry  # noqa: E402
from games.core import BotSpec, InputError, param_ranges  # noqa: E402
from games.interop._match import play_states  # noqa: E402
from games.interop.seats import MCTS, MCTSParams  # noqa: E402
from tuning.cli import app  # noqa: E402

TINY = f"{MCTS}:simulations=2"


def _cli(*args: str):  # noqa: ANN202
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("game", ["splendor", "thegame", "deckbuilder"])
def test_offered_with_ranges(game: str) -> None:
    info = registry.get(game).bots()[MCTS]
    assert info.params_type is MCTSParams
    ranges = param_ranges(MCTSParams)
    assert (ranges["simulations"].low, ranges["uct_c"].high) == (2, 10.0)
    assert ranges["evaluator"].choices == ("random", "heuristic")


def test_a_splendor_match_against_greedy_rotates_seats_and_replays() -> None:
    game = registry.get("splendor")
    line_up = [game.parse_bot(TINY), game.parse_bot("greedy")]
    out = game.play(line_up, game.check_options({"cap": 12}), 5, 0, 2)
    assert out.seating.tolist() == [[0, 1], [1, 0]]
    assert out.extra["moves"].min() > 0 and out.extra["seconds"].min() > 0
    again = play_states(game, line_up, game.check_options({"cap": 12}), 5, 1, 1)
    assert np.array_equal(again.outcome[0], out.outcome[1])  # game 1 alone: the same game
    assert np.array_equal(again.score[0], out.score[1])


def test_the_heuristic_evaluator_rolls_out_with_greedy() -> None:
    game = registry.get("splendor")
    bot = game.parse_bot(f"{MCTS}:simulations=2,evaluator=heuristic")
    out = game.play([bot, bot], game.check_options({"cap": 4}), 1, 0, 1)
    assert out.count == 1 and sorted(out.outcome[0].tolist()) in ([-1, 1], [0, 0])


def test_solo_games_play_and_score() -> None:
    deck = registry.get("deckbuilder")
    out = deck.play([deck.parse_bot(TINY)], deck.check_options({"turns": 8}), 2, 0, 3)
    assert out.score.shape == (3, 1) and np.all(out.score >= 3)  # the starting estates
    table = registry.get("thegame")
    res = _cli("play", "thegame", "--bots", TINY, "-n", "1", "--json")
    assert res.exit_code == 0, res.output
    assert table.bots()[MCTS].params_type is MCTSParams


@pytest.mark.parametrize(("bots", "says"), [
    (f"{MCTS}:simulations=0,greedy", "'simulations': 0 is outside its range"),
    (f"{MCTS}:uct_c=-1,greedy", "'uct_c'"),
    (f"{MCTS}:evaluator=alphazero,greedy", "'evaluator'"),
    (f"{MCTS}:depth=3,greedy", "unknown parameter(s) depth"),
])
def test_bad_parameters_exit_2_in_one_line(bots: str, says: str) -> None:
    res = _cli("play", "splendor", "--bots", bots, "-n", "2")
    assert res.exit_code == 2 and says in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output


def test_a_game_without_a_heuristic_refuses_the_heuristic_evaluator() -> None:
    res = _cli("play", "thegame", "--bots", f"{MCTS}:evaluator=heuristic", "-n", "1")
    assert res.exit_code == 2 and "no heuristic bot" in res.output
    with pytest.raises(InputError, match="no heuristic bot"):
        registry.get("deckbuilder").check_bot(BotSpec(MCTS, {"evaluator": "heuristic"}))


def test_a_study_tunes_it_with_optuna(tmp_path) -> None:  # noqa: ANN001
    spec = tmp_path / "mcts.toml"
    spec.write_text(f"""
[study]
name = "mcts-tuning"
description = "tune MCTS on the deck-building model"
game = "deckbuilder"
optimizer = "optuna"
strategy = "{MCTS}"
objective = "mean_score"
direction = "maximize"
[game]
turns = 6
[evaluation]
games = 2
block = 2
seed = 1
reevaluate_top = 1
reevaluate_games = 2
jobs = 1
[optuna]
trials = 2
sampler = "random"
pruner = "none"
[space.simulations]
type = "int"
low = 2
high = 3
[space.uct_c]
type = "float"
low = 0.5
high = 3.0
""")
    res = _cli("run", str(spec), "--storage", str(tmp_path / "j.journal"), "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout[res.stdout.index("{"):])
    best = json.dumps(data)
    assert "uct_c" in best and "simulations" in best


def test_a_spec_names_it_as_an_opponent(tmp_path) -> None:  # noqa: ANN001
    from tuning._spec import load_spec
    path = tmp_path / "vs.toml"
    path.write_text(f"""
[study]
name = "vs-mcts"
description = "greedy against MCTS"
game = "splendor"
optimizer = "optuna"
strategy = "greedy"
objective = "win_rate"
direction = "maximize"
[evaluation]
games = 2
block = 2
seed = 1
opponents = ["{MCTS}:simulations=4,uct_c=1.5"]
[optuna]
trials = 1
[space.points]
type = "float"
low = 0.0
high = 4.0
""")
    spec = load_spec(path)
    assert spec.evaluation.opponents[0].startswith(MCTS)
    path.write_text(path.read_text().replace("uct_c=1.5", "uct_c=50"))
    with pytest.raises(InputError, match="uct_c"):
        load_spec(path)
