"""Dask and Ray evaluation against real clusters started here: the same results as loky for a
study and an evolution, a worker killed mid-evaluation, and addresses that do not answer.
One Dask cluster and one Ray serve the module; each loky reference is computed once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games.core import InputError
from tuning._spec import load_spec
from tuning.evaluation import WorkerPool, candidate_bot, evaluate
from tuning.study._runner import run_study

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("cluster")]
HERE = Path(__file__).resolve().parent
GAMES = ",".join(str(HERE / f) for f in ("quadratic_game.py", "test_evolve_parallel.py"))

EVOLUTION = """
[study]
name = "toy-evolution"
game = "toy-evolve"
optimizer = "deap"
objective = "mean_score"

[evaluation]
games = 40
block = 10
seed = 5
reevaluate_top = 2
reevaluate_games = 60
opponents = ["a", "b"]

[deap]
generations = 2
population = 6
offspring = 8
hall_of_fame = 3

[genome]
kind = "toy-digits"
hall_of_fame_opponents = 1
pool_every = 2
"""


@pytest.fixture(scope="session")
def cluster_env(tmp_path_factory):
    """Environment the cluster workers start with: the test games and a kill switch."""
    kill = tmp_path_factory.mktemp("kill")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TABLETUNE_GAMES", GAMES)
        mp.setenv("TABLETUNE_TEST_KILL_ONCE", str(kill))
        yield kill


@pytest.fixture(scope="session")
def dask_address(cluster_env):
    distributed = pytest.importorskip("dask.distributed", reason="dask[distributed] missing")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    yield cluster.scheduler_address
    cluster.close()


@pytest.fixture(scope="session")
def ray_local(cluster_env):
    ray = pytest.importorskip("ray", reason="ray cannot be installed on this Python")
    env = {k: v for k, v in os.environ.items() if k.startswith("TABLETUNE_")}
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": env})
    yield None
    ray.shutdown()


def _connect(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
             ) -> tuple[str, str | None]:
    """(backend, address) of ``request.param``: a running cluster, or threads of this process
    (no address); the test games are registered here too."""
    monkeypatch.setenv("TABLETUNE_GAMES", GAMES)
    if request.param == "threading":
        return "threading", None
    fixture = "dask_address" if request.param == "dask" else "ray_local"
    return request.param, request.getfixturevalue(fixture)


@pytest.fixture(params=["dask", "ray"])
def cluster(request, monkeypatch):
    """(backend, address) of a running cluster."""
    return _connect(request, monkeypatch)


@pytest.fixture(params=["dask", "ray", "threading"])
def backend(request, monkeypatch):
    """A cluster, or threads of this process: each must agree with loky."""
    return _connect(request, monkeypatch)


def _study(spec, backend: str, address: str | None, folder: Path):
    """A study's trials and its re-evaluated best, run with the given backend."""
    import optuna

    from tuning.study._storage import open_storage
    journal = str(folder / f"{backend}.journal")
    summary = run_study(spec.with_overrides(jobs=2, backend=backend, address=address), journal)
    study = optuna.load_study(study_name="quad", storage=open_storage(journal).storage)
    best = {k: v for k, v in summary.best.items() if k not in ("seconds", "games_per_second")}
    return [(t.number, t.params, t.value, t.state.name) for t in study.trials], best


@pytest.fixture(scope="module")
def study_spec(cluster_env, make_shared_spec):
    return load_spec(make_shared_spec(trials=4, games=200, block=50))


@pytest.fixture(scope="module")
def loky_study(study_spec, tmp_path_factory):
    return _study(study_spec, "loky", None, tmp_path_factory.mktemp("loky"))


def test_study_gives_the_same_results_as_loky(backend, study_spec, loky_study, tmp_path):
    name, address = backend
    assert _study(study_spec, name, address, tmp_path) == loky_study


def _strip(rows):
    return [{k: v for k, v in r.items() if k not in ("seconds", "games_per_s")} for r in rows]


def _evolve(backend: str, address: str | None, folder: Path):
    from tuning.evolution._runner import build_evolution
    path = folder / "toy-evolution.toml"
    path.write_text(EVOLUTION)
    spec = load_spec(path).with_overrides(jobs=2, backend=backend, address=address)
    with WorkerPool(2, backend, address) as pool:
        result = build_evolution(spec, pool, checkpoint=folder / "c.ckpt").run()
    return result.hall_of_fame, _strip(result.logbook)


@pytest.fixture(scope="module")
def loky_evolution(cluster_env, tmp_path_factory):
    return _evolve("loky", None, tmp_path_factory.mktemp("evo"))


def test_evolution_gives_the_same_results_as_loky(backend, loky_evolution, tmp_path):
    name, address = backend
    assert _evolve(name, address, tmp_path) == loky_evolution


@pytest.fixture(scope="module")
def killed_spec(cluster_env, make_shared_spec):
    return load_spec(make_shared_spec(games=400, block=50))


@pytest.fixture(scope="module")
def unkilled(killed_spec):
    """The evaluation that a killed worker must not change (loky, nothing killed)."""
    ev = killed_spec.evaluation
    with WorkerPool(2) as pool:
        return evaluate(killed_spec.scorer(), _bot(), games=ev.games, seed=ev.seed,
                        block=ev.block, pool=pool)


def _bot():
    return candidate_bot({"strategy": "bowl", "params": {"x": 0.4, "y": 0.5, "k": 4}})


def test_killed_worker_task_is_retried_with_the_same_result(cluster, cluster_env, killed_spec,
                                                             unkilled):
    backend, address = cluster
    spec, bot, want = killed_spec, _bot(), unkilled
    ev = spec.evaluation
    (cluster_env / "fired").unlink(missing_ok=True)
    (cluster_env / "armed").touch()
    with WorkerPool(2, backend, address) as pool:
        got = evaluate(spec.scorer(), bot, games=ev.games, seed=ev.seed, block=ev.block,
                       pool=pool)
    assert (cluster_env / "fired").exists(), "no worker was killed"
    assert (got.mean, got.stderr, got.block_means) == (want.mean, want.stderr, want.block_means)


def _run_cli(*args: str):
    """``tabletune ARGS`` in this process; an InputError is what main() shows as one line
    with exit status 2 (tests/tuning/test_bad_inputs.py checks that path)."""
    from typer.testing import CliRunner

    from tuning.cli import app
    return CliRunner().invoke(app, list(args))


def test_scheduler_that_does_not_answer_is_one_line(make_spec, tmp_path, monkeypatch,
                                                     free_port):
    monkeypatch.setenv("TABLETUNE_CONNECT_SECONDS", "2")
    journal = tmp_path / "s.journal"
    result = _run_cli("run", str(make_spec(trials=2)), "--storage", str(journal), "--backend",
                      "dask", "--address", f"tcp://127.0.0.1:{free_port()}")
    assert isinstance(result.exception, InputError), result.output
    message = str(result.exception)
    assert "\n" not in message and "dask scheduler tcp://127.0.0.1:" in message
    assert "does not answer" in message
    assert not journal.exists()


def test_ray_address_that_does_not_answer_is_refused_at_once(free_port):
    pytest.importorskip("ray", reason="ray cannot be installed on this Python")
    with pytest.raises(InputError, match=r"ray cluster 127\.0\.0\.1:\d+ does not answer"):
        with WorkerPool(2, "ray", f"127.0.0.1:{free_port()}"):
            pass


def test_unknown_backend_is_one_line(make_spec, tmp_path):
    journal = tmp_path / "s.journal"
    result = _run_cli("run", str(make_spec(trials=2)), "--storage", str(journal), "--backend",
                      "spark")
    assert isinstance(result.exception, InputError), result.output
    message = str(result.exception)
    assert "\n" not in message and "spark" in message and "dask" in message
    assert not journal.exists()


def test_ladder_gives_the_same_ladder_as_loky(cluster, tmp_path):
    """A ladder's line-ups spread over a Dask or Ray cluster give the same matrix and
    ratings as this machine's workers."""
    from tuning.ladder import LadderRequest, run_ladder

    name, address = cluster

    def ladder(backend: str, where: str | None, folder: str) -> dict:
        return run_ladder(LadderRequest(
            "dominion", ("big-money", "smithy-big-money", "big-money-ultimate"), 300,
            jobs=2, backend=backend, address=where, out=tmp_path / folder))

    here, there = ladder("loky", None, "loky"), ladder(name, address, name)
    assert here["matrix"] == there["matrix"] and here["ratings"] == there["ratings"]
