"""`-j/--jobs` means the same in every command that takes it: -1 is one worker per core,
1 .. 1,024 that many, and 0 is refused with the same line everywhere (a train spec's
``train.jobs`` follows the same rule)."""

from __future__ import annotations

import json
import os
import re
import sys

import pytest

from games.core import InputError

REFUSED = "--jobs: worker processes must be at least 1 (or -1: every core), got 0"

COMMANDS = [
    ["run", "deckbuilder-heuristic", "--trials", "1"],
    ["evolve", "deckbuilder-buylist", "-g", "1"],
    ["train", "dominion-learned", "-n", "100"],
    ["play", "deckbuilder", "-n", "10"],
    ["reproduce", "deckbuilder", "--from-json", "--out", "out"],
]


def _main(args: list[str], capsys: pytest.CaptureFixture[str],
          monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """``tabletune ARGS`` as the console script runs it: exit status, stdout, stderr."""
    from tuning.cli import main

    monkeypatch.setattr(sys, "argv", ["tabletune", *args])
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main()
    out = capsys.readouterr()
    return stop.value.code, out.out, out.err


@pytest.mark.parametrize("flag", ["-j", "--jobs"])
@pytest.mark.parametrize("args", COMMANDS, ids=[a[0] for a in COMMANDS])
def test_zero_jobs_is_refused_alike_by_every_command(args, flag, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = _main([*args, flag, "0"], capsys, monkeypatch)
    assert code == 2 and err.strip() == f"error: {REFUSED}", err
    assert list(tmp_path.iterdir()) == []  # refused before any work


def test_minus_one_is_every_core(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(["play", "deckbuilder", "-n", "20", "-j", "-1", "--json"],
                           capsys, monkeypatch)
    assert code in (0, None), err
    assert json.loads(out)["jobs"] == (os.cpu_count() or 1)


def test_a_train_spec_takes_jobs_as_the_flag_does():
    from tuning.train._config import parse_train

    assert parse_train("s.toml", {"jobs": -1}, "dominion").jobs == -1
    assert parse_train("s.toml", {"jobs": 3}, "dominion").jobs == 3
    for bad, says in ((0, "at least 1 (or -1: every core), got 0"),
                      (1025, "at most 1,024, got 1025"), (True, "whole number")):
        with pytest.raises(InputError, match=r"s\.toml: train\.jobs\b.*" + re.escape(says)):
            parse_train("s.toml", {"jobs": bad}, "dominion")


STUDY = """
[study]
name = "t"
game = "dominion"
strategy = "heuristic"
objective = "win_rate"

[evaluation]
games = 100
opponents = ["big-money"]
{jobs}
[space.province_money]
low = 12.0
high = 20.0
"""


def test_a_study_spec_takes_evaluation_jobs_as_the_flag_does(tmp_path):
    from tuning._spec import load_spec

    def load(jobs: str):
        path = tmp_path / "s.toml"
        path.write_text(STUDY.format(jobs=jobs))
        return load_spec(path)

    assert load("").evaluation.jobs == 1
    assert load("jobs = 3").evaluation.jobs == 3
    assert load("jobs = 1024").evaluation.jobs == 1024
    every_core = load("jobs = -1")
    assert every_core.evaluation.jobs == (os.cpu_count() or 1)  # resolved as -j -1 is
    # -j -1 is resolved by the command (one check, tuning._limits), which the spec takes
    from tuning import _limits as limits
    from tuning._spec import Flags
    given = load_spec(tmp_path / "s.toml", Flags(jobs=limits.workers(-1)))
    assert given.evaluation.jobs == (os.cpu_count() or 1)
    for bad, says in (("0", "at least 1 (or -1: every core), got 0"),
                      ("-2", "at least 1 (or -1: every core), got -2"),
                      ("1025", "at most 1,024, got 1025"), ("true", "whole number")):
        with pytest.raises(InputError, match=r"s\.toml: evaluation\.jobs\b.*" + re.escape(says)):
            load(f"jobs = {bad}")
    with pytest.raises(InputError, match=r"--jobs\b.*" + re.escape("got 0")):
        limits.workers(0)


def test_every_command_with_jobs_says_what_minus_one_means():
    import typer.main

    from tuning.cli import app

    def commands(group, path):
        for name in group.list_commands(None):
            command = group.get_command(None, name)
            if hasattr(command, "list_commands"):
                yield from commands(command, (*path, name))
            else:
                yield (*path, name), command

    with_jobs = {}
    for path, command in commands(typer.main.get_command(app), ()):
        for param in command.params:
            if "-j" in getattr(param, "opts", ()):
                assert set(param.opts) == {"--jobs", "-j"}, (path, param.opts)
                with_jobs[" ".join(path)] = param.help or ""
    assert {c[0] for c in COMMANDS} <= {p.split()[0] for p in with_jobs}
    for path, text in with_jobs.items():
        assert "-1: every core" in text, (path, text)
