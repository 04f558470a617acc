"""The one-step deviation check of a study's best (tuning/study/_deviation.py and
`tabletune deviation`)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from tuning._spec import ParamSpec
from tuning.evaluation import Evaluation
from tuning.study._deviation import check, neighbours

SPACE = (ParamSpec("x", "float", 0.0, 1.0), ParamSpec("k", "int", 1, 9),
         ParamSpec("lr", "float", 1e-3, 1e-1, log=True),
         ParamSpec("shape", "categorical", choices=("round", "flat", "tall")))


def test_each_neighbour_moves_one_parameter_one_step_within_its_range():
    moves = neighbours(SPACE, {"x": 0.95, "k": 1, "lr": 0.01, "shape": "round"})
    got = {(name, sign): values[name] for name, sign, values in moves}
    assert got[("x", "-")] == 0.85 and got[("x", "+")] == 1.0  # clipped at the top
    assert ("k", "-") not in got and got[("k", "+")] == 2      # at the bottom: one way
    assert np.isclose(got[("lr", "+")], 0.01 * 100 ** 0.1)
    assert got[("shape", "=flat")] == "flat" and len([m for m in moves if m[0] == "shape"]) == 1
    for name, _, values in moves:  # the others keep the best's values
        assert all(values[k] == v for k, v in {"x": 0.95, "k": 1, "lr": 0.01,
                                                "shape": "round"}.items() if k != name)


def _bowl(params: dict) -> float:
    return 1.0 - (params["x"] - 0.3) ** 2 - 0.01 * (params["k"] - 5) ** 2


def _paired_games(param_sets: list[dict], blocks: int = 40, seed: int = 0) -> list:
    """Evaluations on common seeds: each block's luck is shared, a little is not."""
    rng = np.random.default_rng(seed)
    luck = rng.normal(0, 0.05, blocks)
    out = []
    for p in param_sets:
        means = _bowl(p) + luck + rng.normal(0, 0.002, blocks)
        out.append(Evaluation(float(means.mean()), float(means.std() / np.sqrt(blocks)),
                              blocks * 100, 0.0, list(means), [100] * blocks))
    return out


def test_a_best_off_the_optimum_has_a_better_neighbour_and_the_optimum_none():
    spec = SimpleNamespace(space={p.name: p for p in SPACE[:2]})
    at_top = check(spec, {"x": 0.3, "k": 5}, _paired_games)
    assert not any(r["better"] for r in at_top["neighbours"])
    assert at_top["verdict"].startswith("no neighbour")
    off = check(spec, {"x": 0.8, "k": 5}, _paired_games)
    better = [(r["parameter"], r["move"]) for r in off["neighbours"] if r["better"]]
    assert better == [("x", "-")] and "x -" in off["verdict"]
    # the same check minimising: every neighbour that scores lower is now better
    worse = check(spec, {"x": 0.8, "k": 5}, _paired_games, maximize=False)
    assert {(r["parameter"], r["move"]) for r in worse["neighbours"] if r["better"]} == {
        ("x", "+"), ("k", "-"), ("k", "+")}


def test_the_command_checks_a_run_study(main, make_spec, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = make_spec(trials=8)
    code, _, err = main("run", str(spec))
    assert code in (0, None), err
    code, out, err = main("deviation", str(spec), "--games", "400", "--json")
    assert code in (0, None), err
    assert code in (0, None), err
    data = json.loads(out)
    assert {r["parameter"] for r in data["neighbours"]} <= {"x", "y", "k"}
    assert data["games"] == 400 and "neighbour" in data["verdict"]
    assert (tmp_path / "runs" / "quad.deviation.json").is_file()
    code, _, err = main("deviation", str(spec), "--games", "0")
    assert code == 2 and "--games" in err
