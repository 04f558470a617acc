"""Bad input about the kingdom on the table: a buy list for a card the kingdom lacks, a
decision parameter out of range, a genome evolved for another kingdom. Each is one line on
stderr naming it, exit status 2, no traceback."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from games.core import InputError
from tuning._spec import load_spec
from tuning.cli import app
from tuning.evolution._runner import check_made_for

SPEC = """
[study]
name = "{name}"
game = "dominion"
optimizer = "deap"
objective = "win_rate"

[game]
kingdom = "{kingdom}"

[evaluation]
games = 20
block = 10
seed = 3
opponents = ["big-money"]
reevaluate_top = 1
reevaluate_games = 20
jobs = 1

[deap]
generations = 1
population = 2
offspring = 2

[genome]
kind = "dominion-buylist"
max_entries = 3
"""


def _run(*args: str):
    return CliRunner().invoke(app, list(args))


def _one_line(res) -> str:
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1, res.output
    return lines[0]


def test_a_buy_list_for_a_card_the_kingdom_lacks_names_the_kingdom():
    line = _one_line(_run("play", "dominion", "--bot", "province | gold | witch@count<2 | silver",
                          "--bots", "big-money", "-n", "10", "-k", "smithy,militia"))
    assert "buys witch, which is not in this game's kingdom (smithy, militia)" in line
    line = _one_line(_run("play", "dominion", "--bots", "Double Witch,big-money", "-n", "10",
                          "-k", "smithy"))
    assert "'double-witch' buys witch" in line and "(smithy)" in line


@pytest.mark.parametrize("bot", ["province | gold | chapel:1 | silver | set: chapel_max=99",
                                 "double-witch:chapel_max=99"])
def test_a_decision_parameter_out_of_range(bot):
    line = _one_line(_run("play", "dominion", "--bot", bot, "--bots", "big-money", "-n", "10",
                          "-k", "witch,chapel"))
    assert "chapel_max" in line and "99" in line and "[0" in line


@pytest.fixture()
def evolved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tiny evolution run on Witch and Chapel, checkpointed in tmp_path/runs/."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "tiny.toml"
    path.write_text(textwrap.dedent(SPEC.format(name="tiny", kingdom="witch, chapel")))
    res = _run("evolve", str(path))
    assert res.exit_code == 0, res.output
    return path


def test_a_genome_for_another_kingdom_is_refused(evolved: Path, tmp_path: Path):
    best = f"best:{evolved}"
    ok = _run("play", "dominion", "--bots", f"{best},big-money", "-n", "10",
              "-k", "chapel,witch")  # its kingdom, in another order: the same cards
    assert ok.exit_code == 0, ok.output
    line = _one_line(_run("play", "dominion", "--bots", f"{best},big-money", "-n", "10",
                          "-k", "witch,moat"))
    assert "best:tiny was evolved for kingdom" in line and "witch,moat" in line
    # the spec edited to another kingdom does not read the old checkpoint's genes as its own
    other = tmp_path / "other.toml"
    other.write_text(textwrap.dedent(SPEC.format(name="tiny", kingdom="witch, moat")))
    line = _one_line(_run("play", "dominion", "--bots", f"best:{other},big-money", "-n", "10",
                          "-k", "witch,moat"))
    assert "checkpoint of study 'tiny' was made for kingdom" in line
    report = _run("report", str(other), "--out", str(tmp_path / "r"))
    assert isinstance(report.exception, InputError)  # the console script: one line, status 2
    assert "was made for kingdom = witch, chapel, not kingdom = witch, moat" in str(
        report.exception)


def test_a_checkpoint_without_its_options_keeps_working(tmp_path: Path):
    path = tmp_path / "old.toml"
    path.write_text(textwrap.dedent(SPEC.format(name="old", kingdom="witch")))
    spec = load_spec(path)
    check_made_for(spec, {"study": "old"})  # made before checkpoints kept their options
    check_made_for(spec, {"identity": {"game_options": {"kingdom": "Witch"}}})
    with pytest.raises(InputError, match="made for kingdom = chapel"):
        check_made_for(spec, {"identity": {"game_options": {"kingdom": "chapel"}}})


@pytest.mark.parametrize("kingdom, entry", [("witch,,militia", "entry 2 of 3"),
                                            ("witch,militia,", "entry 3 of 3")])
def test_an_empty_kingdom_entry_is_refused_not_dropped(kingdom, entry):
    line = _one_line(_run("play", "dominion", "--bots", "big-money", "-n", "10",
                          "-k", kingdom))
    assert "has an empty entry" in line and entry in line
    assert "separate card names by single commas, e.g. witch,militia" in line


@pytest.mark.parametrize("entry, reason", [
    ("province@money>1e400", "too large to compare with"),
    ("province@share>2", "share>2 never holds: share is a number, 0 .. 1"),
    ("province@money>15@money<10",
     "its conditions on money exclude each other (money>15, money<10)"),
    ("province:0", "copy limit 0"),
    ("smithy:2@count>=2", "conditions on count exclude each other (:2 (count<2), count>=2)"),
    ("province@-1", "left<=-1 never holds: left is a whole number, 0 or more"),
    ("gold@turn<1", "turn is a whole number, 1 or more"),
])
def test_a_buy_list_entry_that_can_never_apply_is_refused_with_the_reason(entry, reason):
    for text in (f"{entry} | gold | silver", entry):  # in a list, and alone
        line = _one_line(_run("play", "dominion", "--bot", text, "--bots", "big-money",
                              "-n", "10", "-k", "smithy"))
        assert entry in line and reason in line and "unknown bot" not in line, line
    for live in ("province@money>15@money<17 | gold", "smithy:2@count>=1 | silver",
                 "province@share>=1 | gold", "gold@tshare>5 | silver"):
        assert _run("play", "dominion", "--bot", live, "--bots", "big-money", "-n", "2",
                    "-k", "smithy").exit_code == 0


@pytest.mark.parametrize("bot", ["set: chapel_max=3", "play: chapel"])
def test_a_strategy_without_its_buy_list_says_the_buy_list_comes_first(bot):
    line = _one_line(_run("play", "dominion", "--bot", bot, "--bots", "big-money", "-n", "10",
                          "-k", "witch,chapel"))
    assert "a buy list comes first" in line and f"province | gold | silver | {bot}" in line
