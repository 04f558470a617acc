"""Optuna storage for studies: journal files by default, RDB URLs when one machine is not enough.

Several ``tabletune run`` processes may work on one study. They cooperate through the storage:

- a trial budget is claimed under a lock (a lock file next to a journal), so the processes
  together finish exactly the requested number of trials with distinct trial numbers;
- every running trial carries its host, pid and a heartbeat refreshed by a background thread,
  so a trial left RUNNING by a killed process is recognised as stale when a run starts, marked
  FAIL and queued again with the same parameters;
- RDB storages (PostgreSQL, MySQL, SQLite URLs) use Optuna's own heartbeat and stale-trial
  retry callback;
- Optuna's gRPC storage proxy (``grpc://HOST:PORT``, see :mod:`tuning.study._grpc_proxy`)
  serves a database to many hosts without a lock, like an RDB URL, but has no Optuna
  heartbeat: its trials carry tabletune's heartbeat attribute, as on a journal.

Longer than 400 lines on purpose: the budget claim, the heartbeat and the stale-trial
requeue read and write the same trial attributes (owner host and pid, heartbeat time,
requeued mark): they are one protocol between processes, read in one place.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import optuna
from optuna.trial import TrialState

from games.core import InputError
from tuning._stopping import held_stop
from tuning.study import _grpc_proxy as grpc_proxy
from tuning.study._journal_check import check_journal, replay_failure
from tuning.study._rdb import grace_seconds, heartbeat_seconds, open_rdb, redact

RUNS_DIR = Path("runs")
HEARTBEAT_SECONDS = 10
GRACE_SECONDS = 120
_OWNER, _BEAT = "tabletune:owner", "tabletune:heartbeat"
_REQUEUED = "tabletune:requeued"
BUDGET_STATES = (TrialState.COMPLETE, TrialState.PRUNED, TrialState.RUNNING, TrialState.WAITING)


@dataclass
class OpenedStorage:
    """An Optuna storage plus what the runner needs to know about it."""

    storage: Any
    location: str
    journal_path: Path | None = None
    proxy: bool = False  # Optuna's gRPC storage proxy

    @property
    def is_rdb(self) -> bool:
        """A database reached directly: Optuna's heartbeat marks stale trials."""
        return self.journal_path is None and not self.proxy

    @property
    def shared(self) -> bool:
        """Many hosts and no lock file: claims are checked after the fact, and a process
        whose budget is spent waits for the others' last trials."""
        return self.journal_path is None

    @contextlib.contextmanager
    def claim_lock(self) -> Iterator[None]:
        """Serialise budget claims between processes (a lock file beside a journal)."""
        if self.journal_path is None:
            yield
            return
        from optuna.storages.journal import JournalFileOpenLock
        lock = JournalFileOpenLock(str(self.journal_path) + ".claim")
        held = False
        try:
            # Optuna's file lock is not safe to interrupt: a Ctrl-C while it waits "releases"
            # (deletes) the lock of the process that holds it. A stop waits for it instead.
            with held_stop():
                held = lock.acquire()
            yield
        finally:
            if held:
                with held_stop():
                    lock.release()


def default_location(study_name: str) -> str:
    """The embedded default storage of a study: ``runs/<name>.journal``."""
    return str(RUNS_DIR / f"{study_name}.journal")


def in_runs_dir(location: str) -> bool:
    """Whether a journal path lies directly in the default ``runs/`` folder (made on demand)."""
    return "://" not in location and Path(location).parent == RUNS_DIR


def _journal(path: Path) -> Any:
    """Optuna's journal storage on ``path``, checked (and a cut-off last record repaired)."""
    from optuna.storages import journal
    backend_cls = getattr(journal, "JournalFileBackend", None)
    if backend_cls is None:  # Optuna < 4.0 names it JournalFileStorage
        backend_cls = optuna.storages.JournalFileStorage  # type: ignore[attr-defined]
    backend = backend_cls(str(path))
    lock = getattr(backend, "_lock", None)
    if lock is not None:
        check_journal(path, lock, _notice)
    if os.environ.get("TABLETUNE_JOURNAL_FSYNC", "0") != "1" and _can_skip_fsync(backend):
        backend.append_logs = _append_without_fsync.__get__(backend)  # type: ignore[attr-defined]
    backend.append_logs = _whole(backend.append_logs)  # type: ignore[attr-defined]
    try:
        return optuna.storages.JournalStorage(backend)
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - a record Optuna cannot replay: name it
        raise replay_failure(path, exc) from None


def _whole(append: Callable[[list[dict[str, Any]]], None]
           ) -> Callable[[list[dict[str, Any]]], None]:
    """A journal append that a Ctrl-C or SIGTERM cannot cut: it holds the journal's file lock,
    which an interrupted release would leave behind (the next run then waits out its grace
    period) or take from another process; the stop comes once the records are written."""

    def append_logs(logs: list[dict[str, Any]]) -> None:
        with held_stop():
            append(logs)

    return append_logs


def _notice(message: str) -> None:
    """One line on stderr about something done to a storage (e.g. a repaired journal)."""
    sys.stderr.write(f"warning: {message}\n")
    sys.stderr.flush()


def _can_skip_fsync(backend: Any) -> bool:
    return hasattr(backend, "_lock") and hasattr(backend, "_file_path")


def _append_without_fsync(self: Any, logs: list[dict[str, Any]]) -> None:
    """Optuna's journal append (same lock, same format) without an fsync per record.

    Optuna syncs every record to disk: about 5 ms each here, and a trial writes about 30
    records (one per parameter, reported block and attribute), which made the fsyncs the
    largest part of Optuna's time per trial. Records still go to the file under the lock in
    one write and are read by every process on the machine (and, after close, over NFS);
    only an operating-system crash could lose the last records, which a rerun of the same
    command then redoes. Set TABLETUNE_JOURNAL_FSYNC=1 to sync every record.
    """
    text = "\n".join(json.dumps(log, separators=(",", ":")) for log in logs) + "\n"
    self._lock.acquire()
    try:
        with open(self._file_path, "ab") as f:
            f.write(text.encode("utf-8"))
    finally:
        self._lock.release()


def open_storage(location: str, *, create: bool = True,
                 make_folder: bool = False) -> OpenedStorage:
    """Open a journal file path, an RDB URL (``postgresql://...``, ``sqlite:///...``) or a
    storage proxy (``grpc://HOST:PORT``).

    A missing journal is created only with ``create``, and only in an existing folder unless
    ``make_folder`` (the default ``runs/`` folder): a misspelled path is refused, not served
    or filled as a new, empty study.
    """
    if grpc_proxy.is_proxy(location):
        return OpenedStorage(grpc_proxy.open_proxy(location), location, proxy=True)
    if "://" in location:
        return OpenedStorage(open_rdb(location), redact(location))
    path = Path(location)
    if path.is_dir():
        raise InputError(f"storage {location} is a directory; give a journal file path")
    if not path.exists():
        if not create:
            raise InputError(f"storage {location} does not exist")
        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        elif not path.parent.is_dir():
            raise InputError(f"storage {location}: folder {path.parent} does not exist; "
                             "create it first or give another --storage")
    elif not path.is_file():
        raise InputError(f"storage {location} is not a regular file")
    try:
        return OpenedStorage(_journal(path), str(path), path)
    except OSError as exc:
        raise InputError(f"storage {location}: {exc.strerror or exc}") from None


def study_names(opened: OpenedStorage) -> list[str]:
    return [s.study_name for s in optuna.get_all_study_summaries(opened.storage,
                                                                   include_best_trial=False)]


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def fail_stale_trials(study: optuna.Study, opened: OpenedStorage,
                      by_pid: bool = True) -> list[int]:
    """Mark RUNNING trials whose process is gone as FAIL and queue their parameters again.

    A trial is stale when its process ran on this host and no longer exists, or when its
    heartbeat is older than the grace period (a process on another host that died).
    On an RDB storage Optuna's heartbeat decides (and its callback queues the retry), and a
    trial that never beat gets its first beat here, so the grace period ends for it too;
    with ``by_pid`` a trial whose process on this host is gone is failed at once as well.
    Returns the numbers of the trials it failed.
    """
    failed: list[int] = []
    if opened.is_rdb:  # Optuna's heartbeat fails (and retries) trials beyond the grace period
        before = {t.number for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))}
        opened.storage.adopt_unbeaten_trials(study._study_id)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            optuna.storages.fail_stale_trials(study)
        for t in study.get_trials(deepcopy=False, states=(TrialState.FAIL,)):
            if t.number in before:  # Optuna's callback queued its retry
                failed.append(t.number)
        if not by_pid:
            return failed
    now = time.time()
    stale = []
    for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        attrs = trial.system_attrs
        start = trial.datetime_start.timestamp() if trial.datetime_start else now
        beat = float(attrs.get(_BEAT, start))
        host, pid = trial_owner(trial)
        here = host == socket.gethostname() and pid is not None
        if here and int(pid) == os.getpid():
            continue
        gone = here and not _pid_alive(int(pid))
        # a journal is read under its claim lock, which a claim holds from creating a trial
        # to recording its owner: a trial with no owner was left by a process killed there
        gone = gone or (host is None and opened.journal_path is not None)
        grace = grace_seconds() if opened.proxy else GRACE_SECONDS
        if gone or (not opened.is_rdb and now - beat > grace):
            stale.append(trial)
    return sorted(failed + requeue_trials(study, opened, stale))


def was_requeued(trial: Any) -> bool:
    """Whether a failed trial was handed back by a stop or as stale (not tried: its retry
    takes its place)."""
    return bool(trial.system_attrs.get(_REQUEUED))


def requeue_trials(study: optuna.Study, opened: OpenedStorage, trials: list[Any]) -> list[int]:
    """Fail trials that were claimed but never played to their end (a stop, a killed
    process) and queue their parameters again, in trial order; returns their numbers.

    A retry takes its trial's place: the trials sampled after it get the sampler seeds and
    the history they would have had without the stop (see ``TrialSeededSampler``). On a
    journal, read under its claim lock, trials already queued behind the failed ones are
    queued again after them, so the next run plays all of them in their first order."""
    trials = sorted(trials, key=lambda t: t.number)
    if not trials:
        return []
    behind = [] if opened.shared else [
        t for t in study.get_trials(deepcopy=False, states=(TrialState.WAITING,))
        if t.number > trials[0].number]
    queued = {t.number for t in behind}
    failed, again = [], []
    for trial in sorted([*trials, *behind], key=lambda t: t.number):
        waiting = trial.number in queued
        try:  # marked first: a finished trial takes no more attributes
            study._storage.set_trial_system_attr(trial._trial_id, _REQUEUED, True)
            if not study._storage.set_trial_state_values(trial._trial_id, TrialState.FAIL):
                study._storage.set_trial_system_attr(trial._trial_id, _REQUEUED, False)
                continue
        except optuna.exceptions.UpdateFinishedTrialError:  # told meanwhile: it counts
            continue
        attrs = dict(trial.user_attrs)
        if waiting:
            again.append((dict(trial.system_attrs.get("fixed_params", {})), attrs))
            continue
        failed.append(trial.number)
        if trial.params:
            keep = {k: attrs[k] for k in ("start",) if k in attrs}
            again.append((dict(trial.params), {**keep, "retry_of": trial.number}))
    for params, attrs in again:
        study.enqueue_trial(params, user_attrs=attrs)
    return failed


def others_running(study: optuna.Study) -> bool:
    """Whether trials of other processes still run (their result may yet fill the budget)."""
    return bool(study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)))


def budget_used(study: optuna.Study) -> tuple[int, bool]:
    """Trials that count against the budget (all but FAIL), and whether any is WAITING."""
    trials = study.get_trials(deepcopy=False, states=BUDGET_STATES)
    return len(trials), any(t.state == TrialState.WAITING for t in trials)


def claim_trial(study: optuna.Study, opened: OpenedStorage, target: int,
                distributions: dict[str, Any]) -> optuna.Trial | None:
    """Start the next trial if the study has fewer than ``target`` budget trials, else None.

    Under the claim lock the count and the creation are atomic, so concurrent processes never
    overshoot. Without a lock (RDB), a trial found beyond the budget after creation is failed
    at once and marked ``tabletune:surplus``.
    """
    with opened.claim_lock():
        used, waiting = budget_used(study)
        if used >= target and not waiting:
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            trial = study.ask(distributions)
        if opened.shared:  # at once: on an RDB a trial that never beat is never stale
            _beat(study, opened, trial._trial_id)
        _mark_owner(study, trial)
    if opened.shared:
        earlier = [t for t in study.get_trials(deepcopy=False, states=BUDGET_STATES)
                   if t.number < trial.number]
        if len(earlier) >= target:
            study._storage.set_trial_system_attr(trial._trial_id, "tabletune:surplus", True)
            study.tell(trial, state=TrialState.FAIL)
            return None
    return trial


def finish_trial(study: optuna.Study, trial: optuna.Trial, value: float | None,
                 state: TrialState) -> bool:
    """Tell a trial's result; False when another process has meanwhile failed it as stale
    (its heartbeat lapsed, say while this machine was overloaded) and queued its retry: the
    retry then counts, and this result is dropped so that no trial counts twice."""
    try:
        told = study.tell(trial, value, state=state, skip_if_finished=True)
    except optuna.exceptions.UpdateFinishedTrialError:  # failed between the check and tell
        return False
    return told.state == state


def _beat(study: optuna.Study, opened: OpenedStorage, trial_id: int) -> None:
    """One heartbeat: Optuna's on an RDB, tabletune's attribute on a journal or a proxy."""
    if opened.is_rdb:
        study._storage.record_heartbeat(trial_id)
    else:
        study._storage.set_trial_system_attr(trial_id, _BEAT, time.time())


def trial_owner(trial: Any) -> tuple[str | None, int | None]:
    """(host, pid) of the process that ran a trial; (None, None) when not recorded."""
    host, pid = trial.system_attrs.get(_OWNER, (None, None))
    return host, pid


def _mark_owner(study: optuna.Study, trial: optuna.Trial) -> None:
    """Record host and pid (one write; the heartbeat starts from the trial's start time)."""
    study._storage.set_trial_system_attr(trial._trial_id, _OWNER,
                                         [socket.gethostname(), os.getpid()])


class Heartbeat:
    """Background thread that keeps the current trial's heartbeat fresh."""

    def __init__(self, study: optuna.Study, opened: OpenedStorage,
                 interval: float | None = None) -> None:
        if interval is None:
            interval = heartbeat_seconds() if opened.shared else HEARTBEAT_SECONDS
        self._study, self._opened, self._interval = study, opened, interval
        self._trial_ids: set[int] = set()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, name="tabletune-heartbeat",
                                        daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def watch(self, trial_id: int | None) -> None:
        """Beat for ``trial_id`` alone from now on (None: stop). The first beat is the
        claim's."""
        with self._lock:
            self._trial_ids = set() if trial_id is None else {trial_id}

    def add(self, trial_id: int) -> None:
        """Beat for ``trial_id`` too (a trial claimed ahead of the one running)."""
        with self._lock:
            self._trial_ids.add(trial_id)

    def drop(self, trial_id: int) -> None:
        """Stop beating for ``trial_id`` (it has been told)."""
        with self._lock:
            self._trial_ids.discard(trial_id)

    def _beat(self, trial_id: int) -> None:
        try:
            _beat(self._study, self._opened, trial_id)
        except Exception:  # the trial may have finished meanwhile; the next beat will tell
            pass

    def _loop(self) -> None:
        while not self._stop.wait(self._interval):
            with self._lock:  # held while beating: watch(None) waits for a beat in flight
                for trial_id in sorted(self._trial_ids):
                    self._beat(trial_id)
