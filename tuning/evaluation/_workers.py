"""Worker processes that end with the run that started them.

loky keeps its workers alive for minutes between tasks (its idle timeout) and has no check
of its own for the death of the main process: after a ``kill -9`` of ``tabletune`` they
would linger, each holding its memory. Each worker of a :class:`WorkerPool` runs
:func:`watch_parent` as it starts: one daemon thread exits the worker as soon as the main
process is no longer its parent.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

POLL_SECONDS = 1.0
_watching = False
_lock = threading.Lock()


def watch_parent(parent: int | None) -> None:
    """In a worker started by ``parent`` (the pool's initializer): exit as soon as ``parent``
    is gone (once per process), also when it died while this worker was still starting.

    Does nothing in the main process itself or without a parent id (cluster workers, which
    their scheduler manages).
    """
    global _watching
    if parent is None or _watching or os.getpid() == parent:
        return
    if os.getppid() != parent:  # the parent died before this worker finished starting
        os._exit(1)
    with _lock:
        if _watching:
            return
        _watching = True
    threading.Thread(target=_watch, args=(parent,), name="tabletune-parent-watch",
                     daemon=True).start()


def _watch(parent: int) -> None:
    while True:
        time.sleep(POLL_SECONDS)
        if os.getppid() != parent:  # the parent died: this process was handed to init
            os._exit(1)


#: in a forked worker: the shared number below which streams of tasks were abandoned
_stopped: Any = None


def start_forked_worker(parent: int, stopped: Any = None) -> None:
    """Initializer of a worker forked from ``parent``: the parent's signal handlers (a
    graceful stop on Ctrl-C or SIGTERM) are the parent's job, so the worker ignores Ctrl-C
    (the parent stops the pool) and dies on SIGTERM; then it watches the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    global _watching, _stopped
    _stopped = stopped
    _watching = False  # a flag copied from a parent that watched its own parent
    watch_parent(parent)


def run_unless_stopped(stream: int, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """Worker task: ``fn(*args)``, or nothing when its stream was abandoned meanwhile (a
    pruned trial's queued blocks cost a check, not a block of games)."""
    if _stopped is not None and _stopped.value >= stream:
        return None
    return fn(*args)
