"""`tabletune play thegame` / `bots thegame`: JSON figures and clean refusal of bad input."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tuning.cli import app

runner = CliRunner()


def test_play_json_has_the_figures():
    res = runner.invoke(app, ["play", "thegame", "--player", "recovery-fallback", "-n", "60",
                              "--seed", "3", "--param", "alpha=4", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    row = data["bots"]["recovery-fallback"]
    for key in ("wins", "games", "win_rate", "win_rate_ci", "mean_score", "mean_score_ci",
                "under_10_rate", "backwards_tricks_of_winners"):
        assert key in row
    assert data["games"] == 60 and data["games_per_second"] > 0
    lo, hi = row["win_rate_ci"]
    assert lo <= row["win_rate"] <= hi
    # the parameter reached the player: other cards are left than with the defaults
    plain = json.loads(runner.invoke(app, ["play", "thegame", "--player", "recovery-fallback",
                                           "-n", "60", "--seed", "3", "--json"]).stdout)
    assert plain["bots"]["recovery-fallback"]["mean_score"] != row["mean_score"]


def test_bots_lists_every_player():
    res = runner.invoke(app, ["bots", "thegame", "--json"])
    assert res.exit_code == 0, res.output
    names = set(json.loads(res.stdout))
    assert {"recovery-fallback", "perceived-capacity", "single-bridges-amplified"} <= names


@pytest.mark.parametrize("args,msg", [
    (["--player", "clever"], "unknown bot 'clever'"),
    (["--param", "zeta=1"], "unknown parameter"),
    (["--param", "alpha=100"], "outside its range"),
    (["--param", "alpha"], "name=value"),
    (["--param", "form=sideways"], "not one of"),
    (["--depth", "-1"], "depth"),
    (["-n", "0"], "at least 1"),
    (["--players", "7"], "players"),
])
def test_bad_input_exits_2_without_traceback(args, msg):
    res = runner.invoke(app, ["play", "thegame", "-n", "10", *args])
    assert res.exit_code == 2, res.output
    assert msg in res.output
    assert "Traceback" not in res.output
