"""`tabletune reproduce`: every reproduction runs at a tiny size, rebuilds its committed
README byte for byte from the committed data, and refuses bad input in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from games.core import InputError
from tuning.reproduce import game_module, parse_sizes, reproduce_game, reproductions
from tuning.reproduce._common import outside_reports

ROOT = Path(__file__).resolve().parents[2]
PARAMS = {"alpha": "4.1", "form": "inner"}


def _committed(game: str, tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the game's committed report folder without its README, and the README."""
    src = ROOT / game_module(game).FOLDER
    copy = tmp_path / game
    shutil.copytree(src, copy, ignore=shutil.ignore_patterns("*.png", "*.html"))
    (copy / "README.md").unlink()
    return copy, src / "README.md"


@pytest.mark.parametrize("game", sorted(reproductions()))
def test_from_json_rebuilds_the_committed_readme_exactly(game, tmp_path):
    copy, readme = _committed(game, tmp_path)
    written = reproduce_game(game, copy, from_json=True)
    assert copy / "README.md" in written
    assert (copy / "README.md").read_bytes() == readme.read_bytes()


def test_from_json_takes_in_a_benchmark_file(tmp_path):
    copy, readme = _committed("deckbuilder", tmp_path)
    bench = tmp_path / "runs" / "deckbuilder-benchmark.json"
    bench.parent.mkdir()
    shutil.move(copy / "benchmark.json", bench)
    data = json.loads((copy / "data.json").read_text())
    data["benchmark"] = None
    (copy / "data.json").write_text(json.dumps(data))
    reproduce_game("deckbuilder", copy, from_json=True)
    assert "## Performance" in (copy / "README.md").read_text()
    assert (copy / "README.md").read_bytes() != readme.read_bytes()  # section empty
    reproduce_game("deckbuilder", copy, from_json=True, benchmark=bench)
    assert (copy / "README.md").read_bytes() == readme.read_bytes()
    assert json.loads((copy / "benchmark.json").read_text()) == json.loads(bench.read_text())


def test_thegame_tiny_run(tmp_path):
    out = tmp_path / "thegame"
    reproduce_game("thegame", out, scale=1e-5)
    for part in ("d0", "d1", "d2", "variants"):
        res = json.loads((out / f"results-{part}.json").read_text())
        assert res["command_" + part] == "tabletune reproduce thegame --jobs 1 --scale 1e-05"
    text = (out / "README.md").read_text()
    assert "| Recovery with fallback | 10 |" in text and "`tabletune reproduce thegame" in text


def test_thegame_one_part_leaves_the_readme_for_later(tmp_path):
    out = tmp_path / "thegame"
    written = reproduce_game("thegame", out, parts=["d2"], sizes={"d2-games": 10})
    assert written == [out / "results-d2.json"] and not (out / "README.md").exists()
    res = json.loads(written[0].read_text())
    assert res["d2"]["games"] == 10
    assert res["command_d2"] == ("tabletune reproduce thegame --jobs 1 --parts d2 "
                                 "--size d2-games=10")


def test_d2_weights_tiny_chunk(tmp_path):
    out = tmp_path / "d2"
    reproduce_game("thegame-d2-weights", out, sizes={"games": 10, "start": 20}, params=PARAMS)
    chunk = json.loads((out / "chunk-20.json").read_text())
    assert chunk["games"] == 10 and chunk["params"]["alpha"] == 4.1
    assert "games 20..29 of root seed 2021" in (out / "README.md").read_text()
    with pytest.raises(InputError, match="needs the weights"):
        reproduce_game("thegame-d2-weights", out, sizes={"games": 10})


def test_deckbuilder_tiny_run_writes_data_and_figures(tmp_path):
    out = tmp_path / "deckbuilder"
    written = reproduce_game("deckbuilder", out, scale=1e-3,
                             sizes={"turns": 5, "expected-turns": 1})
    data = json.loads((out / "data.json").read_text())
    assert len(data["exact"]["optimal"]) == 6 and data["dp_cost"][0]["turns"] == 5
    assert data["settings"]["long_games"] == 50
    assert {p.name for p in written} >= {"data.json", "scores.png", "dp_cost.png"}
    assert not (out / "README.md").exists()  # its text needs exact values to T = 100


@pytest.mark.parametrize("request_, message", [
    ({"game": "nosuch"}, "no reproduction named 'nosuch'"),
    ({"game": "thegame", "sizes": {"d9-games": 5}}, "no size 'd9-games'"),
    ({"game": "thegame", "parts": ["d7"]}, "no part 'd7'"),
    ({"game": "deckbuilder", "seed": 3}, "fixed seeds"),
    ({"game": "dominion", "params": {"a": "1"}}, "takes no --param"),
    ({"game": "dominion", "benchmark": Path("b.json")}, "takes no --benchmark"),
    ({"game": "thegame", "jobs": 0}, "--jobs"),
])
def test_bad_requests_are_refused(request_, message, tmp_path):
    with pytest.raises(InputError, match=message):
        reproduce_game(out_dir=tmp_path, **request_)


def test_cli_unknown_game_is_one_line_exit_2(cli, tmp_path):
    res = cli("reproduce", "nosuch", "--out", str(tmp_path))
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [
        "error: no reproduction named 'nosuch' (choose from "
        f"{', '.join(reproductions())})"]
    with pytest.raises(InputError, match="--size expects name=N"):
        parse_sizes(["d2-games"])
    assert parse_sizes(["d2-games=2_000"]) == {"d2-games": 2000}


def test_reports_hold_no_code_and_benchmarks_stay_out():
    assert not list((ROOT / "reports").rglob("*.py"))
    with pytest.raises(SystemExit, match="do not write into reports/"):
        outside_reports(ROOT / "reports" / "thegame" / "benchmark.json")
    outside_reports(ROOT / "runs" / "thegame-benchmark.json")
