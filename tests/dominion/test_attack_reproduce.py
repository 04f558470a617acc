"""The attack kingdom's reproduction (``tabletune reproduce dominion-attack``): its rows are
what ``tabletune play`` reports for the same bots and seed, its bests are the published
results that ``best:STUDY`` plays, and a missing publication is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.core import InputError
from games.dominion.reproduce import attack
from tuning.reproduce import reproduce_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch):
    """The reproduction reads reports/ from the working folder, as the CLI does."""
    monkeypatch.chdir(ROOT)


class SerialPool:
    """The pool protocol ``map_blocks`` uses (``jobs``, an ordered ``map``), in one process."""

    jobs = 1

    def map(self, fn, tasks):
        return [fn(*task) for task in tasks]


def test_a_row_is_what_play_reports_for_the_same_seed():
    from games.dominion.game import GAME
    from tuning.evaluation._match import run_match

    bots = [GAME.parse_bot("moat-big-money"), GAME.parse_bot("double-witch")]
    row = attack.match(bots, 2031, 60, SerialPool())
    played = run_match("dominion", bots, GAME.check_options({"kingdom": "attack"}),
                       games=60, seed=2031).to_dict()
    first = next(iter(played["bots"].values()))  # the first bot, as play prints it
    assert (row["wins"], row["ties"], row["losses"], row["games"]) == (
        first["wins"], first["ties"], first["losses"], 60)
    assert row["score"] == pytest.approx(first["score"])
    assert row["ci95"] == pytest.approx(first["score_ci"])


@pytest.mark.parametrize("study", attack.STUDIES)
def test_the_bests_are_the_published_results(study):
    from games.dominion.game import GAME

    best = attack.published_best(study)
    run = json.loads((ROOT / "reports" / study / "run.json").read_text())
    assert best["value"] == run.get("best_value", run.get("best_fitness"))
    spec = attack._spec(best["bot"], best["params"])
    GAME.check_bot(spec)  # plays on the attack kingdom
    assert GAME.play([spec, GAME.parse_bot("double-witch")],
                     GAME.check_options({"kingdom": "attack"}), 1, 0, 4).count == 4


def test_a_tiny_run_writes_rows_with_seeds_and_commands(tmp_path, monkeypatch):
    monkeypatch.setattr(attack, "COMMUNITY", ("big-money", "double-witch", "moat-big-money"))
    written = reproduce_game("dominion-attack", tmp_path, sizes={"games": 20})
    data = json.loads((tmp_path / "data.json").read_text())
    assert [p["seed"] for p in data["pairs"]] == [2029, 2030, 2031]
    assert [b["fresh"]["seed"] for b in data["bests"]] == [2129, 2130]
    assert [b["stern"]["seed"] for b in data["bests"]] == [2139, 2140]  # disjoint from both
    assert {b["stern_opponent"] for b in data["bests"]} == {"double-witch-ultimate"}
    text = (tmp_path / "README.md").read_text()
    assert tmp_path / "README.md" in written
    assert ("`tabletune play dominion --kingdom attack --bots "
            "best:dominion-attack-strategy,double-witch -n 20 --seed 2130`") in text
    assert "| big-money vs double-witch |" in text
    assert ("best:dominion-attack-heuristic,double-witch-ultimate -n 20 --seed 2139`") in text


def test_an_unpublished_study_is_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match="does not exist: publish the study first"):
        attack.published_best("dominion-attack-strategy")
