"""Worker processes forked from this one, each fed through a pipe of its own.

A fork copies every loaded module and compiled numba kernel, so a worker is ready in
milliseconds. Tasks and results travel over one duplex pipe per worker, written and read
by the calling thread itself: no feeder or manager thread has to win the interpreter lock
first, so a task handed out just before this process runs a kernel of its own reaches its
worker at once (an executor's feeder thread would wait for the kernel to finish).
"""

from __future__ import annotations

import multiprocessing
import os
import warnings
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any

from tuning.evaluation._workers import run_unless_stopped, start_forked_worker


class WorkerDied(RuntimeError):
    """A worker process ended while it owed results (killed, or out of memory)."""


class ForkedWorkers:
    """``count`` forked workers; :meth:`send` hands one a task, :meth:`receive` collects.

    Each task carries its stream number: a stream abandoned through :attr:`stopped` has its
    queued tasks skipped by the workers (they answer ``None`` at once).
    """

    def __init__(self, count: int):
        context = multiprocessing.get_context("fork")
        self.stopped = context.RawValue("q", 0)
        self._conns: list[Connection] = []
        self._procs: list[Any] = []
        self._owed: list[deque[tuple[int, int]]] = []
        self._kept: list[tuple[int, int, Any]] = []  # received by run_on_each for a stream
        parent = os.getpid()
        with warnings.catch_warnings():
            # Python 3.12+ warns on every fork of a process that has threads; a worker
            # only runs game kernels, never the locks those threads hold
            warnings.simplefilter("ignore", DeprecationWarning)
            for _ in range(count):
                mine, theirs = context.Pipe()
                proc = context.Process(target=_serve, args=(theirs, parent, self.stopped),
                                       name="tabletune-worker", daemon=True)
                proc.start()
                theirs.close()
                self._conns.append(mine)
                self._procs.append(proc)
                self._owed.append(deque())

    def __len__(self) -> int:
        return len(self._conns)

    def load(self, worker: int) -> int:
        """Tasks handed to ``worker`` whose results have not been received."""
        return len(self._owed[worker])

    def least_loaded(self) -> int:
        """The worker with the fewest tasks owed (the first of equals)."""
        return min(range(len(self._owed)), key=lambda w: len(self._owed[w]))

    def send(self, worker: int, stream: int, index: int, fn: Callable[..., Any],
             args: tuple[Any, ...]) -> None:
        """Hand ``fn(*args)`` to ``worker`` (``fn`` travels by name, ``args`` pickled)."""
        try:
            self._conns[worker].send((stream, index, fn, args))
        except (BrokenPipeError, ConnectionResetError, EOFError) as exc:
            raise self._died(worker) from exc
        self._owed[worker].append((stream, index))

    def receive(self, timeout: float | None = None) -> list[tuple[int, int, Any]]:
        """``(stream, index, result)`` of every task finished, waiting up to ``timeout``
        seconds for the first (``None``: until one finishes). A task that raised raises here."""
        if self._kept:  # results that run_on_each took in meanwhile
            out, self._kept = self._kept, []
            return out
        return self._read(timeout)

    def _read(self, timeout: float | None) -> list[tuple[int, int, Any]]:
        busy = [self._conns[w] for w in range(len(self._conns)) if self._owed[w]]
        if not busy:
            return []
        out = []
        for conn in wait(busy, timeout):
            worker = self._conns.index(conn)  # type: ignore[arg-type]
            try:
                stream, index, ok, value = conn.recv()  # type: ignore[union-attr]
            except (EOFError, ConnectionResetError, OSError) as exc:
                raise self._died(worker) from exc
            self._owed[worker].popleft()
            if not ok:
                raise value
            out.append((stream, index, value))
        return out

    def run_on_each(self, fn: Callable[[], Any]) -> list[Any]:
        """``fn()`` once in every worker, after the tasks it already has (never skipped:
        index -1 marks it)."""
        for w in range(len(self._conns)):
            self.send(w, 0, -1, fn, ())
        results: list[Any] = []
        while any(self._owed):
            for stream, index, value in self._read(None):
                if index == -1:
                    results.append(value)
                else:  # a stream's result: kept for its next receive
                    self._kept.append((stream, index, value))
        return results

    def close(self) -> None:
        """Stop every worker at once: queued tasks are dropped, running ones killed (a
        stopped run's leftovers are never waited for)."""
        for conn in self._conns:
            conn.close()
        for proc in self._procs:
            if proc.is_alive():
                proc.kill()
        for proc in self._procs:
            proc.join(timeout=5)
        self._conns.clear()
        self._procs.clear()
        self._owed.clear()

    def _died(self, worker: int) -> WorkerDied:
        proc = self._procs[worker]
        proc.join(timeout=1)
        return WorkerDied(f"worker process {proc.pid} ended unexpectedly (exit code "
                          f"{proc.exitcode}); out of memory? The run stops here.")


def _serve(conn: Connection, parent: int, stopped: Any) -> None:
    """A worker's life: answer tasks in order until the pipe closes."""
    start_forked_worker(parent, stopped)
    while True:
        try:
            stream, index, fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            value = fn(*args) if index < 0 else run_unless_stopped(stream, fn, args)
            answer = (stream, index, True, value)
        except BaseException as exc:  # raised again in the main process
            answer = (stream, index, False, exc)
        try:
            conn.send(answer)
        except Exception as exc:  # a result or exception that cannot be pickled
            conn.send((stream, index, False,
                       RuntimeError(f"a worker's result could not be sent back: {exc}")))
