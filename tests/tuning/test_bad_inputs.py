"""A table of bad inputs through the CLI: each ends with one error line on stderr and exit
status 2, never a traceback, before any work; the stated maxima of every kind of number are
enforced one past them; --json errors come as a JSON object; --help shows flags as flags."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tuning import _limits as limits

ROOT = Path(__file__).resolve().parents[2]
HUGE = str(2**64)

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
    ["play", "dominion", "--turns", "abc"],  # click's own usage error: also one line
    # absurd sizes: one stated maximum per kind of number
    ["play", "deckbuilder", "-n", HUGE],
    ["play", "dominion", "-b", "big-money", "-n", "10", "-j", HUGE],
    ["play", "dominion", "-b", "big-money", "-n", "10", "--block", HUGE],
    ["run", "deckbuilder-heuristic", "--trials", HUGE],
    ["run", "deckbuilder-heuristic", "--jobs", HUGE],
    ["evolve", "deckbuilder-buylist", "-g", HUGE],
    ["evolve", "deckbuilder-buylist", "-P", HUGE],
    ["evolve", "deckbuilder-buylist", "-j", HUGE],
    ["train", "dominion-learned", "-n", HUGE],
    ["train", "dominion-learned", "--jobs", HUGE],
    ["reproduce", "deckbuilder", "--scale", "1e300"],
    ["reproduce", "deckbuilder", "--scale", "nan"],
    ["reproduce", "deckbuilder", "--jobs", HUGE],
    ["reproduce", "deckbuilder", "--size", f"long-games={HUGE}"],
    ["watch", "splendor", "-i", HUGE],
    ["watch", "splendor", "-s", "-1"],
    ["dashboard", "--storage", "{file}", "--port", "65536"],
    ["storage-proxy", "--storage", "postgresql://u@localhost/db", "--threads", HUGE],
    # conflicting or empty flags
    ["solve", "deckbuilder", "-t", "31", "-a", "0.1"],
    ["play", "deckbuilder", "-t", "31", "--end-chance", "0.1", "-n", "10"],
    ["play", "dominion", "-b", "big-money", "-n", "10", "--fixed-seats", "--rotate"],
    ["play", "dominion", "-b", "big-money", "-n", "10", "--tiebreak", "--no-tiebreak"],
    ["run", "deckbuilder-heuristic", "--storage", ""],
    ["report", "deckbuilder-heuristic", "--storage="],
    ["play", "dominion", "--bots", " ", "-n", "10"],
    ["train", "dominion-learned", "--resume", "--restart"],
    # paths: a folder for a file, a file for a folder
    ["train", "dominion-learned", "--model", "{dir}"],
    ["train", "dominion-learned", "--checkpoint", "{file}/checkpoint.pkl"],
    ["evolve", "deckbuilder-buylist", "--checkpoint", "{file}/evolution.ckpt"],
    ["run", "deckbuilder-heuristic", "--storage", "{dir}"],
    ["report", "deckbuilder-heuristic", "--out", "{file}"],
    ["report", "deckbuilder-buylist", "--out", "{file}"],
    ["report", "deckbuilder-buylist", "--time-share", "{dir}"],
    ["reproduce", "deckbuilder", "--from-json", "--out", "{file}"],
    ["reproduce", "splendor", "--benchmark", "{badjson}", "--out", "{dir}/out"],
    ["reproduce", "splendor", "--benchmark", "{dir}", "--out", "{dir}/out"],
    # addresses a server cannot listen on
    ["dashboard", "--storage", "{file}", "--port", "{port}"],
    ["dashboard", "--storage", "{file}", "--host", "999.1.1.1"],
]

#: bad inputs whose one line must say (and must not say) something in particular
HINTS = [
    (["run", "dominion-learned"], "tabletune train dominion-learned", "evolve"),
    (["report", "deckbuilder-buylist"], "tabletune evolve deckbuilder-buylist", "--resume"),
    (["dashboard", "--storage", "{dir}"], "is a folder, not a file", "does not exist"),
    (["reproduce", "splendor", "--benchmark", "{dir}"], "is a folder", "does not exist"),
    (["watch", "dominion", "-s", "-1"], "no move-by-move view", "name the bots"),
    (["watch", "splendor", "-s", "-1"], "--seed must lie in 0 .. 2**64-1, got -1", "bots"),
    (["play", "splendor", "-s", "-1"], "--seed must lie in 0 .. 2**64-1, got -1", "bots"),
    (["solve", "deckbuilder", "-t", "31", "-a", "0.1"], "--turns and --end-chance", "optimal"),
    (["evolve", "dominion-learned"], "tabletune train dominion-learned", "deap"),
    # a bot text with commas in a comma-separated --bots: ';' separates such bots
    (["play", "dominion", "--bots", "province | gold | witch:2 | silver | set: chapel_max=3,"
      "big-money", "-n", "10", "-k", "witch,chapel"],
     "separate bots with ';' when a bot's text holds '|' or '@'", "Traceback"),
    (["play", "dominion", "--bots", "big-money", "--players", "5", "-n", "10"],
     "--players takes 2, 3 or 4 for dominion, got 5", "got 5 bots"),
    (["play", "dominion", "--bots", "big-money", "--players", "0", "-n", "10"],
     "--players takes 2, 3 or 4 for dominion, got 0", "name at least one bot"),
    (["watch", "splendor", "--bots", "greedy", "--players", "9"],
     "--players takes 2, 3 or 4 for splendor, got 9", "got 9 bots"),
    (["play", "dominion", "--bots", "learned:{dir},big-money", "-n", "10"],
     "is a folder; give a model file", "no such file"),
    (["play", "dominion", "--bots", "learned:{npz},big-money", "-n", "10"],
     "is not a tabletune model file (it holds no weights", "archive"),
    (["play", "dominion", "--turns", "10", "--bots", "big-money"],
     "tabletune play dominion has no --turns option (its options: --bots,", "Possible"),
    (["report", "dominion-heuristic", "-o", "kingdom=attack"],
     "(tabletune run dominion-heuristic --option kingdom=attack)", ".fe213721)"),
    (["report", "dominion-buylist", "-o", "kingdom=attack"],
     "(tabletune evolve dominion-buylist --option kingdom=attack)", "Traceback"),
    (["run", "dominion-heuristic.fe213721", "--trials", "1"],
     "name the spec and the options (tabletune run dominion-heuristic --option", "no study"),
]


@pytest.fixture()
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The working folder is ``tmp_path`` (nothing a refused command writes lands in the
    tree), with a file, a folder, a bad JSON file, an undecodable spec and a taken port."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x")
    (tmp_path / "adir").mkdir()
    (tmp_path / "bad.json").write_text("{not json")
    import numpy as np
    np.savez(tmp_path / "foreign.npz", a=np.arange(3))  # another program's archive
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe[study\x00")  # undecodable spec file
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        yield {"{file}": "afile", "{dir}": "adir", "{badjson}": "bad.json", "{bad}": str(bad),
               "{npz}": "foreign.npz",
               "{port}": str(taken.getsockname()[1])}


def _fill(args: list[str], places: dict[str, str]) -> list[str]:
    out = []
    for arg in args:
        for key, value in places.items():
            arg = arg.replace(key, value)
        out.append(arg)
    return out


def _main(args: list[str], capsys: pytest.CaptureFixture[str],
          monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """Run ``tabletune ARGS`` as the console script does (main(): its own error handling);
    the exit status and what went to stderr."""
    from tuning.cli import main

    monkeypatch.setattr(sys, "argv", ["tabletune", *args])
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main()
    return stop.value.code, capsys.readouterr().err


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a) for a in BAD])
def test_bad_input_is_one_line_exit_2(args: list[str], places: dict[str, str],
                                      capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    code, err = _main(_fill(args, places), capsys, monkeypatch)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("error: ") and "Traceback" not in err


@pytest.mark.parametrize("args,says,not_says", HINTS, ids=[" ".join(h[0]) for h in HINTS])
def test_bad_input_says_what_to_do(args: list[str], says: str, not_says: str,
                                   places: dict[str, str],
                                   capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    code, err = _main(_fill(args, places), capsys, monkeypatch)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert says in err and not_says not in err, err


@pytest.mark.parametrize("args,work", [
    (["train", "dominion-learned", "--model", "{dir}", "-n", "100"], "tuning.train.train"),
    (["reproduce", "splendor", "--benchmark", "{badjson}", "--out", "{dir}/out"],
     "games.splendor.reproduce.thesis.reproduce"),
    (["report", "deckbuilder-heuristic", "--out", "{file}"],
     "tuning.reporting._study.build_study_report"),
])
def test_inputs_are_checked_before_the_work(args: list[str], work: str,
                                            places: dict[str, str],
                                            capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    def started(*_: object, **__: object) -> None:
        raise AssertionError(f"{work} ran before the bad input was refused")

    monkeypatch.setattr(work, started)
    code, err = _main(_fill(args, places), capsys, monkeypatch)
    assert code == 2 and len(err.strip().splitlines()) == 1, err


KINDS = [v for v in vars(limits).values() if isinstance(v, limits.Limit)]


@pytest.mark.parametrize("kind", KINDS, ids=[k.what for k in KINDS])
def test_each_limit_holds_at_its_maximum_and_refuses_one_more(kind: limits.Limit) -> None:
    from games.core import InputError

    assert kind.check(kind.high, "--x") == kind.high
    assert kind.check(kind.low, "--x") == kind.low
    with pytest.raises(InputError, match=f"at most {kind.high:,}, got {kind.high + 1}"):
        kind.check(kind.high + 1, "--x")
    if kind.low - 1 != -1 or not kind.every_core:
        with pytest.raises(InputError, match=f"at least {kind.low:,}"):
            kind.check(kind.low - 1, "--x")
    with pytest.raises(InputError, match="whole number"):
        kind.check(True, "--x")


def test_scale_holds_at_its_maximum_and_refuses_more() -> None:
    from games.core import InputError

    assert limits.check_scale(limits.SCALE_MAX) == limits.SCALE_MAX
    for bad in (0.0, -1.0, limits.SCALE_MAX * 1.0001, float("inf"), float("nan")):
        with pytest.raises(InputError, match="--scale"):
            limits.check_scale(bad)


@pytest.mark.parametrize("args", [
    ["play", "deckbuilder", "-n", str(limits.GAMES.high + 1)],
    ["train", "dominion-learned", "-n", str(limits.GAMES.high + 1)],
    ["run", "deckbuilder-heuristic", "--trials", str(limits.TRIALS.high + 1)],
    ["evolve", "deckbuilder-buylist", "-g", str(limits.GENERATIONS.high + 1)],
    ["evolve", "deckbuilder-buylist", "-P", str(limits.POPULATION.high + 1)],
    ["play", "dominion", "-b", "big-money", "-n", "10", "-j", str(limits.JOBS.high + 1)],
    ["watch", "splendor", "-i", str(limits.GAME_INDEX.high + 1)],
    ["reproduce", "deckbuilder", "--scale", str(limits.SCALE_MAX + 0.5)],
    ["dashboard", "--storage", "{file}", "--port", str(limits.PORT.high + 1)],
], ids=lambda a: " ".join(a[:3]))
def test_the_cli_refuses_one_past_each_maximum(args: list[str], places: dict[str, str],
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    code, err = _main(_fill(args, places), capsys, monkeypatch)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "at most" in err or "must lie in" in err, err


def test_the_cli_accepts_the_maxima_that_are_cheap_to_reach(places: dict[str, str],
                                                            tmp_path: Path) -> None:
    runner = CliRunner()
    from tuning.cli import app

    last = str(limits.GAME_INDEX.high)  # the last game a run of the most games plays
    res = runner.invoke(app, ["watch", "splendor", "-b", "random,random", "-i", last])
    assert res.exit_code == 0, res.output
    assert "outcome" in res.stdout
    res = runner.invoke(app, ["play", "deckbuilder", "-n", "20", "--block",
                              str(limits.BLOCK.high), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["games"] == 20
    shutil.copytree(ROOT / "reports" / "deckbuilder", tmp_path / "copy")
    res = runner.invoke(app, ["reproduce", "deckbuilder", "--from-json", "--scale",
                              f"{limits.SCALE_MAX:g}", "--out", "copy", "--json"])
    assert res.exit_code == 0, res.output


def test_json_error_is_a_json_object() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tuning.cli", "solve", "deckbuilder", "--turns", "-1", "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2
    data = json.loads(proc.stdout)
    assert data["exit_status"] == 2 and "turns" in data["error"]
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_help_shows_flags_as_flags() -> None:
    from tuning.cli import app

    result = CliRunner().invoke(app, ["solve", "deckbuilder", "--help"])
    assert result.exit_code == 0
    line = next(x for x in result.output.splitlines() if "--json" in x)
    assert "<bool>" not in line


def test_a_spec_with_turns_and_end_chance_is_refused(places: dict[str, str], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "studies" / "deckbuilder-heuristic.toml").read_text()
    spec = tmp_path / "both.toml"
    spec.write_text(text.replace("[game]\n", "[game]\nend_chance = 0.1\n", 1))
    code, err = _main(["run", str(spec), "--storage", "s.journal"], capsys, monkeypatch)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "game.turns and game.end_chance exclude each other" in err
    assert not (tmp_path / "s.journal").exists()


def test_train_resume_refuses_another_games_or_seed(places: dict[str, str], tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from tuning._spec import load_spec
    from tuning.train import new_state, save_checkpoint

    spec = load_spec("dominion-learned")
    save_checkpoint(new_state(spec.name, spec.train, ("smithy",)), tmp_path / "ck.pkl",
                    spec.train.trainer)
    files = ["--checkpoint", "ck.pkl", "--model", "m.npz", "--resume"]
    for flag, value, kept in (("-n", spec.train.games + 1, spec.train.games),
                              ("--seed", spec.train.seed + 1, spec.train.seed)):
        code, err = _main(["train", "dominion-learned", *files, flag, str(value)], capsys,
                          monkeypatch)
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert f"checkpoint's run has --{'games' if flag == '-n' else 'seed'} {kept}" in err
    assert not (tmp_path / "m.npz").exists()


@pytest.mark.parametrize("group, name, expected", [
    ("play", "nosuch", "error: unknown game 'nosuch' (choose from deckbuilder, dominion,"),
    ("bots", "Splendour", "error: unknown game 'Splendour' (choose from"),
    ("solve", "nosuch", "error: unknown game 'nosuch' (choose from deckbuilder)"),
    ("solve", "splendor", "error: solve offers nothing for the game 'splendor'"),
])
def test_a_game_command_for_an_unknown_game_is_one_line(main, group, name, expected):
    code, out, err = main(group, name)
    assert code == 2 and out == ""
    assert err.startswith(expected) and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("study, edit, says", [
    ("dominion-attack-heuristic", {"game_options": {"kingdom": "copper"}},
     "game_options: kingdom: 'copper' is a basic card"),
    ("dominion-attack-heuristic", {"game_options": {"kingdom": "witch,moat"}},
     "made for kingdom = witch,moat, not study dominion-attack-heuristic's kingdom"),
    ("dominion-attack-heuristic", {"best_params": {"witch_share": 7}},
     "its best does not play: parameter 'witch_share'"),
    ("dominion-buylist", {"best_genome": "province | nosuch"},
     "its best does not play: buy list: unknown card 'nosuch'"),
    ("dominion-buylist", {"game": "splendor"}, "not dominion-buylist of dominion"),
    ("dominion-heuristic", {"best_value": "x"}, "not a published study summary"),
    ("dominion-heuristic", {"best_value_games": "abc"}, "a figure's fields are damaged"),
])
def test_a_bad_published_run_json_is_refused_naming_the_file(
        study: str, edit: dict[str, object], says: str, places: dict[str, str],
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``best:STUDY`` on a fresh clone reads ``reports/STUDY/run.json``: an edited or damaged
    one is one line naming that file, never played as if it were the study's result."""
    data = json.loads((ROOT / "reports" / study / "run.json").read_text())
    for key, value in edit.items():  # a table's entries replace those named
        data[key] = {**data.get(key, {}), **value} if isinstance(value, dict) else value
    path = tmp_path / "reports" / study / "run.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data))
    code, err = _main(["play", "dominion", "--bots", f"best:{study},big-money", "-n", "2"],
                      capsys, monkeypatch)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert str(path) in err and says in err, err


def test_a_derived_study_from_a_bad_run_json_names_the_file(
        places: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "reports" / "dominion-heuristic.fe213721" / "run.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"game_options": {"kingdom": "copper"}}))
    code, err = _main(["play", "dominion", "--bots", "best:dominion-heuristic.fe213721,"
                       "big-money", "-n", "2"], capsys, monkeypatch)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert str(path) in err and "'copper' is a basic card" in err, err
