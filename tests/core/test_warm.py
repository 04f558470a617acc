"""games.warm: the warm-up that compiles each game's kernels once before many processes start."""

from __future__ import annotations

import subprocess
import sys

from games import warm


def test_slow_compilers_go_first_and_nothing_is_lost():
    assert warm.order(["deckbuilder", "toy", "splendor", "thegame"]) == \
        ["thegame", "splendor", "deckbuilder", "toy"]


def test_an_unknown_game_is_one_line_and_exit_2(capsys):
    assert warm.main(["nosuch"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown game 'nosuch'" in err[0]


def test_a_failed_warm_up_is_reported_and_the_caller_goes_on(capsys, monkeypatch):
    def broken(args, **kwargs):
        return subprocess.CompletedProcess(args, 1, "", "Traceback\nRuntimeError: boom\n")

    monkeypatch.setattr(warm.subprocess, "run", broken)
    seconds = warm.warm_all(["deckbuilder"], jobs=1)
    assert set(seconds) == {"deckbuilder"}
    assert "warm-up of deckbuilder failed: RuntimeError: boom" in capsys.readouterr().err


def test_a_warm_up_runs_each_game_in_a_process_and_says_its_time():
    done = subprocess.run([sys.executable, "-m", "games.warm", "--jobs", "1", "deckbuilder"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("compiling the numba kernels of deckbuilder, 1 at a time")
    assert lines[1].startswith("deckbuilder: ") and not done.stderr


def test_python_only_searches_are_left_out_of_the_warm_up():
    from games import registry
    from games.interop._params import OPENSPIEL_BOTS

    offering = [registry.get(n) for n in registry.names()
                if set(OPENSPIEL_BOTS) <= set(registry.get(n).bots())]
    assert offering and all(set(OPENSPIEL_BOTS) <= set(g.warm_skip) for g in offering)
