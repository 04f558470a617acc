"""Dominion's reproduction lives beside its game: registered in the game's description,
free of the tuning layer, played by the game's own ``play`` on the run's pool with the same
figures for any number of workers, and a tiny run writes its data, figure and README."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from games import registry
from games.dominion import reproduce
from games.dominion.reproduce import _speed as speed
from games.dominion.reproduce import _tables as tables
from tuning.reproduce import game_module, reproduce_game, reproductions

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(reproduce.__file__).parent


class SerialPool:
    """The pool protocol ``settings.pool`` follows (``jobs``, an ordered ``map``), in one
    process."""

    jobs = 1

    def map(self, fn, tasks):
        return [fn(*task) for task in tasks]


def test_the_reproduction_is_found_through_the_registry():
    assert registry.get("dominion").reproductions == {
        "dominion": "games.dominion.reproduce",
        "dominion-baseset": "games.dominion.reproduce.baseset",
        "dominion-attack": "games.dominion.reproduce.attack"}
    assert reproductions()["dominion"] == "games.dominion.reproduce"
    assert game_module("dominion") is reproduce


def test_tables_are_the_same_on_one_process_and_on_two_workers():
    from tuning.evaluation import WorkerPool

    here = tables.Tally(SerialPool())
    rows = tables.two_player(here, 120, 7) + tables.blog(here, 60, 30, 7, 0)[0]
    with WorkerPool(2) as pool:
        spread = tables.Tally(pool)
        assert tables.two_player(spread, 120, 7) + tables.blog(spread, 60, 30, 7, 0)[0] == rows
    assert (spread.simulated, spread.capped) == (here.simulated, here.capped)
    assert here.simulated == 3 * 120 + 2 * 60 + 3 * 30


def test_match_rows_count_every_seat_of_every_bot():
    res = tables.Tally(SerialPool()).sim([tables.SBM, tables.BM], 50, 3)
    m = tables.match_result([tables.SBM, tables.BM], res)
    rec = m.per_bot["smithy-big-money"]
    assert rec.games == 50 and m.games == 50
    wins = int((res.bot_outcome()[:, 0] == 1).sum())
    assert rec.wins == wins == sum(r.wins for r in m.per_seat["smithy-big-money"])
    assert m.per_seat["smithy-big-money"][0].games == 25  # seats alternate game by game


def test_speed_runs_on_any_pool_and_counts_cpu_time():
    seconds, cpu = speed.timed_run([tables.BM, tables.BM], 200, 1, SerialPool())
    assert seconds > 0 and cpu > 0


def test_dominion_tiny_run(tmp_path):
    out = tmp_path / "dominion"
    out.mkdir()
    shutil.copy(ROOT / "reports" / "dominion" / "template.md", out)
    reproduce_game("dominion", out, sizes={"games": 100, "blog-games": 100,
                                           "speed-games": 200, "replica-games": 50})
    data = json.loads((out / "data.json").read_text())
    assert data["simulated"] > 0 and data["settings"]["games"] == 100
    assert (out / "blog_table.png").read_bytes()[:4] == b"\x89PNG"
    text = (out / "README.md").read_text()
    assert "--size games=100 --size blog-games=100" in text and "{" not in text.split("\n")[5]
    assert "(`dominion_replica.py`), blog's seating | 50 |" in text
    assert "games/dominion/reproduce/dominion_replica.py" in text
    # the README written from the data just saved is the one the run wrote
    first = (out / "README.md").read_bytes()
    reproduce_game("dominion", out, from_json=True)
    assert (out / "README.md").read_bytes() == first
