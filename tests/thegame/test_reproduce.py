"""The Game's reproductions live beside their game: registered in the game's description,
free of the tuning layer, and they play on the run's pool with the same figures for any
number of workers."""

from __future__ import annotations

from pathlib import Path

from games import registry
from games.reproduction import Settings, read_json
from games.thegame import reproduce
from games.thegame.reproduce import d2_weights, tables
from tuning.reproduce import game_module, reproductions

PACKAGE = Path(reproduce.__file__).parent
#: timing fields: the only ones that may differ between two runs of the same seeds
TIMING = {"seconds", "games_per_second", "wall_seconds", "jobs", "command"}
WEIGHTS = {"alpha": "4.1", "form": "inner"}


class SerialPool:
    """The pool protocol ``settings.pool`` follows (``jobs``, an ordered ``map``), in one
    process."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    def map(self, fn, tasks):
        return [fn(*task) for task in tasks]


def _figures(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMING}


def test_both_reproductions_are_found_through_the_registry():
    expected = {"thegame": "games.thegame.reproduce.tables",
                "thegame-d2-weights": "games.thegame.reproduce.d2_weights"}
    assert registry.get("thegame").reproductions == expected
    for name, module in expected.items():
        assert reproductions()[name] == module
    assert game_module("thegame") is tables
    assert game_module("thegame-d2-weights") is d2_weights
    assert tables.FOLDER == "reports/thegame"
    assert d2_weights.FOLDER == "reports/thegame-penalty-d2/d0-weights"


def test_a_table_row_does_not_depend_on_the_pool_size():
    one = tables.measure("recovery-distance", {}, 0, 250, SerialPool(1), 2019)
    three = tables.measure("recovery-distance", {}, 0, 250, SerialPool(3), 2019)
    other = tables.measure("recovery-distance", {}, 0, 250, SerialPool(3), 2020)
    assert one["games"] == three["games"] == 250 and three["jobs"] == 3
    assert _figures(one) == _figures(three)
    assert _figures(other) != _figures(one)


def test_a_d2_chunk_does_not_depend_on_the_pool_size(tmp_path):
    chunks = []
    for jobs in (1, 3):
        out = tmp_path / f"jobs-{jobs}"
        out.mkdir()
        settings = Settings(game="thegame-d2-weights", jobs=jobs, params=WEIGHTS,
                            sizes={"games": 6, "start": 20}, pool=SerialPool(jobs))
        path = d2_weights.play_chunk(out, settings)
        assert path == out / "chunk-20.json"
        chunks.append(_figures(read_json(path)))
    assert chunks[0] == chunks[1]
    assert chunks[0]["games"] == 6 and chunks[0]["start"] == 20
