"""Optuna runner: reproducibility, resume, re-evaluation of the best, JSON output."""

from __future__ import annotations

import json
import sys

import optuna
import pytest

from games.core import InputError
from tuning._spec import load_spec
from tuning.evaluation import derived_seed
from tuning.study._runner import open_study, run_study


def test_same_seed_and_spec_give_the_same_best_parameters(make_spec, tmp_path):
    spec = load_spec(make_spec(trials=10))
    a = run_study(spec, str(tmp_path / "a.journal"))
    b = run_study(spec, str(tmp_path / "b.journal"))
    assert a.best["params"] == b.best["params"]
    assert a.best["mean"] == b.best["mean"]
    other = run_study(spec.with_overrides(seed=2), str(tmp_path / "c.journal"))
    assert other.best["params"] != a.best["params"]


def test_running_again_resumes_up_to_the_requested_total(make_spec, tmp_path):
    spec = load_spec(make_spec(trials=4))
    store = str(tmp_path / "r.journal")
    first = run_study(spec, store)
    assert first.trials_run_here == 4
    again = run_study(spec, store)
    assert again.trials_run_here == 0
    more = run_study(spec.with_overrides(trials=7), store)
    assert more.trials_run_here == 3
    study, _ = open_study(spec, store, create=False)
    assert sorted(t.number for t in study.trials) == list(range(7))


def test_first_trial_is_the_strategy_defaults(make_spec, tmp_path):
    spec = load_spec(make_spec(trials=2))
    run_study(spec, str(tmp_path / "d.journal"))
    study, _ = open_study(spec, str(tmp_path / "d.journal"), create=False)
    assert study.trials[0].params == {"x": 0.5, "y": 0.5, "k": 3}


def test_best_is_reevaluated_on_fresh_seeds_and_stored(make_spec, tmp_path):
    spec = load_spec(make_spec(trials=8, reevaluate_games=600, pruner="none"))
    summary = run_study(spec, str(tmp_path / "e.journal"))
    study, _ = open_study(spec, str(tmp_path / "e.journal"), create=False)
    data = study.user_attrs["reevaluation"]
    assert data["seed"] == derived_seed(spec.evaluation.seed, "reevaluate") != spec.evaluation.seed
    assert data["games"] == 600 and len(data["candidates"]) == 2
    best = summary.best
    assert best["reevaluated"] and best["confirmed"] and best["games"] == 600
    # selected by the re-evaluation, reported by its confirmation on further seeds
    assert best["selection_value"] == max(c["mean"] for c in data["candidates"])
    assert best["mean"] == study.user_attrs["confirmation"]["mean"] != best["selection_value"]
    lo, hi = best["ci95"]
    assert lo < best["mean"] < hi
    # neither is the search value of that trial (different seeds)
    assert best["search_value"] not in (best["mean"], best["selection_value"])


def test_pruned_trials_report_per_block_values(make_spec, tmp_path):
    spec = load_spec(make_spec(trials=16, games=400, block=80))
    run_study(spec, str(tmp_path / "p.journal"))
    study, _ = open_study(spec, str(tmp_path / "p.journal"), create=False)
    states = [t.state for t in study.trials]
    assert optuna.trial.TrialState.PRUNED in states
    for t in study.trials:
        if t.state == optuna.trial.TrialState.COMPLETE:
            assert sorted(t.intermediate_values) == list(range(5))
            assert t.user_attrs["games"] == 400


def test_other_settings_on_the_same_storage_are_refused(make_spec, tmp_path):
    spec = load_spec(make_spec(trials=2))
    store = str(tmp_path / "f.journal")
    run_study(spec, store)
    with pytest.raises(InputError, match="other settings"):
        run_study(spec.with_overrides(seed=7), store)


def test_run_json_has_the_documented_keys(make_spec, tmp_path, monkeypatch, capsys):
    from tuning import cli
    path = make_spec(trials=3)
    monkeypatch.setattr(sys, "argv", ["tabletune", "run", str(path), "--storage",
                                      str(tmp_path / "j.journal"), "--json"])
    with pytest.raises(SystemExit) as info:
        cli.main()
    assert info.value.code == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("study", "trials_completed", "best_params", "best_value", "best_value_ci"):
        assert key in data
    assert data["study"] == "quad" and data["trials_completed"] + data["trials_pruned"] == 3
    assert data["best_value_ci"][0] <= data["best_value"] <= data["best_value_ci"][1]


def test_deap_spec_is_sent_to_evolve(monkeypatch, capsys):
    from tuning import cli
    monkeypatch.setattr(sys, "argv", ["tabletune", "run", "dominion-buylist"])
    with pytest.raises(SystemExit) as info:
        cli.main()
    assert info.value.code == 2
    assert "tabletune evolve" in capsys.readouterr().err


def test_unavailable_sampler_dependency_is_a_clear_error(make_spec, tmp_path):
    pytest.importorskip("optuna")
    spec = load_spec(make_spec(trials=2, sampler="cmaes"))
    try:
        import cmaes  # noqa: F401
    except ImportError:
        with pytest.raises(InputError, match="cmaes"):
            run_study(spec, str(tmp_path / "g.journal"))
    else:
        assert run_study(spec, str(tmp_path / "g.journal")).trials_run_here == 2


def test_rdb_url_storage_runs_and_resumes(make_spec, tmp_path):
    spec = load_spec(make_spec(trials=3, pruner="none"))
    url = f"sqlite:///{tmp_path / 'study.db'}"
    assert run_study(spec, url).trials_run_here == 3
    again = run_study(spec.with_overrides(trials=5), url)
    assert again.trials_run_here == 2 and again.counts["COMPLETE"] == 5


def test_enqueued_parameter_sets_follow_the_defaults(make_spec, tmp_path):
    path = make_spec(trials=3)
    path.write_text(path.read_text() + "\n[[optuna.enqueue]]\nx = 0.25\ny = 0.75\nk = 2\n")
    spec = load_spec(path)
    store = str(tmp_path / "q.journal")
    run_study(spec, store)
    study, _ = open_study(spec, store, create=False)
    assert study.trials[0].params == {"x": 0.5, "y": 0.5, "k": 3}
    assert study.trials[1].params == {"x": 0.25, "y": 0.75, "k": 2}
    assert study.trials[1].user_attrs["start"] == "optuna.enqueue[0]"
    # resuming does not enqueue them again
    run_study(spec.with_overrides(trials=5), store)
    study, _ = open_study(spec, store, create=False)
    assert sum(t.user_attrs.get("start") == "optuna.enqueue[0]" for t in study.trials) == 1


@pytest.mark.parametrize("entry, fragment", [
    ("z = 0.5", "optuna.enqueue[0].z: not in the search space"),
    ("x = 7.0", "optuna.enqueue[0].x: 7.0 lies outside"),
    ("k = 2.5", "optuna.enqueue[0].k: expected an integer"),
])
def test_bad_enqueued_values_are_refused(make_spec, entry, fragment):
    path = make_spec(trials=3)
    path.write_text(path.read_text() + f"\n[[optuna.enqueue]]\n{entry}\n")
    with pytest.raises(InputError, match=fragment.replace("[", r"\[").replace("]", r"\]")):
        load_spec(path)
