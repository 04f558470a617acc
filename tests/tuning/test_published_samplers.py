"""The published studies name the sampler the optimiser comparison supports
(reports/optimisers/summary.json, `benchmarks/optimiser_comparison.py`), and the rule that
chooses it changes the incumbent only on evidence."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tuning._spec import load_spec

ROOT = Path(__file__).resolve().parents[2]


def _comparison():
    spec = importlib.util.spec_from_file_location(
        "optimiser_comparison", ROOT / "benchmarks" / "optimiser_comparison.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _defaults() -> dict:
    return json.loads((ROOT / "reports" / "optimisers" / "summary.json").read_text())["defaults"]


@pytest.mark.parametrize("problem", sorted(_defaults()))
def test_each_study_a_problem_speaks_for_names_its_chosen_sampler(problem: str) -> None:
    chosen = _defaults()[problem]
    assert chosen["studies"], problem
    for study in chosen["studies"]:
        assert load_spec(study).optuna.sampler == chosen["sampler"], study


def test_the_incumbent_stays_unless_a_challenger_is_better_beyond_noise() -> None:
    choose = _comparison().choose_sampler
    import numpy as np

    rng = np.random.default_rng(3)
    tpe = list(rng.normal(0.50, 0.05, 30))
    close = list(rng.normal(0.51, 0.05, 30))  # a higher median, within noise
    far = list(rng.normal(0.60, 0.05, 30))
    assert choose({"tpe": tpe, "cmaes": close})["sampler"] == "tpe"
    assert choose({"tpe": tpe, "cmaes": far})["sampler"] == "cmaes"
    assert choose({"tpe": tpe, "gp": far})["sampler"] == "tpe"  # gp needs an extra
    assert choose({"tpe": far, "random": tpe})["why"].startswith("tpe has the highest")
