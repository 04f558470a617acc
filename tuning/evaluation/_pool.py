"""Worker processes kept for a whole run (a study, an evolution, a re-evaluation, a match).

``WorkerPool`` is opened once per run and maps tasks to results in task order:

- ``jobs = 1``: everything runs in this process;
- one machine, where the system can fork (Linux): ``jobs`` worker processes forked from
  this process (:mod:`tuning.evaluation._forked`). They start in milliseconds with every
  module and compiled numba kernel already loaded, so even a match of a fraction of a
  second is shared; this process only hands out tasks and collects results. A ``share``
  pool (a match, whose process has nothing else to do) forks ``jobs - 1`` and plays tasks
  here too whenever every worker has its queue full;
- ``loky`` elsewhere (macOS, Windows, or ``TABLETUNE_START_METHOD=loky``): ``jobs - 1``
  worker processes plus this process, which takes tasks itself instead of waiting. A
  fresh worker imports everything (about a second of a core), so workers start only once
  this process has done a second of work alone, and it goes on working while they start.

  Either way workers are kept for the rest of the run, so ``--jobs 2`` is never slower
  than ``--jobs 1``. Stopping early (a
  pruned trial) submits nothing more and drops the few queued results; workers are never
  killed in the middle of a run;
- ``threading``: ``jobs`` threads in this process, for games whose blocks run in one
  compiled kernel that releases the interpreter lock (the game's ``releases_gil``; a match of
  ``tabletune play`` picks it then). Nothing is forked or copied, so even a match of a
  fraction of a second is shared at the machine's full speed. Blocks that run Python gain
  nothing from threads: use processes for them;
- ``ray`` / ``dask`` (a cluster): connected once per run; tasks go to the cluster's own
  futures (see :mod:`tuning.evaluation._cluster`), retried there if a worker dies.

Results never depend on the pool: tasks are seeded by game index, and results come back in
task order.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any

from games.core import InputError
from tuning.evaluation._forked import ForkedWorkers
from tuning.evaluation._ordered import imap_ordered
from tuning.evaluation._workers import watch_parent

BACKENDS = ("loky", "threading", "ray", "dask")
#: seconds an idle worker waits for work before it exits (also bounds how long workers
#: outlive a parent that was killed)
IDLE_SECONDS = 20
#: seconds of work this process does alone before it starts workers: starting one (a Python
#: process importing numpy, numba and the game's kernels) costs about a second of a core,
#: which a shorter run would never win back on a small machine
START_AFTER_SECONDS = 1.0
#: environment variable to force a start method: ``fork`` or ``loky``
START_METHOD_ENV = "TABLETUNE_START_METHOD"


def fork_workers() -> bool:
    """True when worker processes are forked from this one (Linux, unless
    ``TABLETUNE_START_METHOD=loky``): forking copies the loaded modules and compiled
    kernels, which a fresh interpreter takes about a second to rebuild."""
    chosen = os.environ.get(START_METHOD_ENV, "").strip().lower()
    if chosen and chosen not in ("fork", "loky"):
        raise InputError(f"{START_METHOD_ENV} must be 'fork' or 'loky', got {chosen!r}")
    if chosen == "loky":
        return False
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def resolve_jobs(jobs: int) -> int:
    """A job count: ``-1`` means every core; anything else must be positive."""
    if jobs == -1:
        return os.cpu_count() or 1
    if jobs < 1:
        raise InputError(f"--jobs must be a positive number (or -1 for all cores), got {jobs}")
    return jobs


@contextlib.contextmanager
def backend_context(backend: str, address: str | None = None) -> Iterator[Any]:
    """Connect to a Ray or Dask cluster for the duration of a run (yields the connection);
    loky and threading need nothing (yield None)."""
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}; use one of {', '.join(BACKENDS)}")
    if backend in ("ray", "dask"):
        from tuning.evaluation._cluster import connect
        cluster = connect(backend, address)
        try:
            yield cluster
        finally:
            cluster.close()
    else:
        yield None


class BlockThreads:
    """A pool of threads behind the interface that :func:`tuning.evaluation._ordered.imap_ordered`
    drives (slots, submit, result, cancel), for blocks whose kernel releases the lock."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.executor = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="tabletune-block")

    def slots(self) -> int:
        return self.jobs

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Future:
        return self.executor.submit(fn, *args)

    def result(self, handle: Future) -> Any:
        return handle.result()

    def cancel(self, handles: list[Future]) -> None:
        for handle in handles:  # what has not started is withdrawn; a running block
            handle.cancel()  # finishes and is dropped

    def close(self) -> None:
        # a block already running finishes (a kernel cannot be interrupted): wait for it
        # here, a few ms, so no thread is left for the interpreter's exit to join (a second
        # Ctrl-C there would print a traceback)
        self.executor.shutdown(wait=True, cancel_futures=True)


class WorkerPool:
    """A run's workers; use as a context manager, then :meth:`imap` or :meth:`map`."""

    def __init__(self, jobs: int = 1, backend: str = "loky", address: str | None = None,
                 *, share: bool = False):
        """``share``: this process takes tasks too while it waits (a match, whose process
        has nothing else to do): forked pools then fork ``jobs - 1`` workers."""
        self.jobs = resolve_jobs(int(jobs))
        if backend not in BACKENDS:
            raise InputError(f"unknown backend {backend!r}; use one of {', '.join(BACKENDS)}")
        self.backend = backend
        self.address = address
        self._stack: contextlib.ExitStack | None = None
        self._executor: Any = None
        self._threads: BlockThreads | None = None
        self._alone_seconds = 0.0  # work done here before the workers were started
        self._cluster: Any = None
        self._forked = fork_workers() if backend == "loky" and self.jobs > 1 else False
        self._share = share and self._forked
        self._workers: ForkedWorkers | None = None
        self._streams = 0  # streams handed to forked workers so far

    # ---- lifetime
    def __enter__(self) -> WorkerPool:
        self._stack = contextlib.ExitStack()
        self._cluster = self._stack.enter_context(backend_context(self.backend, self.address))
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers and leave the cluster (idempotent)."""
        if self._workers is not None:
            self._workers.close()
            self._workers = None
        if self._executor is not None:
            self._executor.shutdown(wait=False, kill_workers=True)
            self._executor = None
        if self._threads is not None:
            self._threads.close()
            self._threads = None
        if self._stack is not None:
            self._stack.close()
            self._stack = None
            self._cluster = None

    @property
    def inline(self) -> bool:
        """True when every task runs in this process."""
        return self.jobs == 1 and self.backend in ("loky", "threading")

    def _forked_workers(self) -> ForkedWorkers:
        if self._workers is None:
            self._workers = ForkedWorkers(self.jobs - 1 if self._share else self.jobs)
        return self._workers

    def _loky(self) -> Any:
        if self._executor is None:
            from joblib.externals.loky import get_reusable_executor
            # each worker watches this process from its start and exits with it
            self._executor = get_reusable_executor(max_workers=self.jobs - 1,
                                                   timeout=IDLE_SECONDS,
                                                   initializer=watch_parent,
                                                   initargs=(os.getpid(),))
        return self._executor

    def start(self) -> None:
        """Fork the workers now, where they are forked: a caller about to start threads of
        its own (a trial claimed ahead) calls this first, so that no worker is forked while
        such a thread holds a lock the worker would then wait for forever."""
        if self._forked:
            self._forked_workers()

    def on_workers(self, fn: Callable[[], Any]) -> list[Any]:
        """``fn()`` once in each worker process (e.g. its peak memory); empty when inline."""
        if self.inline or self.backend != "loky":
            return []  # threads share this process; a cluster reports its own
        if self._forked:
            return self._forked_workers().run_on_each(fn)
        executor = self._loky()
        futures = [executor.submit(fn) for _ in range(4 * (self.jobs - 1))]
        return [f.result() for f in futures]

    # ---- mapping
    def map(self, fn: Callable[..., Any], tasks: Iterable[tuple[Any, ...]]) -> list[Any]:
        """``[fn(*t) for t in tasks]``, spread over the workers."""
        return list(self.imap(fn, tasks))

    def imap(self, fn: Callable[..., Any], tasks: Iterable[tuple[Any, ...]],
             ahead: int | None = None) -> Iterator[Any]:
        """``fn(*t)`` for each task, yielded in task order as they complete. Tasks are drawn
        lazily (a long match never lists its blocks); closing the iterator early submits
        nothing more; the few tasks already queued on workers finish and are dropped.
        ``ahead`` caps the tasks handed out at once (default: two per worker); an evaluation
        that may stop early keeps it small so that little is left over when it does."""
        if self.inline:
            for t in tasks:
                yield fn(*t)
        elif self._forked:
            yield from self._imap_forked(fn, iter(tasks), ahead)
        elif self.backend == "loky":
            yield from self._imap_loky(fn, iter(tasks))
        elif self.backend == "threading":
            yield from self._imap_threads(fn, iter(tasks))
        else:
            yield from self._imap_cluster(fn, tasks)

    def _imap_cluster(self, fn: Callable[..., Any], tasks: Iterable[tuple[Any, ...]]
                      ) -> Iterator[Any]:
        if self._cluster is None:
            raise RuntimeError("a ray/dask WorkerPool is used inside its 'with' block only")
        yield from imap_ordered(self._cluster, fn, tasks)

    def _imap_forked(self, fn: Callable[..., Any], tasks: Iterator[tuple[Any, ...]],
                     ahead: int | None = None) -> Iterator[Any]:
        """Forked workers do the tasks; this process hands them out and collects, and in a
        shared pool takes the next task itself whenever every worker has its queue full.
        Without ``share`` it never runs a task: a study's own threads (a trial claimed
        ahead, journal writes) would wait behind a kernel that holds the interpreter lock."""
        workers = self._forked_workers()
        self._streams += 1
        stream = self._streams  # when this stream stops early, its queued tasks are skipped
        # one running and one queued task per worker: no idle gap between tasks
        in_flight = max(1, ahead) if ahead else 2 * len(workers)
        owed = 0  # tasks of this stream handed out and not yet back
        done: dict[int, Any] = {}
        nxt = emit = 0
        exhausted = False

        def collect(timeout: float | None) -> None:
            nonlocal owed
            for s, i, value in workers.receive(timeout):
                if s == stream:  # results of an abandoned stream are dropped
                    done[i] = value
                    owed -= 1

        try:
            while True:
                collect(0.0)  # what finished meanwhile frees its worker's queue first
                while not exhausted and owed < in_flight:
                    w = workers.least_loaded()
                    if workers.load(w) >= 2:
                        break
                    t = next(tasks, None)
                    if t is None:
                        exhausted = True
                        break
                    workers.send(w, stream, nxt, fn, t)
                    nxt += 1
                    owed += 1
                here = next(tasks, None) if self._share and not exhausted else None
                if here is not None:
                    done[nxt] = fn(*here)
                    nxt += 1
                elif self._share:
                    exhausted = True
                while emit in done:
                    yield done.pop(emit)
                    emit += 1
                if here is None:
                    if not owed and exhausted:
                        break
                    # with nothing owed and tasks left, the workers are busy with an
                    # abandoned stream's tasks: waiting drains them
                    collect(None)
            while emit in done:
                yield done.pop(emit)
                emit += 1
        finally:
            if owed:  # a stopped evaluation: what workers have not started is skipped
                workers.stopped.value = stream

    def _imap_threads(self, fn: Callable[..., Any], tasks: Iterator[tuple[Any, ...]]
                      ) -> Iterator[Any]:
        """``jobs`` threads play, this one hands out and collects (in task order, as on a
        cluster). It plays nothing itself: a task here would hold up handing out the next."""
        if self._threads is None:
            self._threads = BlockThreads(self.jobs)
        yield from imap_ordered(self._threads, fn, tasks)

    def _imap_loky(self, fn: Callable[..., Any], tasks: Iterator[tuple[Any, ...]]
                   ) -> Iterator[Any]:
        in_flight = 2 * (self.jobs - 1)  # a queued task per worker: no idle gap between tasks
        done: dict[int, Any] = {}
        running: dict[int, tuple[Future, tuple[Any, ...]]] = {}
        nxt = emit = 0
        task = next(tasks, None)
        if task is None:
            return
        while self._executor is None and self._alone_seconds < START_AFTER_SECONDS:
            t0 = time.perf_counter()  # a short run is done here alone: no worker to start
            result = fn(*task)
            self._alone_seconds += time.perf_counter() - t0
            yield result
            task = next(tasks, None)
            if task is None:
                return
        queue = [task]

        def draw() -> tuple[Any, ...] | None:
            return queue.pop(0) if queue else next(tasks, None)

        executor = self._loky()
        try:
            while True:
                while len(running) < in_flight:
                    t = draw()
                    if t is None:
                        break
                    running[nxt] = (executor.submit(fn, *t), t)
                    nxt += 1
                for i, (fut, _) in list(running.items()):
                    if fut.done():
                        done.setdefault(i, fut.result())
                        del running[i]
                while emit in done:
                    yield done.pop(emit)
                    emit += 1
                t = draw()
                if t is not None:  # this process takes the next task itself
                    done[nxt] = fn(*t)
                    nxt += 1
                elif not running:
                    break
                elif emit in running:
                    # nothing new to take and the next result is still at a worker (starting,
                    # or behind tasks a stopped evaluation left queued): do it here too;
                    # whichever copy finishes first is used, the games are the same
                    _, args = running.pop(emit)
                    done[emit] = fn(*args)
                else:
                    wait([f for f, _ in running.values()], return_when=FIRST_COMPLETED)
            while emit in done:
                yield done.pop(emit)
                emit += 1
        finally:
            # tasks already handed to workers finish there and are dropped (a loky future
            # cannot be cancelled safely once queued); nothing more is submitted
            running.clear()
