"""Shared fixtures of the tuning tests: a tiny noisy objective and spec files built on it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QUADRATIC = str(Path(__file__).resolve().parent / "quadratic_game.py")
TOY_EVOLVE = Path(__file__).resolve().parent / "test_evolve_parallel.py"

# A suite started in the background of a non-interactive shell (`cmd &`, nohup) inherits an
# ignored SIGINT, and every command it starts would inherit that too: the Ctrl-C tests
# would then wait for commands that never hear the signal. A handler set here is reset to
# the default in each child at exec, so the commands start with Ctrl-C working.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def quadratic_game(monkeypatch: pytest.MonkeyPatch) -> str:
    """Register the test-only ``quadratic`` game (also seen by subprocesses via the env)."""
    monkeypatch.setenv("TABLETUNE_GAMES", QUADRATIC)
    return QUADRATIC


def quad_spec(tmp_path: Path, name: str = "quad", trials: int = 12, games: int = 200,
              block: int = 50, extra_game: str = "", pruner: str = "wilcoxon",
              sampler: str = "tpe", seed: int = 1, reevaluate_games: int = 400) -> Path:
    """Write a small spec over the quadratic objective and return its path (with sampler
    ``ntbea`` the floats get a step: NTBEA searches a grid)."""
    grid = "step = 0.05" if sampler == "ntbea" else ""
    text = textwrap.dedent(f"""
        [study]
        name = "{name}"
        description = "noisy quadratic bowl"
        game = "quadratic"
        strategy = "bowl"
        objective = "mean_score"

        [game]
        noise = 0.2
        {extra_game}

        [evaluation]
        games = {games}
        block = {block}
        seed = {seed}
        reevaluate_top = 2
        reevaluate_games = {reevaluate_games}

        [optuna]
        trials = {trials}
        sampler = "{sampler}"
        pruner = "{pruner}"
        n_startup_trials = 4

        [space.x]
        low = 0.0
        high = 1.0
        {grid}

        [space.y]
        low = 0.0
        high = 1.0
        {grid}

        [space.k]
        type = "int"
        low = 1
        high = 9
    """)
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


def run_cli(*args: str, cwd: Path | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``tabletune`` in a fresh interpreter (as a user would)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "tuning.cli", *args], cwd=cwd or ROOT,
                          env=env, capture_output=True, text=True, timeout=timeout)


def start_cli(*args: str, cwd: Path | None = None) -> subprocess.Popen:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONFAULTHANDLER"] = "1"  # a test that finds it hung dumps its stacks (SIGABRT)
    return subprocess.Popen([sys.executable, "-m", "tuning.cli", *args], cwd=cwd or ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture()
def toy_spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The toy digit-sum evolution of test_evolve_parallel (its file is the objective, also
    for worker and CLI processes)."""
    import importlib.util

    monkeypatch.setenv("TABLETUNE_GAMES", str(TOY_EVOLVE))
    spec = importlib.util.spec_from_file_location("toy_evolve_game", TOY_EVOLVE)
    toy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(toy)
    path = tmp_path / "toy-evolution.toml"
    path.write_text(toy.SPEC)
    return path


@pytest.fixture
def make_spec(tmp_path: Path):
    """Factory fixture: ``make_spec(name=..., trials=...)`` writes a quadratic spec."""
    def factory(**kwargs) -> Path:
        return quad_spec(tmp_path, **kwargs)
    return factory


@pytest.fixture
def main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture):
    """``main(*args)`` runs ``tabletune ARGS`` in this process as the console script does
    (bad input: exit status 2); returns (exit status, stdout, stderr)."""
    def run(*args: str) -> tuple[int, str, str]:
        from tuning import cli
        monkeypatch.setattr(sys, "argv", ["tabletune", *args])
        with pytest.raises(SystemExit) as info:
            cli.main()
        out = capsys.readouterr()
        return info.value.code, out.out, out.err
    return run


@pytest.fixture(scope="module")
def make_shared_spec(tmp_path_factory):
    """``make_spec`` for module-scoped fixtures (each spec in a folder of its own)."""
    def factory(**kwargs) -> Path:
        return quad_spec(tmp_path_factory.mktemp("spec"), **kwargs)
    return factory


@pytest.fixture(scope="session")
def cli():
    """``cli(*args)`` runs tabletune in a subprocess; ``cli.start(*args)`` starts one."""
    # import what the command imports here first: on a fresh clone this compiles the games'
    # kernels once and caches them, instead of in every process a test starts at once
    import tuning.cli  # noqa: F401
    class Runner:
        def __call__(self, *args: str, **kw) -> subprocess.CompletedProcess:
            return run_cli(*args, **kw)

        def start(self, *args: str, **kw) -> subprocess.Popen:
            return start_cli(*args, **kw)
    return Runner()


@pytest.fixture(scope="session")
def postgres():
    """A real PostgreSQL server for this test session (temporary folder, loopback port)."""
    pytest.importorskip("psycopg", reason="the PostgreSQL driver is in the dev extra")
    from tuning.cluster._local_postgres import PostgresServer, find_binaries
    bin_dir = find_binaries()
    if bin_dir is None:
        pytest.skip("no PostgreSQL server binaries (pip install pgserver, or Debian's postgresql)")
    # in memory where the machine has a tmpfs (its thousands of files are written and
    # deleted in no time on a busy disk), else in the temp dir (also where /dev/shm is noexec)
    memory = [Path("/dev/shm")] if os.access("/dev/shm", os.W_OK | os.X_OK) else []
    for parent in (*memory, None):
        server = PostgresServer(bin_dir, parent)
        try:
            server.init()
            server.start()
            break
        except Exception as exc:  # noqa: BLE001 - say why the PostgreSQL tests cannot run
            server.cleanup()
            if parent is None:
                pytest.skip(f"cannot start PostgreSQL from {bin_dir}: {exc}")
    yield server
    server.cleanup()


@pytest.fixture
def pg_url(postgres, request, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh database on the session's server; short heartbeat and grace for the test."""
    monkeypatch.setenv("TABLETUNE_HEARTBEAT_SECONDS", "1")
    monkeypatch.setenv("TABLETUNE_GRACE_SECONDS", "3")
    import uuid
    name = "".join(c if c.isalnum() else "_" for c in request.node.name.lower())[:40]
    return postgres.create_database(f"t_{name}_{uuid.uuid4().hex[:8]}")


@pytest.fixture
def free_port():
    """``free_port()``: a loopback port nothing listens on (for addresses that must fail)."""
    from tuning.cluster._local_postgres import free_port as port
    return port
