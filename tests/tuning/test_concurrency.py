"""Several processes on one journal share a study; killed processes leave no stuck trials."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import optuna
from optuna.trial import TrialState

from tuning._spec import load_spec
from tuning.study import _storage as st
from tuning.study._runner import open_study, run_study


def _wait_for(predicate, timeout: float = 60.0, step: float = 0.1) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return False


def _trials(journal):
    storage = st.open_storage(str(journal)).storage
    names = [s.study_name for s in optuna.get_all_study_summaries(storage)]
    if not names:
        return []
    return optuna.load_study(study_name=names[0], storage=storage).trials


def test_two_processes_finish_exactly_the_requested_trials(make_spec, tmp_path, cli,
                                                           monkeypatch):
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0.2")
    path = make_spec(trials=20, games=100, block=50, pruner="none")
    journal = tmp_path / "shared.journal"
    args = ("run", str(path), "--storage", str(journal), "--json")
    first = cli.start(*args)
    assert _wait_for(lambda: journal.exists() and len(_trials(journal)) >= 1)
    second = cli.start(*args)
    outs = [p.communicate(timeout=180) for p in (first, second)]
    assert [p.returncode for p in (first, second)] == [0, 0], [o[1][-500:] for o in outs]
    results = [json.loads(o[0]) for o in outs]
    assert sum(r["trials_run_here"] for r in results) == 20
    assert all(r["trials_run_here"] >= 1 for r in results)
    trials = _trials(journal)
    numbers = [t.number for t in trials]
    assert sorted(numbers) == list(range(20))
    assert all(t.state == TrialState.COMPLETE for t in trials)


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_stale_running_trial_is_failed_and_retried_at_start(make_spec, tmp_path):
    spec = load_spec(make_spec(trials=3, pruner="none"))
    journal = str(tmp_path / "stale.journal")
    study, opened = open_study(spec, journal)
    dists = {n: p.distribution() for n, p in spec.space.items()}
    trial = st.claim_trial(study, opened, 3, dists)
    study._storage.set_trial_system_attr(trial._trial_id, "tabletune:owner",
                                         [st.socket.gethostname(), _dead_pid()])
    stuck_params = dict(trial.params)
    events = []
    summary = run_study(spec, journal, progress=events.append)
    assert summary.stale_failed == [0]
    assert {"event": "stale", "trials": [0]} in events
    trials = study.trials
    assert trials[0].state == TrialState.FAIL
    retry = [t for t in trials if t.user_attrs.get("retry_of") == 0]
    assert len(retry) == 1 and retry[0].params == stuck_params
    assert retry[0].state == TrialState.COMPLETE
    assert sum(t.state == TrialState.COMPLETE for t in trials) == 3


def test_live_trial_of_another_process_is_left_alone(make_spec, tmp_path):
    spec = load_spec(make_spec(trials=2, pruner="none"))
    journal = str(tmp_path / "live.journal")
    study, opened = open_study(spec, journal)
    dists = {n: p.distribution() for n, p in spec.space.items()}
    trial = st.claim_trial(study, opened, 2, dists)
    study._storage.set_trial_system_attr(trial._trial_id, "tabletune:owner",
                                         [st.socket.gethostname(), os.getppid()])
    assert st.fail_stale_trials(study, opened) == []
    assert study.trials[0].state == TrialState.RUNNING


def test_killed_process_leaves_a_trial_that_the_next_run_fails(make_spec, tmp_path, cli,
                                                               monkeypatch):
    path = make_spec(trials=2, games=100, block=50, pruner="none")
    journal = tmp_path / "killed.journal"
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "60")
    victim = cli.start("run", str(path), "--storage", str(journal))
    # wait until the trial carries its owner too: a kill between creating the trial and
    # recording its owner leaves a trial that only the heartbeat grace period can expire
    assert _wait_for(lambda: journal.exists() and any(
        t.state == TrialState.RUNNING and "tabletune:owner" in t.system_attrs
        for t in _trials(journal)))
    victim.kill()
    victim.wait()
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0")
    res = cli("run", str(path), "--storage", str(journal), "--json")
    assert res.returncode == 0, res.stderr[-500:]
    assert "marked stale running trial(s) [0] as failed" in " ".join(res.stderr.split())
    data = json.loads(res.stdout)
    assert data["stale_trials_failed"] == [0]
    assert data["trials_completed"] == 2 and data["trials_failed"] == 1
