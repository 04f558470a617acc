"""The generic runner of reproductions that are data (games/reproduction_table.py): a table
loads with its seeds, columns and filled bot specs, a malformed one stops with one line
naming the file and the key, and each row plays through the injected match runner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.core import InputError
from games.reproduction import Settings
from games.reproduction_table import load_table, play_part

TABLE = """
game = "splendor"
seed = 7

[seeds]
late = 99

[columns]
published = "thesis"
turns = "mean_rounds"

[[parts.early]]
label = "Greedy vs Random"
candidate = "greedy:{weights}"
opponent = "random"
published = 48
size = "games"

[[parts.early]]
label = "Random vs Greedy"
candidate = "random"
opponent = "greedy"
size = "few-games"
options = { cap = 50 }

[[parts.late]]
label = "Greedy mirror"
candidate = "greedy"
opponent = "greedy"
published = 60.5
size = "games"
"""
SIZES = ("games", "few-games")


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_table_loads_with_its_seeds_columns_and_filled_bots(tmp_path):
    table = load_table(_write(tmp_path, TABLE), sizes=SIZES, fill={"weights": "points=2.0"})
    assert table.game == "splendor" and list(table.parts) == ["early", "late"]
    first, second = table.parts["early"]
    assert first.candidate == "greedy:points=2.0" and first.published == 48
    assert type(first.published) is int and type(table.parts["late"][0].published) is float
    assert second.published is None and second.options == {"cap": 50}
    assert (table.published_key, table.turns_key) == ("thesis", "mean_rounds")
    assert table.seed_for("early") == 7 and table.seed_for("late") == 99
    assert table.seed_for("late", 3) == 3


@pytest.mark.parametrize("change, names", [
    (("seed = 7", ""), "seed"),
    (('label = "Greedy mirror"', 'label = "Greedy mirror"\nplayers = 3'), "parts.late[0]"),
    (('size = "few-games"', 'size = "many-games"'), "parts.early[1].size"),
    (("published = 60.5", 'published = "sixty"'), "parts.late[0].published"),
    (("late = 99", "later = 99"), "seeds.later"),
    (('turns = "mean_rounds"', 'turns = "mean_rounds"\nscore = "x"'), "columns"),
    (('[[parts.late]]', '[[parts.late]\n'), "not TOML"),
    (('game = "splendor"', 'game = "splendor"\nrows = 1'), "rows"),
])
def test_a_malformed_table_is_one_line_naming_file_and_key(tmp_path, change, names):
    path = _write(tmp_path, TABLE.replace(*change))
    with pytest.raises(InputError) as err:
        load_table(path, sizes=SIZES, fill={"weights": "points=2.0"})
    message = str(err.value)
    assert str(path) in message and names in message and "\n" not in message


def test_an_unfilled_field_names_the_row(tmp_path):
    with pytest.raises(InputError, match=r"parts\.early\[0\]\.candidate.*weights"):
        load_table(_write(tmp_path, TABLE), sizes=SIZES)


class FakeMatch:
    """A match runner that returns set per-seat records and remembers its calls."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def __call__(self, game: str, specs: list[Any], options: dict[str, Any], **kw: Any) -> Any:
        self.calls.append({"game": game, "bots": [s.name for s in specs],
                           "options": options, **kw})
        seats = {"a": [{"wins": 6, "ties": 0, "losses": 2}, {"wins": 3, "ties": 2, "losses": 3}],
                 "b": [{"wins": 3, "ties": 2, "losses": 3}, {"wins": 2, "ties": 0, "losses": 6}]}
        bots = {k: {"score": 0.6, "score_ci": (0.4, 0.8), "wins": 9, "ties": 2, "losses": 5,
                    "per_seat": v} for k, v in seats.items()}
        summary = {"bots": bots, "mean_turns": 31.5, "capped_games": 1}
        return type("Summary", (), {"to_dict": lambda self: summary})()


def test_each_row_plays_through_the_injected_match(tmp_path):
    table = load_table(_write(tmp_path, TABLE), sizes=SIZES, fill={"weights": "points=2.0"})
    match, pool = FakeMatch(), object()
    settings = Settings(game="toy", jobs=2, sizes={"games": 16, "few-games": 12},
                        parts=("early", "late"), all_parts=("early", "late"),
                        pool=pool, run_match=match)
    path = play_part(tmp_path, settings, table, "early")
    data = json.loads(path.read_text())
    assert data["seed"] == 7 and data["command"] == "tabletune reproduce toy --jobs 2"
    first, second = data["rows"]
    assert first["label"] == "Greedy vs Random" and first["thesis"] == 48
    assert second["thesis"] is None and second["games"] == 12
    assert first["mean_rounds"] == 31.5 and "mean_turns" not in first
    # the first seat: 6-0-2 (bot a) plus 3-2-3 (bot b) = 9 wins, 2 ties, 5 losses of 16
    assert first["first_seat"] == pytest.approx(10 / 16)
    lo, hi = first["first_seat_ci"]
    assert lo < 10 / 16 < hi
    calls = match.calls
    assert [c["bots"] for c in calls] == [["greedy", "random"], ["random", "greedy"]]
    assert calls[0]["pool"] is pool and calls[0]["seed"] == 7 and calls[0]["games"] == 16
    assert calls[0]["block"] == 2 and calls[1]["options"]["cap"] == 50
    assert calls[0]["options"]["cap"] == 100  # the game's default, checked
    late = json.loads(play_part(tmp_path, settings, table, "late").read_text())
    assert late["seed"] == 99 and match.calls[-1]["seed"] == 99


def test_a_row_without_the_runners_services_is_refused(tmp_path):
    table = load_table(_write(tmp_path, TABLE), sizes=SIZES, fill={"weights": "points=2.0"})
    settings = Settings(game="toy", sizes={"games": 10, "few-games": 10}, parts=("late",))
    with pytest.raises(RuntimeError, match="pool"):
        play_part(tmp_path, settings, table, "late")
