"""Batch mode: trials drawn a batch at a time from the batches before, so one process with
``-j 1``, one with ``-j 2`` and two processes sharing one journal make the same study and
the same best; without it a shared study depends on which process asks first."""

from __future__ import annotations

from pathlib import Path

import optuna
from optuna.trial import TrialState

from tuning._spec import load_spec
from tuning.study._storage import open_storage

BATCH = "n_startup_trials = 4\nbatch = 4\n"


def _batched(make_spec, name: str, sampler: str = "tpe", trials: int = 12) -> Path:
    path = make_spec(name=name, trials=trials, games=200, block=50, pruner="none",
                     sampler=sampler)
    path.write_text(path.read_text().replace("n_startup_trials = 4\n", BATCH))
    return path


def _trials(journal: Path, name: str) -> list[tuple[int, dict, float]]:
    study = optuna.load_study(study_name=name, storage=open_storage(str(journal)).storage)
    return [(t.number, t.params, t.value) for t in study.get_trials(deepcopy=False)
            if t.state == TrialState.COMPLETE]


def test_any_worker_count_and_any_number_of_processes_make_the_same_study(
        make_spec, tmp_path, cli, monkeypatch):
    path = _batched(make_spec, "batched")
    assert load_spec(path).optuna.batch == 4 and load_spec(path).optuna.pruner == "none"
    runs = {}
    for jobs in ("1", "2"):
        journal = tmp_path / f"j{jobs}.journal"
        done = cli("run", str(path), "--storage", str(journal), "-j", jobs)
        assert done.returncode == 0, done.stderr[-2000:]
        runs[jobs] = _trials(journal, "batched")
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0.02")  # the two processes interleave
    shared = tmp_path / "shared.journal"
    procs = [cli.start("run", str(path), "--storage", str(shared)) for _ in range(2)]
    for p in procs:
        _, err = p.communicate(timeout=600)
        assert p.returncode == 0, err[-2000:]
    runs["two processes"] = _trials(shared, "batched")
    assert len(runs["1"]) == 12
    assert runs["1"] == runs["2"] == runs["two processes"]
    # past the first batch the sampler learned from the batches before: not all at random
    assert len({tuple(sorted(p.items())) for _, p, _ in runs["1"]}) == 12


def test_batch_mode_keeps_cma_es_state_between_batches(make_spec, tmp_path, cli):
    path = _batched(make_spec, "cma", sampler="cmaes")
    results = []
    for jobs in ("1", "2"):
        journal = tmp_path / f"c{jobs}.journal"
        done = cli("run", str(path), "--storage", str(journal), "-j", jobs)
        assert done.returncode == 0, done.stderr[-2000:]
        results.append(_trials(journal, "cma"))
    assert results[0] == results[1] and len(results[0]) == 12


def test_batch_mode_refuses_a_pruner_in_one_line(make_spec, main):
    path = make_spec(name="pruned", pruner="wilcoxon")
    path.write_text(path.read_text().replace("n_startup_trials = 4\n", BATCH))
    code, _, err = main("run", str(path))
    assert code == 2 and "optuna.batch: batch mode plays every trial whole" in err
    assert len(err.strip().splitlines()) == 1
