"""The deckbuilder CLI commands: JSON output and clean refusal of bad input."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tuning.cli import app

runner = CliRunner()


def test_solve_json_has_values():
    res = runner.invoke(app, ["solve", "deckbuilder", "--turns", "10", "--evaluate",
                              "random,greedy,expensive,picky", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["turns"] == 10 and data["seconds"] >= 0
    assert set(data["strategies"]) == {"random", "greedy", "expensive", "picky"}
    assert max(data["strategies"].values()) <= data["optimal"]


def test_play_json_reports_interval():
    res = runner.invoke(app, ["play", "deckbuilder", "--strategy", "picky", "--turns", "20",
                              "-n", "500", "--seed", "4", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    row = data["bots"]["picky"]
    lo, hi = row["mean_score_ci"]
    assert lo < row["mean_score"] < hi and data["games"] == 500
    assert data["games_per_second"] > 0


def test_bots_lists_strategies():
    res = runner.invoke(app, ["bots", "deckbuilder"])
    assert res.exit_code == 0
    for name in ("random", "greedy", "expensive", "picky", "heuristic", "optimal", "flatmc"):
        assert name in res.stdout


@pytest.mark.parametrize("args,msg", [
    (["solve", "deckbuilder", "--cards", "copper:t1:c0,estate:t0:c2"], "victory"),
    (["solve", "deckbuilder", "--cards", "estate:v1:c2", "--start", "estate=7"], "treasure"),
    (["solve", "deckbuilder", "--start", "copper=4"], "fewer than the hand"),
    (["solve", "deckbuilder", "--cards", "copper:t1:c-1,estate:v1:c2"], "cost"),
    (["solve", "deckbuilder", "--turns", "-3"], "turns"),
    (["solve", "deckbuilder", "--end-chance", "0"], "end chance"),
    (["solve", "deckbuilder", "--end-chance", "1.5"], "end chance"),
    (["solve", "deckbuilder", "--end-chance", "-0.2"], "end chance"),
    (["play", "deckbuilder", "--end-chance", "2", "-n", "10"], "end chance"),
    (["solve", "deckbuilder", "--cards", "copper:t1:c0,estate:v1:c-2"], "cost"),
    (["solve", "deckbuilder", "--hand", "11"], "fewer than the hand"),
    (["solve", "deckbuilder", "--evaluate", "flatmc"], "no exact value"),
    (["play", "deckbuilder", "-n", "0"], "games must be at least 1"),
    (["solve", "deckbuilder", "--evaluate", "picky,smart"], "valid: random"),
    (["play", "deckbuilder", "--strategy", "smart"], "known bots: random"),
    (["play", "deckbuilder", "--strategy", "gold@6 | dutchy@5"], "dutchy"),
    (["play", "deckbuilder", "--turns", "-1"], "turns"),
    (["play", "deckbuilder", "--strategy", "heuristic", "--param", "duchy_left=999"], "range"),
])
def test_bad_input_exits_2_without_traceback(args, msg):
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    assert msg in res.output
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)


def test_solve_reports_reachability_and_efficiency():
    # brass is dominated by silver (inefficient); jewel needs 5 money, out of reach of a
    # 3-card hand of copper and silver (unreachable); the solver still answers exactly
    cards = "copper:t1:c0,brass:t1:c2,silver:t2:c2,jewel:t4:c7,estate:v1:c1,duchy:v3:c4"
    res = runner.invoke(app, ["solve", "deckbuilder", "--cards", cards, "--start",
                              "copper=3,estate=2", "--hand", "3", "--turns", "4", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["efficient"] is False and data["inefficient"] == ["brass"]
    assert data["reachable"] is False and data["unreachable"] == ["jewel"]
    assert data["optimal"] > 2.0
    res = runner.invoke(app, ["solve", "deckbuilder", "--json", "--turns", "2"])
    data = json.loads(res.stdout)
    assert data["efficient"] is True and data["reachable"] is True


def test_solve_geometric_end_values_strategies_in_one_sweep():
    res = runner.invoke(app, ["solve", "deckbuilder", "--end-chance", "0.5", "--evaluate",
                              "picky,greedy", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["turns"] is None and 0 <= data["error_bound"] < 1e-5
    assert set(data["strategies"]) == {"picky", "greedy"}
    # greedy is (near) optimal when half the games last one turn (see the report's table)
    assert data["strategies"]["greedy"] == pytest.approx(data["optimal"], abs=1e-6)
    assert data["strategies"]["picky"] < data["optimal"]
