"""`--json` output a script can trust: on stdout one JSON document and nothing else.

Every command of `tabletune --help` that takes `--json` runs here at a tiny size, in this
process through the console script's entry point; its stdout is read at the file descriptor
(so worker processes, numba and plain ``print`` calls would show too) and must parse with
``json.loads`` as a whole. Progress and status lines belong on stderr.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

# Command path -> arguments after it (``{tmp}``: this test's folder). Each runs in a second or
# a few: exact deck-building scores, a handful of games, one generation.
CASES: dict[str, list[str]] = {
    "studies": [],
    "evolve": ["deckbuilder-buylist", "-g", "1", "-P", "4", "--seed", "3",
               "--checkpoint", "{tmp}/evolution.ckpt"],
    "train": ["{tmp}/train.toml"],
    "reproduce": ["deckbuilder", "--out", "{tmp}/reproduction", "--scale", "0.001",
                  "--size", "turns=4", "--size", "expected-turns=1"],
    "play deckbuilder": ["--bots", "picky,greedy", "-t", "10", "-n", "20"],
    "play dominion": ["--bots", "big-money,smithy-big-money", "-n", "20"],
    "play splendor": ["--bots", "random,greedy", "-n", "2"],
    "play thegame": ["-n", "10"],
    "solve deckbuilder": ["-t", "5", "--evaluate", "picky,greedy"],
    "bots deckbuilder": [],
    "bots dominion": [],
    "bots splendor": [],
    "bots thegame": [],
    "page": ["{tmp}/page"],
    "board": ["dominion", "--kingdom", "random:5", "--minutes", "0.2", "--games", "100",
              "--out", "{tmp}/board"],
    "balance": ["{tmp}/balance.toml", "--storage", "{tmp}/balance.journal", "--out",
                "{tmp}/balance"],
    "ladder": ["dominion", "--bots", "big-money,smithy-big-money,big-money-ultimate", "-n",
               "40", "--out", "{tmp}/ladder"],
}
# run, report and play with best: run in test_a_study_run_report_and_its_best_print_json
CHAINED = {"run", "report", "deviation"}

TRAIN_SPEC = """
[study]
name = "json-train"
game = "dominion"
optimizer = "train"
strategy = "learned"

[train]
games = 200
round_games = 200
block = 100
probe_games = 50
probe_every = 1
jobs = 1
opponents = ["self"]
probe = ["big-money"]
model = "{tmp}/m.npz"
checkpoint = "{tmp}/train.ckpt"
"""


def _json_commands() -> set[str]:
    """Every command path of `tabletune` that has a --json flag (built-in games only: the
    test games that other tests register are not part of the command line)."""
    import typer.main

    from games import registry
    from tuning.cli import app

    found: set[str] = set()

    def walk(command: Any, path: list[str]) -> None:
        if hasattr(command, "list_commands"):  # a group; game groups build on demand
            for name in command.list_commands(None):
                walk(command.get_command(None, name), [*path, name])
            return
        if any("--json" in p.opts for p in command.params):
            game = path[-1] if path[0] in ("play", "bots", "solve") else None
            if game is None or type(registry.get(game)).__module__.startswith("games."):
                found.add(" ".join(path))

    walk(typer.main.get_command(app), [])
    return found


def tabletune(capfd: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch,
              *args: str) -> tuple[Any, str]:
    """Run ``tabletune ARGS --json``; its stdout parsed as one JSON document, and stderr."""
    from tuning import cli

    capfd.readouterr()
    monkeypatch.setattr(sys, "argv", ["tabletune", *args, "--json"])
    with pytest.raises(SystemExit) as info:
        cli.main()
    out, err = capfd.readouterr()
    assert info.value.code in (0, None), err
    try:
        data = json.loads(out)
    except ValueError as exc:
        pytest.fail(f"tabletune {' '.join(args)} --json: stdout is not one JSON document "
                    f"({exc}):\n{out[:2000]}")
    return data, err


def test_every_json_command_has_a_case():
    assert _json_commands() == set(CASES) | CHAINED


@pytest.mark.parametrize("command", sorted(CASES))
def test_stdout_is_one_json_document(command, capfd, monkeypatch, tmp_path):
    monkeypatch.setenv("TABLETUNE_PROGRESS_SECONDS", "0.01")  # progress lines do get printed
    (tmp_path / "train.toml").write_text(TRAIN_SPEC.format(tmp=tmp_path))
    from tests.tuning.test_balance import _spec as balance_spec
    balance_spec(tmp_path, "balance", trials=2)
    (tmp_path / "page").mkdir()
    (tmp_path / "page" / "README.md").write_text("# A report\n\nwins 58.8% [58.1, 59.5]\n")
    args = [a.format(tmp=tmp_path) for a in CASES[command]]
    data, err = tabletune(capfd, monkeypatch, *command.split(), *args)
    assert data  # something came back: an object or a list with content
    if command in ("evolve", "reproduce", "train"):
        assert err.strip(), f"{command}: no progress or status on stderr"


def test_a_study_run_report_and_its_best_print_json(capfd, monkeypatch, tmp_path):
    monkeypatch.setenv("TABLETUNE_PROGRESS_SECONDS", "0.01")
    journal = str(tmp_path / "study.journal")
    run, err = tabletune(capfd, monkeypatch, "run", "deckbuilder-heuristic", "--trials", "3",
                         "--storage", journal)
    assert run["trials_completed"] == 3 and err.strip()
    report, _ = tabletune(capfd, monkeypatch, "report", "deckbuilder-heuristic", "--storage",
                          journal, "--out", str(tmp_path / "report"))
    assert Path(report["index"]).is_file()
    published = json.loads((tmp_path / "report" / "run.json").read_text())  # what best: reads
    assert published["best_params"] == run["best_params"] and published["best_exact"]
    ref = f"best:deckbuilder-heuristic@{journal}"
    match, err = tabletune(capfd, monkeypatch, "play", "deckbuilder", "--bots", ref, "-t", "31",
                           "-n", "5")
    assert list(match["bots"]) == [ref] and f"{ref} = heuristic:" in err
    check, _ = tabletune(capfd, monkeypatch, "deviation", "deckbuilder-heuristic",
                         "--storage", journal, "--games", "200", "--out",
                         str(tmp_path / "deviation.json"))
    assert check["best"] == run["best_params"] and check["neighbours"]
