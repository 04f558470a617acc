"""Optuna's gRPC storage proxy: one process holds the database, workers reach it over gRPC.

``tabletune storage-proxy --storage postgresql://... --port 13000`` runs :func:`serve`: one
process connected to the database (with Optuna's storage cache and the same retries of a
lost connection as a worker) answers Optuna's storage calls over gRPC. Workers then pass
``--storage grpc://HOST:13000``: they open no database connection and keep a cache of
finished trials, so the SQL work is done once, in the proxy, instead of in every worker.

Through the proxy there is no Optuna heartbeat (its protocol has none), so running trials
carry tabletune's own heartbeat attribute, as on a journal file, and a trial whose beat is
older than ``TABLETUNE_GRACE_SECONDS`` is failed and queued again; the hosts' clocks must
agree to well within that grace period (NTP). A proxy that does not answer within
``TABLETUNE_CONNECT_SECONDS`` (10 by default) stops the command with one line; a proxy
lost mid-run is waited for up to ``TABLETUNE_DB_RETRY_SECONDS``, like a database.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from games.core import InputError
from tuning.evaluation import connect_seconds
from tuning.study._retry import retry_seconds, storage_methods, wrap_methods

SCHEME = "grpc://"
DEFAULT_PORT = 13000


def is_proxy(location: str) -> bool:
    return location.startswith(SCHEME)


def parse_address(location: str) -> tuple[str, int]:
    """``grpc://HOST:PORT`` as (host, port); one line naming the problem otherwise."""
    try:
        parts = urlsplit(location)
        host, port = parts.hostname, parts.port
    except ValueError as exc:
        raise InputError(f"storage {location}: {exc}") from None
    if not host or parts.path not in ("", "/"):
        raise InputError(f"storage {location}: give the proxy as grpc://HOST:PORT")
    return host, port or DEFAULT_PORT


def _grpc() -> Any:
    try:
        import grpc
    except ImportError:
        raise InputError("the gRPC storage proxy needs grpcio (pip install grpcio, or the "
                         "cluster extra)") from None
    return grpc


def _is_unavailable(exc: BaseException) -> bool:
    grpc = _grpc()
    return isinstance(exc, grpc.RpcError) and exc.code() in (
        grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


def _proxy_class() -> type:
    """``GrpcStorageProxy`` whose calls are retried while the proxy cannot be reached."""
    try:
        from optuna.storages import GrpcStorageProxy
    except ImportError:
        raise InputError("the gRPC storage proxy needs Optuna 4.2 or later") from None

    class RetryingGrpcProxy(GrpcStorageProxy):
        retry_seconds = 0.0
        shown = ""

        @staticmethod
        def notice(message: str) -> None:
            sys.stderr.write(f"warning: {message}\n")
            sys.stderr.flush()

        def reset(self) -> None:  # a gRPC channel reconnects by itself
            pass

        @staticmethod
        def reason(exc: BaseException) -> str:
            details = getattr(exc, "details", lambda: None)()
            text = (details or str(exc)).strip().splitlines()
            return text[0] if text else type(exc).__name__

    wrap_methods(RetryingGrpcProxy, storage_methods(), _is_unavailable)
    return RetryingGrpcProxy


_PROXY: type | None = None


def open_proxy(location: str) -> Any:
    """A client of the proxy at ``grpc://HOST:PORT``, once it answers; one line if not."""
    global _PROXY
    host, port = parse_address(location)
    _grpc()
    if _PROXY is None:
        _PROXY = _proxy_class()
    import warnings

    import optuna
    with warnings.catch_warnings():  # the proxy is marked experimental in Optuna 4.2-5.0
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        proxy = _PROXY(host=host, port=port)
    wait = connect_seconds()
    try:
        proxy.wait_server_ready(timeout=wait)
    except ConnectionError:
        proxy.close()
        raise InputError(f"storage proxy {location} does not answer within {wait:g}s "
                         "(start it with: tabletune storage-proxy --storage URL "
                         f"--port {port})") from None
    proxy.shown = location
    proxy.retry_seconds = retry_seconds()
    return proxy


def _check_listen(host: str, port: int) -> None:
    """Refuse an address this machine cannot listen on, in one line (gRPC's own refusal
    comes with log lines of its C core)."""
    import socket
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, 0,
                                                             socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        raise InputError(f"storage proxy cannot listen on {host}:{port} "
                         f"({exc.strerror or exc})") from None


def serve(storage: str, host: str, port: int, threads: int = 16,
          ready: Callable[[str], None] | None = None) -> None:
    """Serve the RDB storage at ``storage`` on ``host:port`` until SIGINT or SIGTERM."""
    if "://" not in storage or is_proxy(storage):
        raise InputError(f"--storage {storage}: the proxy serves a database URL "
                         "(postgresql://...); a journal file needs no proxy")
    if not 0 < port < 65536:
        raise InputError(f"--port must be 1..65535, got {port}")
    if threads < 1:
        raise InputError(f"--threads must be a positive number, got {threads}")
    _grpc()
    _check_listen(host, port)
    from concurrent.futures import ThreadPoolExecutor

    import optuna
    try:
        from optuna.storages._grpc.server import make_server
    except ImportError:
        raise InputError("the gRPC storage proxy needs Optuna 4.2 or later") from None

    from tuning.study._rdb import open_rdb, redact
    backend = optuna.storages.get_storage(open_rdb(storage))  # with Optuna's trial cache
    try:
        server = make_server(backend, host, port, ThreadPoolExecutor(max_workers=threads))
        server.start()
    except RuntimeError as exc:  # the port is taken or the address is not this machine's
        raise InputError(f"storage proxy cannot listen on {host}:{port} ({exc})") from None
    stop = threading.Event()
    previous = {s: signal.signal(s, lambda *_: stop.set())
                for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        if ready:
            ready(f"storage proxy for {redact(storage)} on grpc://{host}:{port}")
        while not stop.wait(1.0):
            pass
    finally:
        server.stop(grace=2).wait()
        for s, handler in previous.items():
            signal.signal(s, handler)
