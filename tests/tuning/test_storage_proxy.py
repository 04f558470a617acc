"""Studies through Optuna's gRPC storage proxy (`tabletune storage-proxy`) in front of the
test PostgreSQL server: workers share one budget through it, a dead worker's trial is
failed by tabletune's heartbeat and retried, and bad addresses and settings give one line.
One proxy process serves the module's database; each test uses a study of its own."""

from __future__ import annotations

import json
import socket
import threading
import time

import optuna
import pytest
from optuna.trial import TrialState

from games.core import InputError
from tuning._spec import load_spec
from tuning.study import _storage as st
from tuning.study._runner import open_study, run_study

pytest.importorskip("grpc", reason="the gRPC storage proxy needs grpcio (dev extra)")
if not hasattr(optuna.storages, "GrpcStorageProxy"):
    pytest.skip("the gRPC storage proxy needs Optuna 4.2 or later", allow_module_level=True)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("postgres")]
PROCESS_SECONDS = 240  # starting a process can take a minute on two busy cores


@pytest.fixture(scope="module")
def proxy(postgres, cli):
    """(database URL, proxy URL) of a `tabletune storage-proxy` process on a fresh database;
    heartbeat 1 s and grace 3 s for the workers it serves."""
    from tuning.cluster._local_postgres import free_port
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TABLETUNE_HEARTBEAT_SECONDS", "1")
        mp.setenv("TABLETUNE_GRACE_SECONDS", "3")
        url = postgres.create_database("proxied")
        port = free_port()
        server = cli.start("storage-proxy", "--storage", url, "--port", str(port))
        try:
            end = time.monotonic() + PROCESS_SECONDS
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert server.poll() is None, server.communicate()[1]
                    assert time.monotonic() < end, "the storage proxy did not start"
                    time.sleep(0.2)
            yield url, f"grpc://127.0.0.1:{port}"
        finally:
            server.terminate()
            out, err = server.communicate(timeout=30)
    assert server.returncode == 0, err
    assert out == ""  # the ready line is status: stderr
    assert f"storage proxy for {url.replace(':s3cret@', ':***@')} " \
           f"on grpc://127.0.0.1:{port}" in err.splitlines()


def _trials(url: str, name: str) -> list[optuna.trial.FrozenTrial]:
    storage = st.open_storage(url).storage
    return storage.get_all_trials(storage.get_study_id_from_name(name), deepcopy=False)


def _spec(make_spec, name: str, trials: int):
    return load_spec(make_spec(name=name, trials=trials, games=100, block=50, pruner="none",
                               reevaluate_games=100))


def test_two_workers_share_one_study_through_the_proxy(proxy, make_spec, cli, monkeypatch):
    database, address = proxy
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0.05")
    spec = _spec(make_spec, "shared", 6)
    other = cli.start("run", str(spec.path), "--storage", address, "--json")
    here = run_study(spec, address)  # this process is the second worker
    out, err = other.communicate(timeout=PROCESS_SECONDS)
    assert other.returncode == 0, err[-2000:]
    there = json.loads(out)
    trials = _trials(database, "shared")  # in the database behind the proxy
    assert sum(t.state == TrialState.COMPLETE for t in trials) == 6
    assert not [t for t in trials if t.state in (TrialState.RUNNING, TrialState.WAITING)]
    assert len({t.number for t in trials}) == len(trials)
    assert here.trials_run_here + there["trials_run_here"] == 6
    assert there["storage"] == address and there["trials_completed"] == 6
    assert all(t.system_attrs.get("tabletune:heartbeat") for t in trials if t.params)


def test_dead_workers_trial_is_failed_after_the_grace_period_and_retried(proxy, make_spec):
    _, address = proxy
    spec = _spec(make_spec, "orphan", 3)
    study, _ = open_study(spec, address)
    dead = study.ask({name: p.distribution() for name, p in spec.space.items()})
    study._storage.set_trial_system_attr(dead._trial_id, "tabletune:owner", ["far", 1])
    done: list = []
    worker = threading.Thread(target=lambda: done.append(run_study(spec, address)),
                              daemon=True)
    worker.start()
    worker.join(timeout=120)
    assert done, "the run waited for a dead worker's trial beyond the grace period"
    trials = {t.number: t for t in study.get_trials(deepcopy=False)}
    assert trials[dead.number].state == TrialState.FAIL
    retry, = [t for t in trials.values() if t.user_attrs.get("retry_of") == dead.number]
    assert retry.state == TrialState.COMPLETE and retry.params == dead.params
    assert sum(t.state == TrialState.COMPLETE for t in trials.values()) == 3


def test_proxy_that_does_not_answer_is_one_line(make_spec, free_port, monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from tuning.cli import app
    monkeypatch.setenv("TABLETUNE_CONNECT_SECONDS", "1")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    address = f"grpc://127.0.0.1:{free_port()}"
    result = CliRunner().invoke(app, ["run", str(make_spec(trials=2)), "--storage", address])
    assert isinstance(result.exception, InputError), result.output  # main(): one line, exit 2
    message = str(result.exception)
    assert "\n" not in message and f"storage proxy {address} does not answer" in message
    assert not list(work.iterdir())  # nothing written (no runs/ folder either)
    with pytest.raises(InputError, match="give the proxy as grpc://HOST:PORT"):
        st.open_storage("grpc://127.0.0.1:1/some/path")


@pytest.mark.parametrize("case", ["journal", "port taken", "database down", "port"])
def test_storage_proxy_refuses_bad_settings_in_one_line(case, free_port, tmp_path):
    from tuning.study._grpc_proxy import serve
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    args = {"journal": (str(tmp_path / "s.journal"), free_port()),
            "port taken": ("postgresql://u:pw@127.0.0.1:1/db", taken.getsockname()[1]),
            "database down": (f"postgresql://u:pw@127.0.0.1:{free_port()}/db", free_port()),
            "port": ("postgresql://u:pw@127.0.0.1:1/db", 70000)}[case]
    with taken, pytest.raises(InputError) as err:
        serve(args[0], "127.0.0.1", args[1])
    message = str(err.value)
    assert "\n" not in message and ":pw@" not in message
    assert {"journal": "a journal file needs no proxy", "port taken": "Address already in use",
            "database down": "cannot connect", "port": "--port must be"}[case] in message
