"""`tabletune play dominion` / `tabletune bots dominion` through Typer's test runner."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from tuning.cli import app

runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, list(args))


def test_play_json_has_the_promised_fields():
    res = _run("play", "dominion", "--bots", "big-money,smithy-big-money", "-n", "200",
               "--seed", "3", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["games"] == 200 and data["players"] == 2
    for key in ("mean_turns", "games_per_second", "capped_games"):
        assert key in data
    for name in ("big-money", "smithy-big-money"):
        bot = data["bots"][name]
        for key in ("wins", "ties", "losses", "score", "score_ci", "per_seat"):
            assert key in bot
        assert bot["wins"] + bot["ties"] + bot["losses"] == 200
        assert len(bot["per_seat"]) == 2 and bot["per_seat"][0]["games"] == 100
    assert data["bots"]["smithy-big-money"]["score"] > 0.8


def test_json_is_the_same_with_two_jobs():
    args = ["play", "dominion", "--bots", "big-money,smithy-big-money", "-n", "300", "--json"]
    one = json.loads(_run(*args, "--jobs", "1").stdout)
    two = json.loads(_run(*args, "--jobs", "2").stdout)
    assert one["bots"] == two["bots"] and one["mean_turns"] == two["mean_turns"]


def test_buy_list_in_place_of_a_bot_and_mirror_and_three_players():
    res = _run("play", "dominion", "--bot", "province | gold | smithy:1 | silver", "--bot",
               "big-money", "-n", "100", "--json")
    assert res.exit_code == 0, res.output
    assert "province | gold | smithy:1 | silver" in json.loads(res.stdout)["bots"]
    mirror = json.loads(_run("play", "dominion", "--bots", "big-money", "-n", "50",
                             "--json").stdout)
    assert set(mirror["bots"]) == {"big-money", "big-money#2"}
    three = _run("play", "dominion", "--bots", "blog-big-money,blog-steward,blog-smithy",
                 "--kingdom", "blog", "--end-rule", "provinces", "--no-tiebreak",
                 "--fixed-seats", "-n", "60", "--json")
    assert three.exit_code == 0, three.output
    seats = json.loads(three.stdout)["bots"]["blog-steward"]["per_seat"]
    assert [s["games"] for s in seats] == [0, 60, 0]


def test_solo_and_table_output():
    res = _run("play", "dominion", "--bots", "big-money", "--solo", "4", "-n", "200", "--json")
    assert res.exit_code == 0, res.output
    assert 14 < json.loads(res.stdout)["bots"]["big-money"]["mean_turns"] < 20
    table = _run("play", "dominion", "--bots", "heuristic,big-money", "-n", "50",
                 "--param", "smithy_share=0.2")
    assert table.exit_code == 0 and "heuristic" in table.stdout


def test_bots_listing():
    res = _run("bots", "dominion", "--json")
    data = json.loads(res.stdout)
    assert {"big-money", "big-money-ultimate", "smithy-big-money", "heuristic"} <= set(data)
    assert all(v["description"] for v in data.values())
    smithy = data["heuristic"]["params"]["smithy_share"]
    assert smithy["low"] <= smithy["default"] <= smithy["high"]
    listing = _run("bots", "dominion").stdout
    assert "big-money-ultimate" in listing and "smithy_share" not in listing
    assert len(listing.splitlines()) < 2 * len(data)  # a row per bot, no parameter dump
    heuristic = _run("bots", "dominion", "heuristic").stdout
    assert f"heuristic: {len(data['heuristic']['params'])} parameters" in heuristic
    assert re.search(r"│ smithy_share +│ +0\.1 │ 0 \.\. 0\.5 +│", heuristic)
    witch = _run("bots", "dominion", "double-witch").stdout
    assert "province | gold | witch:2 | silver" in witch and "chapel_max" in witch


@pytest.mark.parametrize("args, message", [
    (["--bots", "big-money,mega-money"], "unknown bot 'mega-money'"),
    (["--bots", "big-money,smithy-big-money", "--kingdom", "smithy,copper"],
     "'copper' is a basic card"),
    (["--bots", "big-money", "--kingdom", "smithy,unknown-card"],
     "unknown kingdom card 'unknown-card'"),
    (["--bot", "province | gold | smithy:x", "--bot", "big-money"], "'x'"),
    (["--bot", "provnce | gold", "--bot", "big-money"], "unknown card 'provnce'"),
    (["--bots", "big-money", "--players", "5"], "--players takes 2, 3 or 4 for dominion, got 5"),
    (["--bots", "big-money", "--players", "1"], "--players takes 2, 3 or 4 for dominion, got 1"),
    (["--bots", "big-money,smithy-big-money", "--players", "3"], "3 players need 3 bots"),
    (["--bots", "smithy-big-money,big-money", "--kingdom", "village"], "not in this game"),
    (["--bots", "heuristic,big-money", "--param", "nope=1"], "unknown parameter"),
    (["--bots", "heuristic,big-money", "--param", "action_k=99"], "outside its range"),
    (["--bots", "big-money,big-money", "--end-rule", "never"], "game.end_rule"),
    ([], "name the bots"),
])
def test_bad_input_exits_2_with_one_clear_message(args, message):
    res = _run("play", "dominion", "-n", "5", *args)
    assert res.exit_code == 2, res.output
    assert message in res.output
    assert "Traceback" not in res.output and isinstance(res.exception, SystemExit)
