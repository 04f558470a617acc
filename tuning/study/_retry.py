"""Storage calls retried while the storage cannot be reached (a database or a storage proxy
restarting), shared by the RDB storage and the gRPC proxy client.

A storage class that uses :func:`wrap_methods` provides ``retry_seconds`` (how long to keep
trying; 0: fail at once), ``shown`` (its location for messages, password hidden),
``notice(message)`` (one line on stderr), ``reset()`` (drop what the lost connection left
behind) and ``reason(exc)`` (one line for the error). While the storage is unreachable every
call is retried, with one line when the connection is lost and one when it is back; after
``retry_seconds`` the call raises an ``InputError`` that the command shows as one line (exit
status 2): running the same command again resumes.
"""

from __future__ import annotations

import functools
import inspect
import os
import time
from collections.abc import Callable, Iterable
from typing import Any

import optuna

from games.core import InputError


def env_seconds(name: str, default: float) -> float:
    """A number of seconds from the environment variable ``name``; one line if malformed."""
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        raise InputError(f"{name} must be a number of seconds, got "
                         f"{os.environ[name]!r}") from None


def retry_seconds() -> float:
    """How long a lost storage connection is waited for (``TABLETUNE_DB_RETRY_SECONDS``)."""
    return env_seconds("TABLETUNE_DB_RETRY_SECONDS", 60.0)


def retrying(name: str, fn: Callable[..., Any],
             lost: Callable[[BaseException], bool]) -> Callable[..., Any]:
    """``fn`` (a storage method) retried while ``lost(exc)`` says the connection is gone."""
    @functools.wraps(fn)
    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        waited_since: float | None = None
        delay = 0.2
        while True:
            try:
                result = fn(self, *args, **kwargs)
            except Exception as exc:
                if waited_since is not None and already_done(self, name, exc, args, kwargs):
                    result = True  # the lost connection had committed it: not an error
                    break
                if not lost(exc):
                    raise
                self.reset()
                now = time.monotonic()
                if waited_since is None:
                    waited_since = now
                    self.notice(f"storage {self.shown}: connection lost ({self.reason(exc)}); "
                                f"retrying for up to {self.retry_seconds:.0f}s")
                if now - waited_since >= self.retry_seconds:
                    if not self.retry_seconds:
                        raise
                    raise InputError(
                        f"storage {self.shown}: connection lost for "
                        f"{self.retry_seconds:.0f}s ({self.reason(exc)}); "
                        "run the same command again to resume") from None
                time.sleep(delay)
                delay = min(2 * delay, 2.0)
                continue
            break
        if waited_since is not None:
            self.notice(f"storage {self.shown}: connection back after "
                        f"{time.monotonic() - waited_since:.1f}s; going on")
        return result
    return call


def already_done(storage: Any, name: str, exc: BaseException, args: tuple[Any, ...],
                 kwargs: dict[str, Any]) -> bool:
    """Whether a state change retried after a lost connection was refused only because the
    first attempt had committed it (the server went down before answering)."""
    if name != "set_trial_state_values" or not isinstance(
            exc, optuna.exceptions.UpdateFinishedTrialError):
        return False
    bound = inspect.signature(optuna.storages.BaseStorage.set_trial_state_values).bind(
        storage, *args, **kwargs)
    trial = storage.get_trial(bound.arguments["trial_id"])
    values = bound.arguments.get("values")
    return trial.state == bound.arguments["state"] and (
        values is None or list(trial.values or ()) == list(values))


def wrap_methods(cls: type, names: Iterable[str], lost: Callable[[BaseException], bool]) -> None:
    """Replace each named method of ``cls`` (inherited ones too) by its retrying form."""
    for name in sorted(set(names)):
        fn = getattr(cls, name, None)
        if fn is not None and inspect.isfunction(fn):
            setattr(cls, name, retrying(name, fn, lost))


def storage_methods() -> set[str]:
    """The public methods of Optuna's storage interface (and of its heartbeat)."""
    return {n for c in (optuna.storages.BaseStorage, optuna.storages._heartbeat.BaseHeartbeat)
            for n, f in vars(c).items() if callable(f) and not n.startswith("__")}
