"""The Splendor reproduction writes rows with games, seed and interval (tiny sizes here),
and the two Splendor study specs load and name valid bots."""

from __future__ import annotations

import json

import pytest

from tuning.reproduce import reproduce_game
from tuning.spec import load_spec


def test_reproduce_small(tmp_path):
    written = reproduce_game("splendor", tmp_path, parts=["first-player"],
                             sizes={"mirror-games": 40, "fast-games": 6, "d3-games": 4})
    assert tmp_path / "README.md" in written
    data = json.loads((tmp_path / "results-first-player.json").read_text())
    row = data["rows"][0]
    assert row["games"] == 40 and row["seed"] == data["seed"]
    lo, hi = row["first_seat_ci"]
    assert 0 <= lo <= row["first_seat"] <= hi <= 1
    text = (tmp_path / "README.md").read_text()
    assert "Greedy mirror (allEval)" in text and "Not run yet." in text


@pytest.mark.parametrize("name, strategy, opponent", [
    ("splendor-heuristic", "greedy", "greedy"),
    ("splendor-minimax-heuristic", "minimax2", "minimax2:3"),
])
def test_study_specs(name, strategy, opponent):
    spec = load_spec(name)
    assert spec.game == "splendor" and spec.strategy == strategy
    assert spec.evaluation.opponents == (opponent,)
    assert {"win_loss", "points", "nobles", "prestige", "gems", "discount"} <= set(spec.space)
