"""Tasks on futures, collected in task order: the window that a cluster (Ray, Dask) and the
block threads of a match share, kept apart from both so that neither imports the other."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol


class Submitter(Protocol):
    """What :func:`imap_ordered` drives: a number of slots, and futures to submit, wait for
    and cancel (:class:`tuning.evaluation._cluster.DaskCluster`, ``RayCluster`` and
    :class:`tuning.evaluation._pool.BlockThreads` have this shape)."""

    def slots(self) -> int: ...

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any: ...

    def result(self, handle: Any) -> Any: ...

    def cancel(self, handles: list[Any]) -> None: ...


def imap_ordered(runner: Submitter, fn: Callable[..., Any],
                 tasks: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
    """``fn(*t)`` for each task on ``runner``, yielded in task order; tasks are drawn
    lazily, about two per slot in flight. Closing early cancels what is queued."""
    window = 2 * runner.slots()
    pending: list[Any] = []
    tasks = iter(tasks)
    try:
        while True:
            while len(pending) < window:
                t = next(tasks, None)
                if t is None:
                    break
                pending.append(runner.submit(fn, t))
            if not pending:
                return
            yield runner.result(pending.pop(0))
    finally:
        runner.cancel(pending)
