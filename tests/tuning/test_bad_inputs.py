"""A table of bad inputs through the CLI: each ends with one error line and exit status 2,
never a traceback; --json errors come as a JSON object; --help shows flags as flags."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from games.core import InputError

ROOT = Path(__file__).resolve().parents[2]

BAD = [
    ["solve", "deckbuilder", "--turns", "100000"],
    ["solve", "deckbuilder", "--turns", "-1"],
    ["solve", "deckbuilder", "--end-chance", "0.1", "--max-size", "-1"],
    ["solve", "deckbuilder", "--end-chance", "0.1", "--tol", "0"],
    ["solve", "deckbuilder", "--end-chance", "2"],
    ["play", "deckbuilder", "--seed", "-1"],
    ["play", "deckbuilder", "--seed", str(2**64)],
    ["play", "deckbuilder", "--games", "0"],
    ["play", "dominion", "--bots", "big-money,big-money", "--seed", "-5", "-n", "10"],
    ["play", "dominion", "--bots", "no-such-bot,big-money", "-n", "10"],
    ["play", "dominion", "--bots", "big-money,big-money", "--block", "-1", "-n", "10"],
    ["evolve", "deckbuilder-buylist", "--seed", "-3"],
    ["run", "deckbuilder-heuristic", "--seed", "-1", "--trials", "1"],
    ["run", "no-such-study", "--trials", "1"],
    ["report", "no-such-study"],
    ["report", "deckbuilder-heuristic", "--out", "x", "--publish"],
    ["run", "{bad}", "--trials", "1"],
    ["evolve", "{bad}"],
    ["play", "dominion", "--turns", "abc"],  # click's own usage error: also exit 2
]


def _invoke(args: list[str]):
    from tuning.cli import app
    return CliRunner().invoke(app, args)


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a) for a in BAD])
def test_bad_input_is_one_line_exit_2(args: list[str], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # nothing a refused command might write lands in the tree
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe[study\x00")  # undecodable spec file
    result = _invoke([a.replace("{bad}", str(bad)) for a in args])
    exc = result.exception
    if isinstance(exc, InputError):  # raised past the command: main() prints it, exit 2
        assert "\n" not in str(exc)
        return
    assert result.exit_code == 2, (result.output, exc)
    assert isinstance(exc, SystemExit), exc
    assert "Traceback" not in result.output


def test_json_error_is_a_json_object() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tuning.cli", "solve", "deckbuilder", "--turns", "-1", "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2
    data = json.loads(proc.stdout)
    assert data["exit_status"] == 2 and "turns" in data["error"]
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_help_shows_flags_as_flags() -> None:
    result = _invoke(["solve", "deckbuilder", "--help"])
    assert result.exit_code == 0
    line = next(x for x in result.output.splitlines() if "--json" in x)
    assert "<bool>" not in line
