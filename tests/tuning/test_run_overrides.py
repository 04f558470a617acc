"""A study remembers the seed and budget its runs were given on the command line: report
reads it back as that study; a finished study says so and how to extend it."""

from __future__ import annotations

from tuning._spec import load_spec
from tuning.reporting._study import build_study_report
from tuning.study._runner import RUN_ATTR, load_study, run_study


def test_report_reads_a_study_run_with_another_seed(make_spec, tmp_path, main):
    path = make_spec(name="seeded", trials=4)
    journal = str(tmp_path / "seeded.journal")
    code, out, _ = main("run", str(path), "--seed", "7", "--trials", "5",
                        "--storage", journal)
    assert code == 0, out
    loaded = load_study(load_spec(path), journal)
    assert loaded.study.user_attrs[RUN_ATTR] == {"seed": 7, "trials": 5}
    assert loaded.spec.evaluation.seed == 7 and loaded.flags == ["--seed", "7", "--trials", "5"]
    # the report of the file's spec (seed 1) reads the seed-7 study, not a refusal
    result = build_study_report(load_spec(path), journal, tmp_path / "r")
    readme = (tmp_path / "r" / "README.md").read_text()
    assert f"tabletune run {path} --seed 7 --trials 5 --storage {journal}" in readme
    assert "(seed 7," in readme
    assert result["best"]["trial"] == loaded.study.user_attrs["reevaluation"]["best"]["trial"]
    # the same re-evaluation as the run stored (same derived seed): nothing re-played
    assert loaded.study.user_attrs["reevaluation"]["seed"] == \
        load_study(load_spec(path), journal).study.user_attrs["reevaluation"]["seed"]


def test_budget_remembered_is_the_largest_asked(make_spec, tmp_path):
    spec = load_spec(make_spec(name="budget", trials=3))
    journal = str(tmp_path / "b.journal")
    run_study(spec.with_overrides(trials=5), journal, reevaluate_best=False)
    run_study(spec, journal, reevaluate_best=False)  # spec's 3: already complete
    loaded = load_study(spec, journal)
    assert loaded.study.user_attrs[RUN_ATTR]["trials"] == 5
    assert loaded.flags == ["--trials", "5"]


def test_older_study_without_run_record_uses_its_seed_attribute(make_spec, tmp_path):
    spec = load_spec(make_spec(name="older", trials=2))
    journal = str(tmp_path / "o.journal")
    summary = run_study(spec.with_overrides(seed=9), journal, reevaluate_best=False)
    assert summary.trials_run_here == 2
    import optuna

    from tuning.study._storage import open_storage
    study = optuna.load_study(study_name="older", storage=open_storage(journal).storage)
    study.set_user_attr(RUN_ATTR, None)  # as a study made before the record existed
    assert load_study(spec, journal).spec.evaluation.seed == 9


def test_second_run_of_a_finished_study_says_complete(make_spec, tmp_path, main):
    path = make_spec(name="done", trials=3)
    journal = str(tmp_path / "done.journal")
    args = ["run", str(path), "--seed", "4", "--storage", journal]
    assert main(*args)[0] == 0
    code, out, _ = main(*args)
    assert code == 0
    assert "is complete: it holds 3 of 3 trials" in out
    assert f"to extend it: tabletune run {path} --trials 6 --seed 4 --storage {journal}" in out
    assert "overhead" not in out
