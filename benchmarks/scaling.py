"""How many trials per second one study storage sustains, with 1, 2, 4, 8 worker processes.

Starts a throw-away PostgreSQL server on loopback (tuning.cluster._local_postgres), then, for
each worker count, N processes run ``run_study`` on one fresh database with a near-instant
objective (a bench-only game whose every game is a constant: the storage is all that is
measured). Each process imports and connects first, then all start together; trials/s is
the study's trials divided by the time from that start to the last process's end. The same
is measured through one gRPC storage proxy in front of PostgreSQL (``tabletune
storage-proxy``, its own process, a fresh database per worker count) and on a journal file.
Prints one line per (storage, workers) and, with --json, writes the figures.

    python benchmarks/scaling.py [--trials-per-worker 30] [--workers 1 2 4 8]
                                 [--storages postgresql grpc-proxy journal] [--json PATH]

The machine's cores are shared by the workers and the server here, so on a 2-core machine
these are lower bounds for a server on its own host.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games import registry  # noqa: E402
from games.core import BotSpec, tunable  # noqa: E402


def _bench_game() -> None:
    """Register ``bench-flat``: every game scores 0.5 at once (workers import this file)."""
    import dataclasses

    @dataclasses.dataclass
    class FlatParams:
        x: float = tunable(0.5, 0.0, 1.0)
        y: float = tunable(0.5, 0.0, 1.0)

    class FlatGame(registry.Game):
        name = "bench-flat"
        summary = "constant score (storage benchmark only)"
        player_counts = (1,)
        objectives = ("mean_score",)

        def bots(self):
            return {"flat": registry.BotInfo("flat", "constant", FlatParams)}

        def play(self, bots: list[BotSpec], options, seed, start, count, *, rotate=True):
            return registry.Outcomes(start, np.zeros((count, 1), dtype=np.int64),
                                     np.zeros((count, 1), dtype=np.int8),
                                     np.full((count, 1), 0.5), np.ones(count, dtype=np.int64),
                                     np.zeros(count, dtype=np.bool_))

    if "bench-flat" not in registry.names():
        registry.register(FlatGame())


_bench_game()

SPEC = """
[study]
name = "bench"
game = "bench-flat"
strategy = "flat"
objective = "mean_score"

[evaluation]
games = 10
block = 10
seed = 1

[optuna]
trials = {trials}
sampler = "random"
pruner = "none"

[space.x]
low = 0.0
high = 1.0

[space.y]
low = 0.0
high = 1.0
"""


STORAGES = ("postgresql", "grpc-proxy", "journal")


def _worker(spec_path: str, storage: str, barrier, out) -> None:
    from tuning._best import resolve_opponents
    from tuning._spec import load_spec
    from tuning.study._runner import open_study, run_study
    spec = resolve_opponents(load_spec(spec_path))
    open_study(spec, storage)  # connect and create tables before the clock starts
    barrier.wait()
    run_study(spec, storage, reevaluate_best=False)
    out.put(time.perf_counter())


def measure(storage: str, workers: int, trials: int, folder: Path) -> float:
    """Trials per second for ``workers`` processes finishing ``trials`` on ``storage``."""
    spec_path = folder / f"bench-{workers}.toml"
    spec_path.write_text(SPEC.format(trials=trials))
    ctx = mp.get_context("spawn")
    barrier, out = ctx.Barrier(workers + 1), ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(str(spec_path), storage, barrier, out))
             for _ in range(workers)]
    for p in procs:
        p.start()
    barrier.wait()
    start = time.perf_counter()
    ends = [out.get(timeout=600) for _ in procs]
    for p in procs:
        p.join()
    return trials / (max(ends) - start)


@contextlib.contextmanager
def storage_proxy(database: str):
    """A ``tabletune storage-proxy`` process in front of ``database``; yields its URL."""
    from tuning.cluster._local_postgres import free_port
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "tuning.cli", "storage-proxy", "--storage",
                             database, "--port", str(port)], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > end:
                    sys.exit(f"storage proxy did not start: {proc.communicate()[1].strip()}")
                time.sleep(0.2)
        yield f"grpc://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials-per-worker", type=int, default=30)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4, 8])
    ap.add_argument("--storages", nargs="+", default=list(STORAGES), choices=STORAGES)
    ap.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = ap.parse_args()
    os.environ["TABLETUNE_GAMES"] = str(Path(__file__).resolve())
    from tuning.cluster._local_postgres import PostgresServer, find_binaries
    bin_dir = find_binaries()
    if bin_dir is None:
        sys.exit("no PostgreSQL binaries: pip install pgserver")
    server = PostgresServer(bin_dir)
    results: list[dict] = []
    try:
        server.init()
        server.start()
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            for n in args.workers:
                trials = n * args.trials_per_worker
                for kind in args.storages:
                    with contextlib.ExitStack() as stack:
                        if kind == "journal":
                            storage = str(folder / f"bench-{n}.journal")
                        else:
                            storage = server.create_database(f"bench_{kind[:4]}_{n}")
                        if kind == "grpc-proxy":
                            storage = stack.enter_context(storage_proxy(storage))
                        rate = measure(storage, n, trials, folder)
                    results.append({"storage": kind, "workers": n, "trials": trials,
                                    "trials_per_second": rate})
                    print(f"{kind:<10} workers {n}: {trials} trials, {rate:6.1f} trials/s",
                          flush=True)
    finally:
        server.cleanup()
    if args.json:
        args.json.write_text(json.dumps({"cores": os.cpu_count(), "results": results},
                                        indent=1))


if __name__ == "__main__":
    main()
