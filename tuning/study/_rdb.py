"""RDB storage (PostgreSQL, MySQL, SQLite URLs) that rides out a database restart.

Optuna's ``RDBStorage`` raises on the first dropped connection, so a PostgreSQL restart
would stop every worker of a cluster at once. Here every storage call is retried while the
database is unreachable, for up to ``TABLETUNE_DB_RETRY_SECONDS`` (60 by default), with
one line on stderr when the connection is lost and one when it is back; pooled connections
are checked before use (``pool_pre_ping``), so a restarted server is simply reconnected.
After that time the error reaches the command, which stops with one line and resumes with
the same command. Heartbeat and grace period can be shortened through the environment
(``TABLETUNE_HEARTBEAT_SECONDS``, ``TABLETUNE_GRACE_SECONDS``) for tests and small clusters.
"""

from __future__ import annotations

import copy
import inspect
import re
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import optuna

from games.core import InputError
from tuning.study._retry import env_seconds, retry_seconds, storage_methods, wrap_methods

HEARTBEAT_SECONDS = 10
GRACE_SECONDS = 120
_PASSWORD = re.compile(r"(://[^:/@]+:)[^@]*@")


def redact(url: str) -> str:
    """A storage URL with its password replaced by ``***`` (for messages and summaries)."""
    return _PASSWORD.sub(r"\1***@", url)


def first_line(exc: BaseException) -> str:
    """The first non-empty line of an exception's text (drivers write several)."""
    for line in str(exc).splitlines():
        if line.strip():
            return line.strip()
    return type(exc).__name__


def _reason(exc: BaseException) -> str:
    """What the driver said (SQLAlchemy keeps the driver's exception as ``orig``)."""
    if isinstance(exc, optuna.exceptions.StorageInternalError) and exc.__cause__ is not None:
        exc = exc.__cause__
    return first_line(getattr(exc, "orig", None) or exc)


def heartbeat_seconds() -> int:
    return max(1, int(env_seconds("TABLETUNE_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS)))


def grace_seconds() -> int:
    return max(heartbeat_seconds() + 1, int(env_seconds("TABLETUNE_GRACE_SECONDS", GRACE_SECONDS)))


def _is_connection_error(exc: BaseException) -> bool:
    """A lost or refused database connection, anywhere in the chain of causes (Optuna wraps
    commit errors in its own; SQLAlchemy then asks for a rollback of the dead transaction)."""
    from sqlalchemy import exc as sa_exc
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, sa_exc.OperationalError | sa_exc.InterfaceError):
            return True
        if isinstance(current, sa_exc.DBAPIError) and current.connection_invalidated:
            return True
        current = current.__cause__ or current.__context__
    return False


def _is_table_race(exc: BaseException) -> bool:
    """Two workers creating Optuna's tables at once (PostgreSQL: duplicate key in pg_type)."""
    from sqlalchemy import exc as sa_exc
    return isinstance(exc, sa_exc.IntegrityError | sa_exc.ProgrammingError) or (
        isinstance(exc, optuna.exceptions.StorageInternalError)
        and isinstance(exc.__cause__, sa_exc.IntegrityError))


class RetryingRDBStorage(optuna.storages.RDBStorage):
    """``RDBStorage`` whose storage calls are retried while the database is unreachable."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.retry_seconds = 0.0  # while connecting: fail at once, with one line
        super().__init__(*args, **kwargs)

    @property
    def shown(self) -> str:
        return redact(self.url)

    @staticmethod
    def notice(message: str) -> None:
        sys.stderr.write(f"warning: {message}\n")
        sys.stderr.flush()

    def reset(self) -> None:
        self.scoped_session.remove()  # drop this thread's broken session

    @staticmethod
    def reason(exc: BaseException) -> str:
        return _reason(exc)

    def adopt_unbeaten_trials(self, study_id: int) -> list[int]:
        """Start the heartbeat clock of RUNNING trials that never beat; returns their ids.

        Optuna calls a trial stale only once its last heartbeat is older than the grace
        period, so a trial whose process died between creating it and its first beat (a
        worker killed or cut off from the database at that moment, or a second copy created
        when a lost connection's insert is retried) would stay RUNNING for ever, and every
        worker waiting for the study's last trials would wait for it. Recording one beat for
        such a trial makes Optuna's grace period apply to it: a live owner goes on beating,
        a dead one's trial is failed (and retried) like any other stale trial.
        """
        from optuna.storages._rdb import models  # Optuna's table of heartbeats
        session = self.scoped_session()
        try:
            beat = models.TrialHeartbeatModel
            rows = (session.query(models.TrialModel.trial_id)
                    .outerjoin(beat, beat.trial_id == models.TrialModel.trial_id)
                    .filter(models.TrialModel.study_id == study_id,
                            models.TrialModel.state == optuna.trial.TrialState.RUNNING,
                            beat.trial_heartbeat_id.is_(None))
                    .all())
            session.commit()
        except Exception:
            session.rollback()
            raise
        finally:
            session.close()
        ids = [row[0] for row in rows]
        for trial_id in ids:  # a beat racing the owner's first one is ignored by Optuna
            self.record_heartbeat(trial_id)
        return ids


def _called_by_cache() -> set[str]:
    """The private storage methods that Optuna's storage cache calls directly (it wraps every
    RDB storage a study uses): each opens its own session, so each can be retried."""
    from optuna.storages import _cached_storage
    try:
        text = inspect.getsource(_cached_storage)
    except (OSError, TypeError):  # no source shipped: the names as of Optuna 3.6-5.0
        text = ""
    return set(re.findall(r"_backend\.(_[a-z][a-z_]*)\(", text)) | {
        "_create_new_trial", "_set_trial_param", "_get_best_trial_id", "_get_stale_trial_ids",
        "_get_trials"}


wrap_methods(RetryingRDBStorage, storage_methods() | _called_by_cache()
             | {"adopt_unbeaten_trials"}, _is_connection_error)


def _retry_callback() -> Callable[[optuna.Study, Any], None]:
    """Optuna's retry of a stale trial (same parameters, up to 3 times), without copying
    tabletune's own marks (the dead owner's host and pid) onto the new trial."""
    cls = getattr(optuna.storages, "RetryHeartbeatStaleTrialCallback", None)
    if cls is None:
        cls = optuna.storages.RetryFailedTrialCallback
    inner = cls(max_retry=3)

    def retry(study: optuna.Study, trial: Any) -> None:
        trial = copy.copy(trial)
        trial._system_attrs = {k: v for k, v in trial.system_attrs.items()
                               if not k.startswith("tabletune:")}
        inner(study, trial)
    return retry


def open_rdb(url: str) -> optuna.storages.RDBStorage:
    """Connect to an RDB URL with heartbeat and retry of stale trials; one line if it fails."""
    params = inspect.signature(optuna.storages.RDBStorage).parameters
    key = ("heartbeat_stale_trial_callback" if "heartbeat_stale_trial_callback" in params
           else "failed_trial_callback")  # renamed in Optuna 4.9
    engine: dict[str, Any] = {"pool_pre_ping": True}
    if url.startswith("postgresql"):
        engine["connect_args"] = {"connect_timeout": 10}
    shown = redact(url)
    for attempt in range(5):
        try:
            with warnings.catch_warnings():  # heartbeat options are marked experimental
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                storage = RetryingRDBStorage(
                    url, engine_kwargs=engine, heartbeat_interval=heartbeat_seconds(),
                    grace_period=grace_seconds(), **{key: _retry_callback()})
            break
        except InputError:
            raise
        except ImportError as exc:
            raise InputError(f"storage {shown}: missing database driver ({exc}); "
                             "pip install 'psycopg[binary]'") from None
        except Exception as exc:  # SQLAlchemy raises many kinds; show one line
            if _is_table_race(exc) and attempt < 4:
                time.sleep(0.2 * (attempt + 1))  # another worker is creating the tables
                continue
            raise InputError(f"storage {shown}: cannot connect ({_reason(exc)})") from None
    storage.retry_seconds = retry_seconds()
    return storage
