"""PostgreSQL studies against a real server: many workers sharing one budget through a server
restart, a killed worker, a stopped server, trials that never beat, the dashboard and
reports, and bad URLs. One server serves the module (the ``postgres`` fixture), each test
its own database; heartbeat 1 s and grace 3 s (the ``pg_url`` fixture)."""

from __future__ import annotations

import datetime
import functools
import json
import os
import signal
import threading
import time
import urllib.request

import optuna
import pytest
from optuna.trial import TrialState

from games.core import InputError
from tuning._spec import load_spec
from tuning.study import _storage as st
from tuning.study._runner import open_study, run_study

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("postgres")]
#: seconds a test waits for its worker processes: starting one (imports, and compiling the
#: game kernels on a fresh clone) can take a minute on two busy cores
PROCESS_SECONDS = 240


def _wait_for(predicate, timeout: float = PROCESS_SECONDS, step: float = 0.2) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return False


@functools.cache
def _storage(url: str):
    """One connection pool per test database for looking at its trials."""
    return st.open_storage(url).storage


def _trials(url: str, name: str = "quad") -> list[optuna.trial.FrozenTrial]:
    storage = _storage(url)
    try:
        study_id = storage.get_study_id_from_name(name)
    except KeyError:
        return []
    return storage.get_all_trials(study_id, deepcopy=False)


def _count(trials, state: TrialState) -> int:
    return sum(t.state == state for t in trials)


def _finish(procs, timeout: float = PROCESS_SECONDS) -> list[tuple[str, str]]:
    end = time.monotonic() + timeout
    outs = [p.communicate(timeout=max(1.0, end - time.monotonic())) for p in procs]
    for p, (_, err) in zip(procs, outs, strict=True):
        if p.returncode:
            print(err)  # shown by pytest when the test fails
    assert [p.returncode for p in procs] == [0] * len(procs), [o[1][-4000:] for o in outs]
    return outs


def _every_failure_retried(trials) -> None:
    """A FAIL trial is a surplus claim (never run) or has a retry: no trial is lost."""
    for t in trials:
        if t.state == TrialState.FAIL and not t.system_attrs.get("tabletune:surplus"):
            assert any(r.user_attrs.get("retry_of") == t.number
                       or r.system_attrs.get("failed_trial") == t.number for r in trials), t


def test_four_workers_share_one_budget_through_a_server_restart(make_spec, pg_url, postgres,
                                                                 cli, monkeypatch):
    """The server goes down while four workers run: each rides it out, and none finishes
    its share while the server is down (so the outage is met for certain, however fast or
    slow the machine), and the budget is shared exactly once it is back."""
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0.1")  # 4 blocks: about 0.5 s a trial
    path = make_spec(trials=8, games=200, block=50, pruner="none", reevaluate_games=100)
    procs = [cli.start("run", str(path), "--storage", pg_url, "--json") for _ in range(4)]
    outs: list[list[str]] = [[] for _ in procs]
    errs: list[list[str]] = [[] for _ in procs]
    readers = [threading.Thread(target=lambda f=f, e=e: e.extend(f), daemon=True)
               for p, o, e in zip(procs, outs, errs, strict=True)
               for f, e in ((p.stdout, o), (p.stderr, e))]
    for r in readers:
        r.start()
    # stop once every worker has opened the study and claimed a trial: a worker still
    # starting up would meet a stopped server at its first connection, which is refused
    # at once by design (a wrong URL must not wait a minute)
    pids = {p.pid for p in procs}
    assert _wait_for(lambda: pids <= {st.trial_owner(t)[1] for t in _trials(pg_url)})
    assert _wait_for(lambda: _count(_trials(pg_url), TrialState.COMPLETE) >= 1)
    postgres.stop()
    try:  # down until a worker has met the outage (a trial ends every 0.5 s)
        assert _wait_for(lambda: any("connection lost" in "".join(e) for e in errs))
        assert all(p.poll() is None for p in procs)  # riding it out, none gave up
    finally:
        postgres.start()
    for p in procs:
        p.wait(timeout=PROCESS_SECONDS)
    for r in readers:
        r.join(timeout=10)
    assert [p.returncode for p in procs] == [0] * 4, ["".join(e)[-4000:] for e in errs]
    results = [json.loads("".join(out)) for out in outs]
    trials = _trials(pg_url)
    assert _count(trials, TrialState.COMPLETE) == 8
    assert not [t for t in trials if t.state in (TrialState.RUNNING, TrialState.WAITING)]
    numbers = [t.number for t in trials]
    assert len(numbers) == len(set(numbers))
    _every_failure_retried(trials)
    assert sum(r["trials_run_here"] for r in results) == 8  # none counted twice
    assert all(r["trials_completed"] == 8 for r in results)
    assert all("***" in r["storage"] and "s3cret" not in r["storage"] for r in results)


def _running_of(url: str, pid: int) -> list[optuna.trial.FrozenTrial]:
    return [t for t in _trials(url) if t.state == TrialState.RUNNING
            and t.system_attrs.get("tabletune:owner", [None, None])[1] == pid]


def _owns_a_trial(url: str, pid: int) -> bool:
    return any(t.system_attrs.get("tabletune:owner", [None, None])[1] == pid
               for t in _trials(url))


def test_killed_worker_trial_fails_by_heartbeat_and_is_retried(make_spec, pg_url, cli,
                                                                 monkeypatch):
    """A worker dies mid-trial: the other worker fails that trial once its heartbeat is
    older than the grace period and runs it again. The victim is frozen mid-trial (SIGSTOP,
    like a hung machine) until the survivor has started for certain, then killed with
    ``kill -9``; a survivor that started only after the death would rightly fail the trial of
    a dead process on its own machine at once, without the heartbeat."""
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0.3")  # 3 blocks: about 1 s a trial
    path = make_spec(trials=3, games=150, block=50, pruner="none", reevaluate_games=100)
    args = ("run", str(path), "--storage", pg_url, "--json")
    victim, survivor = cli.start(*args), cli.start(*args)
    held: list[optuna.trial.FrozenTrial] = []
    while not held:  # freeze it while it holds a running trial
        assert _wait_for(lambda: bool(_running_of(pg_url, victim.pid)), step=0.1)
        os.kill(victim.pid, signal.SIGSTOP)
        held = _running_of(pg_url, victim.pid)
        if not held:
            os.kill(victim.pid, signal.SIGCONT)
    killed = held[0]
    assert _wait_for(lambda: _owns_a_trial(pg_url, survivor.pid) or any(
        t.number == killed.number and t.state == TrialState.FAIL for t in _trials(pg_url)))
    os.kill(victim.pid, signal.SIGKILL)
    killed_at = datetime.datetime.now()
    victim.wait(timeout=10)
    (out, err), = _finish([survivor])
    trials = _trials(pg_url)
    by_number = {t.number: t for t in trials}
    assert by_number[killed.number].state == TrialState.FAIL
    retries = [t for t in trials if t.system_attrs.get("failed_trial") == killed.number]
    assert len(retries) == 1 and retries[0].state == TrialState.COMPLETE
    assert retries[0].params == killed.params
    assert _count(trials, TrialState.COMPLETE) == 3
    assert not [t for t in trials if t.state == TrialState.RUNNING]
    assert f"[{killed.number}]" in err  # the survivor said which trial it found stale
    # failed within the grace period (3 s) of its last beat, not the default 120 s
    late = (by_number[killed.number].datetime_complete - killed_at).total_seconds()
    assert late < 30, late


def test_server_down_stops_with_one_line_and_the_same_command_resumes(
        make_spec, pg_url, postgres, cli, monkeypatch):
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0.1")
    monkeypatch.setenv("TABLETUNE_DB_RETRY_SECONDS", "2")
    path = make_spec(trials=6, games=200, block=50, pruner="none", reevaluate_games=100)
    args = ("run", str(path), "--storage", pg_url, "--json")
    proc = cli.start(*args)
    assert _wait_for(lambda: _count(_trials(pg_url), TrialState.COMPLETE) >= 1)
    postgres.stop()  # at least 5 trials of 0.5 s are left
    try:
        out, err = proc.communicate(timeout=PROCESS_SECONDS)
    finally:
        postgres.start()
    assert proc.returncode == 2, err[-800:]
    last = err.strip().splitlines()[-1]
    assert "connection lost" in last and "run the same command again" in last
    assert "s3cret" not in err and "Traceback" not in err
    done = cli(*args, timeout=PROCESS_SECONDS)
    assert done.returncode == 0, done.stderr[-800:]
    trials = _trials(pg_url)
    assert _count(trials, TrialState.COMPLETE) == 6
    assert not [t for t in trials if t.state in (TrialState.RUNNING, TrialState.WAITING)]
    _every_failure_retried(trials)


def _spec(make_spec, trials: int):
    return load_spec(make_spec(trials=trials, games=100, block=50, pruner="none",
                               reevaluate_games=100))


def test_trial_that_never_beat_is_failed_after_the_grace_period(make_spec, pg_url):
    """A trial left RUNNING with no heartbeat at all (its process died right after creating
    it, or a lost connection's insert was retried) must not keep the study's other workers
    waiting: it goes stale one grace period after a worker first sees it."""
    spec = _spec(make_spec, 3)
    study, _ = open_study(spec, pg_url)
    orphan = study.ask()  # created by a worker on another host that died before its beat
    study._storage.set_trial_system_attr(orphan._trial_id, "tabletune:owner", ["far", 1])
    done: list = []
    worker = threading.Thread(target=lambda: done.append(run_study(spec, pg_url)), daemon=True)
    started = time.monotonic()
    worker.start()
    worker.join(timeout=120)
    assert done, "the run waited for a trial that never beat"
    assert time.monotonic() - started < 60  # grace 3 s
    trials = _trials(pg_url)
    assert {t.number: t.state for t in trials}[orphan.number] == TrialState.FAIL
    assert any(t.system_attrs.get("failed_trial") == orphan.number for t in trials)
    assert _count(trials, TrialState.COMPLETE) == 3
    assert done[0].trials_run_here == 3


def test_result_of_a_trial_failed_meanwhile_by_another_worker_is_dropped(make_spec, pg_url):
    """A worker whose heartbeat lapsed (an overloaded machine) finds its trial failed and
    retried by another: its own result must not count as a second trial."""
    study, _ = open_study(_spec(make_spec, 2), pg_url)
    trial = study.ask()
    study._storage.set_trial_state_values(trial._trial_id, TrialState.FAIL)  # the other one
    assert not st.finish_trial(study, trial, 0.5, TrialState.COMPLETE)
    assert [t.state for t in _trials(pg_url)] == [TrialState.FAIL]


def test_state_change_committed_before_the_connection_dropped_is_not_an_error(pg_url):
    """The server commits a trial's result, then the connection drops before the answer:
    the retried call finds the trial finished as asked, which is not a conflict."""
    from sqlalchemy import event
    from sqlalchemy import exc as sa_exc
    storage = st.open_storage(pg_url).storage
    study = optuna.create_study(storage=storage, study_name="drop")
    trial = study.ask()
    fired: list[bool] = []

    def drop_after_commit(session) -> None:
        if not fired:
            fired.append(True)
            raise sa_exc.OperationalError("COMMIT", {}, Exception("server closed the connection"))
    factory = storage.scoped_session.session_factory
    event.listen(factory, "after_commit", drop_after_commit)
    try:
        assert storage.set_trial_state_values(trial._trial_id, TrialState.COMPLETE, [0.5])
    finally:
        event.remove(factory, "after_commit", drop_after_commit)
    assert fired and study.trials[0].state == TrialState.COMPLETE
    assert study.trials[0].value == 0.5


def test_connections_dropped_at_any_storage_call_are_ridden_out(make_spec, pg_url,
                                                                monkeypatch):
    """Every 11th commit loses its connection, half of them after the server committed: each
    storage call Optuna makes (its cache's private ones too) is retried, and the study still
    ends with exactly the requested trials, none lost, none counted twice."""
    from sqlalchemy import event
    from sqlalchemy import exc as sa_exc
    spec = _spec(make_spec, 4)
    commits, dropped = [0], []

    def before(session) -> None:
        commits[0] += 1
        session.info["commit"] = n = commits[0]
        if n % 11 == 0 and (n // 11) % 2:
            dropped.append("before")
            raise sa_exc.OperationalError("COMMIT", {}, Exception("connection dropped"))

    def after(session) -> None:
        n = session.info.get("commit", 1)
        if n % 11 == 0 and not (n // 11) % 2:
            dropped.append("after")
            raise sa_exc.OperationalError("COMMIT", {}, Exception("connection dropped"))
    hooks = {"before_commit": before, "after_commit": after}
    original = st.open_storage

    def open_with_drops(*args, **kwargs):
        opened = original(*args, **kwargs)
        for name, hook in hooks.items():
            event.listen(opened.storage.scoped_session.session_factory, name, hook)
        return opened
    monkeypatch.setattr(st, "open_storage", open_with_drops)
    summary = run_study(spec, pg_url)
    assert dropped.count("before") >= 3 and dropped.count("after") >= 3, dropped
    trials = _trials(pg_url)
    assert _count(trials, TrialState.COMPLETE) == 4 and summary.trials_run_here == 4
    assert not [t for t in trials if t.state in (TrialState.RUNNING, TrialState.WAITING)]
    _every_failure_retried(trials)


def test_dashboard_and_report_from_postgres(make_spec, pg_url, cli, tmp_path, free_port):
    from typer.testing import CliRunner

    from tuning.cli import app
    path = make_spec(trials=3, games=100, block=50, pruner="none", reevaluate_games=100)
    st.open_storage(pg_url)  # Optuna's tables, so the dashboard can start before the study
    port = free_port()
    server = cli.start("dashboard", "--storage", pg_url, "--port", str(port))
    try:  # the dashboard starts while the study runs here
        run_study(load_spec(path), pg_url)
        report = CliRunner().invoke(app, ["report", str(path), "--storage", pg_url, "--out",
                                          str(tmp_path / "rep")])
        assert report.exit_code == 0, report.output
        assert "quad" in (tmp_path / "rep" / "index.html").read_text()

        def studies() -> bytes | None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/studies",
                                            timeout=2) as r:
                    return r.read()
            except OSError:
                return None
        assert _wait_for(lambda: studies() is not None), server.stderr
        names = [s["study_name"] for s in json.loads(studies())["study_summaries"]]
        assert names == ["quad"]
    finally:
        server.terminate()
        server.communicate(timeout=10)


def test_unreachable_database_is_one_line(make_spec, free_port):
    with pytest.raises(InputError) as err:
        run_study(_spec(make_spec, 2), f"postgresql://u:pw@127.0.0.1:{free_port()}/db")
    message = str(err.value)
    assert "\n" not in message and "cannot connect" in message and "refused" in message
    assert ":pw@" not in message


def test_wrong_password_is_one_line_and_nothing_written(make_spec, pg_url):
    """The CLI shows an InputError as one line with exit status 2 (tests/tuning/
    test_bad_inputs.py); here: the message, and nothing written to the database."""
    with pytest.raises(InputError) as err:
        run_study(_spec(make_spec, 2), pg_url.replace(":s3cret@", ":wrong@"))
    message = str(err.value)
    assert "\n" not in message and "cannot connect" in message
    assert "password authentication failed" in message and ":wrong@" not in message
    assert _trials(pg_url) == []


def test_ntbea_workers_share_one_study_on_the_server(make_spec, pg_url, cli, monkeypatch):
    """Two processes run one NTBEA study on PostgreSQL with the Wilcoxon pruner: the budget
    is shared exactly, and every trial after the first is a grid point the model chose."""
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0.02")
    path = make_spec(name="ntpg", trials=10, games=200, block=50, sampler="ntbea",
                     reevaluate_games=100)
    procs = [cli.start("run", str(path), "--storage", pg_url, "--json") for _ in range(2)]
    outs = _finish(procs)
    trials = _trials(pg_url, "ntpg")
    assert _count(trials, TrialState.COMPLETE) + _count(trials, TrialState.PRUNED) == 10
    assert sum(json.loads(out)["trials_run_here"] for out, _ in outs) == 10
    grid = {round(0.05 * i, 10) for i in range(21)}
    assert all(round(t.params["x"], 10) in grid and round(t.params["y"], 10) in grid
               for t in trials if t.params)
