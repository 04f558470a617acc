"""Tasks on a Dask or Ray cluster: connect once per run, submit, collect results in order.

joblib's own Dask backend does not run with joblib 1.6 (its batches are called with a
``nesting_level`` argument they do not take), and neither joblib backend retries a task whose
worker died. So tasks go to the cluster's own futures, each task one future, in a window of
about two tasks per worker slot, and come back in task order
(:func:`tuning.evaluation._ordered.imap_ordered`). A worker that dies mid-task
loses nothing: Dask reschedules its tasks on the remaining workers (up to
``distributed.scheduler.allowed-failures`` times), Ray retries them (``max_retries``). Results
are the same as with loky because tasks are seeded by game index.

An address that does not answer within ``TABLETUNE_CONNECT_SECONDS`` (10 by default) is
refused with one line naming it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import Any

from games.core import InputError

#: how often a task is tried again on Ray when its worker dies
RAY_RETRIES = 3


def connect_seconds() -> float:
    try:
        return float(os.environ.get("TABLETUNE_CONNECT_SECONDS", "10"))
    except ValueError:
        raise InputError("TABLETUNE_CONNECT_SECONDS must be a number of seconds") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


class DaskCluster:
    """A ``dask.distributed`` client for one run (a local cluster without an address)."""

    def __init__(self, address: str | None) -> None:
        try:
            from dask.distributed import Client
        except ImportError:
            raise InputError(
                "backend 'dask' needs dask.distributed (pip install 'dask[distributed]')") from None
        where = address or "a local cluster"
        try:
            self.client = (Client(address, timeout=connect_seconds()) if address
                           else Client(processes=True, dashboard_address=None))
        except (OSError, TimeoutError, ValueError) as exc:
            raise InputError(f"dask scheduler {where} does not answer "
                             f"({_first_line(exc)})") from None

    def slots(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        return self.client.submit(fn, *args, pure=False)

    def result(self, handle: Any) -> Any:
        return handle.result()

    def cancel(self, handles: list[Any]) -> None:
        if handles:
            self.client.cancel(handles)

    def close(self) -> None:
        self.client.close()


def _call(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


def _probe(address: str) -> None:
    """Refuse a Ray address whose port does not answer (Ray itself waits minutes)."""
    import socket
    from urllib.parse import urlsplit
    if address in ("auto", "local"):
        return
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.hostname is None or parts.port is None:
        raise InputError(f"ray address {address!r}: give HOST:PORT (or ray://HOST:PORT)")
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=connect_seconds()):
            pass
    except OSError as exc:
        raise InputError(f"ray cluster {address} does not answer ({exc.strerror or exc})"
                         ) from None


class RayCluster:
    """Ray for one run: the cluster at ``address``, or a local Ray started here."""

    def __init__(self, address: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise InputError("backend 'ray' needs the ray package (pip install 'ray')") from None
        self.ray = ray
        if address:
            _probe(address)
        self.owned = not ray.is_initialized()
        env = {k: v for k, v in os.environ.items() if k.startswith("TABLETUNE_")}
        if self.owned:
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False,
                         runtime_env={"env_vars": env} if env else None,
                         configure_logging=False)
            except (ConnectionError, TimeoutError, ValueError, RuntimeError) as exc:
                raise InputError(f"ray cluster {address or 'local'} does not answer "
                                 f"({_first_line(exc)})") from None
        self.remote = ray.remote(max_retries=RAY_RETRIES)(_call)

    def slots(self) -> int:
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        return self.remote.remote(fn, *args)

    def result(self, handle: Any) -> Any:
        return self.ray.get(handle)

    def cancel(self, handles: list[Any]) -> None:
        for h in handles:
            with contextlib.suppress(Exception):
                self.ray.cancel(h)

    def close(self) -> None:
        if self.owned:
            self.ray.shutdown()


def connect(backend: str, address: str | None) -> DaskCluster | RayCluster:
    """The run's connection to a cluster of the given backend."""
    return DaskCluster(address) if backend == "dask" else RayCluster(address)

