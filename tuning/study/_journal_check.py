"""Check an Optuna journal file before it is opened, and repair a cut-off last record.

Optuna's journal is one JSON record per line. A full disk or an operating-system crash can
leave the last record cut off (no newline, perhaps trailing NUL bytes). Optuna skips such a
line when reading but then appends its next record onto it, which turns it into a damaged
line in the middle of the file that no later reader gets past. So before a journal is
opened, an incomplete last record is repaired under the journal's own write lock: a record
that is complete but for its newline gets the newline, anything shorter is cut off. Every
complete record is kept. Any other damage (binary data, a foreign file, bytes that are not
UTF-8, a line that is not a journal record) is refused with the file and the line number.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from games.core import InputError

Notice = Callable[[str], None]


def _known_op_codes() -> set[int] | None:
    try:
        from optuna.storages.journal._storage import JournalOperation
    except ImportError:  # a future Optuna may move it: then accept any integer op code
        return None
    return {int(op) for op in JournalOperation}


def _record_problem(data: Any, ops: set[int] | None) -> str | None:
    """Why a decoded line is not a journal record (None: it is one)."""
    if not isinstance(data, dict):
        return f"a JSON {type(data).__name__}, not a journal record"
    op = data.get("op_code")
    if not isinstance(op, int) or isinstance(op, bool) or (ops is not None and op not in ops):
        return "a JSON object without a valid op_code, not an Optuna journal record"
    if not isinstance(data.get("worker_id"), str):
        return "a journal record without a worker_id"
    return None


def _line_problem(line: bytes, ops: set[int] | None) -> str | None:
    """Why one complete line (without its newline) is damaged (None: it is a good record)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"byte 0x{line[exc.start]:02x} at column {exc.start + 1} is not UTF-8 text"
    try:
        data = json.loads(text)
    except ValueError as exc:
        return f"not a JSON record ({exc.msg} at column {getattr(exc, 'colno', '?')})"
    return _record_problem(data, ops)


def _damaged(path: Path, number: int, why: str, good: int) -> InputError:
    if number == 1:
        return InputError(f"storage {path} is not an Optuna journal (line 1: {why})")
    return InputError(f"storage {path} is damaged at line {number}: {why}; the {good} "
                      f"record(s) before it are intact (restore a backup, or keep them "
                      f"with: head -n {number - 1} {path} > repaired.journal)")


def _scan(path: Path, ops: set[int] | None) -> tuple[int, int, bytes]:
    """Check every complete line; return (good records, byte offset of the tail, tail)."""
    good = offset = 0
    with path.open("rb") as fh:
        for line in fh:
            if not line.endswith(b"\n"):
                return good, offset, line
            problem = _line_problem(line.rstrip(b"\r\n"), ops)
            if problem is not None:
                raise _damaged(path, good + 1, problem, good)
            good += 1
            offset += len(line)
    return good, offset, b""


def _tail_fix(path: Path, number: int, tail: bytes, ops: set[int] | None,
              good: int) -> bytes | None:
    """How to repair an incomplete last line: the bytes to write in its place.

    None means the tail is not a cut-off record but other damage (refused).
    """
    body = tail.rstrip(b"\0")
    if not body:
        return b""  # only NUL bytes: what a crash can leave after the last write
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not text.startswith("{"):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return b""  # a record cut off before its end
    if _record_problem(data, ops) is not None:
        raise _damaged(path, number, _record_problem(data, ops) or "", good)
    return body + b"\n"  # complete but for the newline


def check_journal(path: Path, lock: Any, notice: Notice) -> None:
    """Refuse a damaged journal (InputError naming the line); repair a cut-off last record.

    ``lock`` is the journal's write lock (Optuna's file lock): the repair happens while it
    is held, so a record another process is writing at that moment is never mistaken for a
    cut-off one. ``notice`` receives one line describing a repair.
    """
    if not path.is_file() or path.stat().st_size == 0:
        return
    ops = _known_op_codes()
    good, offset, tail = _scan(path, ops)
    if not tail:
        return
    lock.acquire()
    try:
        good, offset, tail = _scan(path, ops)  # again: a writer may have finished meanwhile
        if not tail:
            return
        fix = _tail_fix(path, good + 1, tail, ops, good)
        if fix is None:
            why = _line_problem(tail, ops) or "an unfinished line that is not a journal record"
            raise _damaged(path, good + 1, why, good)
        with path.open("r+b") as fh:
            fh.seek(offset)
            fh.write(fix)
            fh.truncate(offset + len(fix))
            fh.flush()
            os.fsync(fh.fileno())
    finally:
        lock.release()
    if fix:
        notice(f"repaired journal {path}: its last record lacked the final newline; "
               f"added it ({good + 1} records)")
    else:
        notice(f"repaired journal {path}: removed an incomplete last record at line "
               f"{good + 1} ({len(tail)} bytes left by an interrupted write); kept the "
               f"{good} complete record(s)")


def replay_failure(path: Path, exc: Exception) -> InputError:
    """An InputError for a journal whose records are well formed but cannot be replayed.

    Replays the records one at a time to name the first one that fails.
    """
    why = f"{exc.__class__.__name__}: {exc}" if str(exc) else exc.__class__.__name__
    try:
        from optuna.storages.journal._storage import JournalStorageReplayResult
        replay = JournalStorageReplayResult("check-")
        with path.open("rb") as fh:
            for number, line in enumerate(fh, start=1):
                if not line.endswith(b"\n"):
                    break
                try:
                    replay.apply_logs([json.loads(line)])
                except Exception as inner:  # noqa: BLE001 - any failure names the record
                    text = str(inner) or inner.__class__.__name__
                    return _damaged(path, number, f"the record cannot be replayed ({text})",
                                    number - 1)
    except Exception:  # noqa: BLE001 - fall back to the message without a line number
        pass
    return InputError(f"storage {path} cannot be read as an Optuna journal ({why})")
