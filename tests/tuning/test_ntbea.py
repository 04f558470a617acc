"""NTBEA as an Optuna sampler (:mod:`tuning.study._ntbea`): it finds the optimum of a small
noisy problem whose answer is known, reproduces for a seed, runs as a study's sampler from
a spec, and refuses what it cannot search with one line."""

from __future__ import annotations

import numpy as np
import optuna
import pytest
from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution

from games.core import InputError
from tuning._spec import NtbeaSettings, load_spec
from tuning.study._ntbea import NTBEASampler, grid_values

SPACE = {"x": IntDistribution(0, 4), "y": IntDistribution(0, 4),
         "z": FloatDistribution(0.0, 1.0, step=0.25),
         "c": CategoricalDistribution(["a", "b", "c"])}
#: the known answer: x = 3, y = 1, z = 0.5, c = "b"
OPTIMUM = {"x": 3, "y": 1, "z": 0.5, "c": "b"}


def _noisy_study(seed: int, trials: int, sampler: optuna.samplers.BaseSampler) -> optuna.Study:
    rng = np.random.default_rng(seed)
    study = optuna.create_study(direction="maximize", sampler=sampler)

    def objective(trial: optuna.Trial) -> float:
        x, y = trial.suggest_int("x", 0, 4), trial.suggest_int("y", 0, 4)
        z = trial.suggest_float("z", 0.0, 1.0, step=0.25)
        c = trial.suggest_categorical("c", ["a", "b", "c"])
        exact = (-0.1 * abs(x - 3) - 0.1 * abs(y - 1) - 0.4 * abs(z - 0.5)
                 + (0.1 if c == "b" else 0.0))
        return exact + rng.normal(0.0, 0.1)  # noise as large as one step of any parameter

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study.optimize(objective, n_trials=trials)
    return study


def test_ntbea_finds_the_optimum_of_a_small_noisy_problem():
    found = 0
    for seed in range(5):
        sampler = NTBEASampler(SPACE, seed=seed)
        study = _noisy_study(seed, 200, sampler)
        found += sampler.recommend(study) == OPTIMUM
    assert found == 5, found


def test_the_same_seed_gives_the_same_trials():
    runs = [_noisy_study(3, 40, NTBEASampler(SPACE, seed=11)) for _ in range(2)]
    assert [t.params for t in runs[0].trials] == [t.params for t in runs[1].trials]
    other = _noisy_study(3, 40, NTBEASampler(SPACE, seed=12))
    assert [t.params for t in other.trials] != [t.params for t in runs[0].trials]


def test_each_trial_moves_to_a_neighbour_the_model_prefers():
    """After the first trial every point differs from the one before it (a neighbour), and a
    combination never played beats a known one: the first trials spread over the values."""
    study = _noisy_study(0, 12, NTBEASampler(SPACE, NtbeaSettings(neighbours=20), seed=1))
    points = [tuple(sorted(t.params.items())) for t in study.trials]
    assert all(a != b for a, b in zip(points, points[1:], strict=False))
    assert len({t.params["x"] for t in study.trials}) == 5


def test_the_grid_of_each_kind_of_parameter():
    assert grid_values("k", IntDistribution(1, 9, step=2)) == [1, 3, 5, 7, 9]
    assert grid_values("f", FloatDistribution(0.0, 1.0, step=0.5)) == [0.0, 0.5, 1.0]
    assert grid_values("c", CategoricalDistribution(["p", "q"])) == ["p", "q"]
    with pytest.raises(InputError, match="space.f: sampler 'ntbea' searches a grid"):
        grid_values("f", FloatDistribution(0.0, 1.0))


def test_a_study_runs_with_ntbea_and_its_settings(make_spec, tmp_path, main):
    path = make_spec(name="nt", trials=8, sampler="ntbea", pruner="wilcoxon")
    path.write_text(path.read_text() + "\n[optuna.ntbea]\ntuples = [1, 2, \"all\"]\n"
                    "exploration = 0.5\nneighbours = 20\n")
    spec = load_spec(path)
    assert spec.optuna.ntbea == NtbeaSettings(tuples=(1, 2, "all"), exploration=0.5,
                                              neighbours=20)
    code, out, err = main("run", str(path), "--storage", str(tmp_path / "nt.journal"),
                          "-j", "2")
    assert code == 0, err
    assert "8 complete" in out or "complete" in out


@pytest.mark.parametrize("table,message", [
    ("[optuna.ntbea]\nspeed = 3\n", "optuna.ntbea.speed: unknown key"),
    ("[optuna.ntbea]\ntuples = [0]\n", "optuna.ntbea.tuples: expected a list of tuple sizes"),
    ("[optuna.ntbea]\nexploration = -1\n", "optuna.ntbea.exploration: must be >= 0"),
    ("[optuna.ntbea]\nmutation = 2\n", "optuna.ntbea.mutation: must lie in [0, 1]"),
    ("[optuna.ntbea]\nneighbours = 0\n", "optuna.ntbea.neighbours: must be >= 1"),
])
def test_bad_ntbea_settings_are_one_line(make_spec, main, table, message):
    path = make_spec(name="bad", sampler="ntbea")
    path.write_text(path.read_text() + "\n" + table)
    code, out, err = main("run", str(path))
    assert code == 2 and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err


def test_a_float_without_a_grid_and_settings_of_another_sampler_are_refused(make_spec, main):
    path = make_spec(name="nogrid")
    path.write_text(path.read_text().replace('sampler = "tpe"', 'sampler = "ntbea"'))
    code, _, err = main("run", str(path))
    assert code == 2 and "space.x: sampler 'ntbea' searches a grid; give the float" in err
    other = make_spec(name="other")
    other.write_text(other.read_text() + "\n[optuna.ntbea]\nexploration = 1.0\n")
    code, _, err = main("run", str(other))
    assert code == 2 and "optuna.ntbea: settings of sampler 'ntbea', but optuna.sampler is" \
        in err
