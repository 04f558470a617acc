"""The Splendor reproduction writes rows with games, seed and interval (tiny sizes here),
and the two Splendor study specs load and name valid bots."""

from __future__ import annotations

import json

import pytest

from tuning._spec import load_spec
from tuning.reproduce import reproduce_game


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
    assert {"win_loss", "points", "nobles", "prestige", "gems", "buys", "lead"} <= set(spec.space)
    assert spec.optuna.enqueue or name == "splendor-heuristic"


WARM = {"win_loss": 79.3726, "points": 0.7277, "nobles": 9.8916, "prestige": 7.9213,
        "gems": 3.6171, "buys": 0.7876, "lead": 3.2674}


@pytest.mark.parametrize("scale, turn", [(0.5, 0.0), (0.3, 0.0), (1.0, 4.0), (0.4, -7.0)])
def test_minimax_study_drops_only_moves_preserving_dimensions(scale, turn):
    """splendor-minimax-heuristic searches the difference leaf without Turn and with
    narrowed ranges: that rests on Minimax(2) with this leaf playing the same move when every
    weight is multiplied by one positive number and whatever Turn's weight is."""
    from tests.splendor.test_search import choice, positions

    spec = load_spec("splendor-minimax-heuristic")
    assert spec.space["leaf"].choices == ("difference",)
    assert not {"turn", "discount"} & set(spec.space)
    for st in positions(8, seed=5):
        base = choice(st, "minimax2", depth=2, leaf="difference", **WARM)
        varied = {k: v * scale for k, v in WARM.items()}
        assert choice(st, "minimax2", depth=2, leaf="difference", turn=turn,
                      **varied) == base, st.describe()


def test_minimax_study_positions_tell_weightings_apart():
    """Scaling one weight alone does move play on those positions (the check above can fail)."""
    from tests.splendor.test_search import choice, positions

    moved = 0
    for st in positions(8, seed=5):
        base = choice(st, "minimax2", depth=2, leaf="difference", **WARM)
        moved += choice(st, "minimax2", depth=2, leaf="difference",
                        **{**WARM, "nobles": 0.0, "points": 3.0}) != base
    assert moved > 0


def test_buyanddeny_study_spec_keeps_every_candidate_valid():
    import itertools

    from games.splendor.game import GAME

    spec = load_spec("splendor-buyanddeny")
    assert spec.strategy == "buy-and-deny" and spec.evaluation.opponents == ("minimax:3",)
    space = spec.space
    (budget,) = space["evaluations"].choices
    assert budget == 13 and set(space["start"].choices) == {"random", "greedy", "greedy+reuse"}
    pops = range(int(space["population"].low), int(space["population"].high) + 1)
    seeds = (int(space["seeds"].low), int(space["seeds"].high))
    for pop, tour, start, seed, opponent in itertools.product(
            pops, space["tournament"].choices, space["start"].choices, seeds,
            space["opponent"].choices):
        GAME.check_bot(GAME.parse_bot(f"buy-and-deny:evaluations={budget},population={pop},"
                                      f"tournament={tour},start={start},seeds={seed},"
                                      f"opponent={opponent}"))


def test_genetic_reproduction_rows_and_readme(tmp_path):
    from games.splendor.reproduce._genetic_readme import readme_text
    from games.splendor.reproduce.genetic import (
        CROSSOVER_RUNS,
        crossover_row,
        diversity_row,
    )

    cx = crossover_row(10, 40, 1, 5)
    assert cx["moves"] > 10 and 0 <= cx["improvements"] <= cx["crossovers"] > 0
    div = diversity_row("buy-and-deny:4,10,40", 1, 5)
    assert len(div["per_generation"]) == 4 and div["moves"] > 10
    assert all(0 < g["expressed"] <= g["distinct"] <= 1 for g in div["per_generation"])
    row = {"label": "x", "candidate": "buy-order", "opponent": "greedy", "games": 10,
           "seed": 5, "score": 0.6, "score_ci": [0.3, 0.9], "thesis": 79, "mean_rounds": 30.0,
           "capped_games": 0, "seconds": 1.0}
    text = readme_text({"variants": {"command": "c", "rows": [row]},
                        "diagnosis": {"command": "c", "crossover": [
                            {**cx, "thesis": list(CROSSOVER_RUNS[0][2:])}],
                            "diversity": [div]}}, "Notes here.")
    assert "| x | `buy-order;greedy` | 10 | 5 | rotated | 60.0 (30.0-90.0) | 79 | yes |" in text
    assert "Not run yet." in text and "Notes here." in text and "670 / 2,221" in text


@pytest.mark.parametrize("module", ["thesis", "genetic"])
def test_reproduction_tables_name_valid_bots_and_sizes(module):
    """Every line-up of the Splendor reproductions' data tables parses and checks."""
    import importlib

    from games.splendor.game import GAME

    repro = importlib.import_module(f"games.splendor.reproduce.{module}")
    rows = [row for part in repro.TABLE.parts.values() for row in part]
    assert rows and set(repro.TABLE.parts) <= set(repro.PARTS)
    for row in rows:
        assert row.size in repro.SIZES and "{" not in row.candidate + row.opponent
        for bot in (row.candidate, row.opponent):
            GAME.check_bot(GAME.parse_bot(bot))
        GAME.check_options(dict(row.options))
