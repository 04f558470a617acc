"""The Splendor command line: `tabletune watch` shows one game move by move, and bad input
to `play` and `watch` is one line naming what is wrong, exit status 2, no traceback.

Commands run in-process (Typer's runner) to stay fast; one case goes through a real
``python -m tuning.cli`` process to check the entry point itself."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tuning.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def invoke(*args: str):
    from tuning.cli import app

    return CliRunner().invoke(app, list(args))


def test_watch_shows_the_played_game():
    from games.splendor.game import GAME

    run = invoke("watch", "splendor", "--bots", "greedy,minimax:2", "--seed", "5", "--game", "1")
    assert run.exit_code == 0, run.output
    out = GAME.play([GAME.parse_bot("greedy"), GAME.parse_bot("minimax:2")], {}, 5, 1, 1)
    text = run.stdout
    assert "tier 3" in text and "bank" in text and "F = " in text and "-> seat" in text
    assert f"points {out.score[0].tolist()}" in text  # the same game `play` plays there


@pytest.mark.parametrize("args, needle", [
    (("play", "splendor", "--bots", "greedy,foo", "-n", "4"), "unknown bot 'foo'"),
    (("play", "splendor", "--bots", "greedy,greedy:foo=1", "-n", "4"), "foo"),
    (("play", "splendor", "--bots", "greedy,minimax:-1", "-n", "4"), "'depth'"),
    (("play", "splendor", "--bots", "greedy;minimax:3,tt=2", "-n", "4"), "'tt'"),
    (("play", "splendor", "--bots", "greedy;minimax:3,deepen=often", "-n", "4"), "'deepen'"),
    (("play", "splendor", "--bots", "greedy,random-search:-2,10", "-n", "4"), "'depth'"),
    (("play", "splendor", "--bots", "greedy", "--players", "5", "-n", "4"),
     "--players takes 2, 3 or 4 for splendor, got 5"),
    (("play", "splendor", "--bots", "greedy", "--players", "1", "-n", "4"),
     "--players takes 2, 3 or 4 for splendor, got 1"),
    (("play", "splendor", "--bots", "buy-and-deny:depth=0,greedy", "-n", "2"), "'depth'"),
    (("play", "splendor", "--bots", "buy-order:-3;greedy", "-n", "2"), "'depth'"),
    (("play", "splendor", "--bots", "buy-order:population=1,greedy", "-n", "2"),
     "'population'"),
    (("play", "splendor", "--bots", "index-move:10,100,50;greedy", "-n", "2"),
     "'evaluations': 50 is below the population (100)"),
    (("play", "splendor", "--bots", "buy-and-deny:operators=swap,greedy", "-n", "2"),
     "'operators'"),
    (("play", "splendor", "--bots", "exact-move:illegal=maybe,greedy", "-n", "2"), "'illegal'"),
    (("play", "splendor", "--bots", "buy-order:heuristic=foo,greedy", "-n", "2"),
     "'heuristic'"),
    (("play", "splendor", "--bots", "buy-and-deny:start=minimax,greedy", "-n", "2"),
     "'start'"),
    (("watch", "splendor", "--bots", "greedy,buy-and-deny:population=0"), "'population'"),
    (("watch", "splendor", "--bots", "greedy,minimax:0"), "'depth'"),
    (("watch", "splendor", "--bots", "greedy,greedy", "-o", "cap=0"), "game.cap"),
    (("watch", "splendor", "--bots", "greedy,greedy", "--game", "-1"), "--game"),
    (("watch", "thegame"), "no move-by-move view"),
])
def test_bad_input_is_one_line(args, needle):
    run = invoke(*args)
    assert run.exit_code == 2, run.output
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and run.stdout == ""


def test_bad_input_through_the_entry_point():
    run = cli("play", "splendor", "--bots", "greedy,minimax:-1", "-n", "4")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip() == "error: parameter 'depth': -1 is outside its range [1, 8]"
