"""Worker processes that end with the run that started them.

loky keeps its workers alive for minutes between tasks (its idle timeout) and has no check
of its own for the death of the main process: after a ``kill -9`` of ``tabletune`` they
would linger, each holding its memory. A worker that receives a task carrying the main
process id starts one daemon thread that exits the worker as soon as that process is no
longer its parent. Tasks that run in the main process itself (one job) start nothing.
"""

from __future__ import annotations

import os
import threading
import time

POLL_SECONDS = 1.0
_watching = False
_lock = threading.Lock()


def main_pid(backend: str) -> int | None:
    """The id to send with tasks: this process for local process pools, else None."""
    return os.getpid() if backend in ("loky", "multiprocessing") else None


def watch_parent(parent: int | None) -> None:
    """In a worker started by ``parent``: exit as soon as ``parent`` is gone (once per process).

    Does nothing in the main process itself, or where ``parent`` is not this process's
    parent (a worker of a cluster scheduler, which manages its own workers).
    """
    global _watching
    if parent is None or _watching or os.getpid() == parent or os.getppid() != parent:
        return
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
