"""Atomic file writes: a reader, or a run resumed after a crash, sees the old file or the new
one, never half of one. The one helper behind every checkpoint, saved model and rewritten
log (here, in plain Python, because games may not import tuning and tuning imports games).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "wb", encoding: str = "utf-8") -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path`` for writing (``mode`` ``"wb"`` or ``"w"``); when
    the block ends normally it is synced to disk and renamed onto ``path``, else removed and
    ``path`` is left as it was. Missing folders are created; the file gets the permissions an
    ordinary ``open`` gives (those the umask leaves), not the private ones of ``mkstemp``."""
    if mode not in ("wb", "w"):
        raise ValueError(f"atomic_open writes only ('wb' or 'w'), got mode {mode!r}")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
    try:
        with os.fdopen(fd, mode, **({"encoding": encoding} if mode == "w" else {})) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_atomic(path: str | Path, data: bytes | str, encoding: str = "utf-8") -> Path:
    """Write ``data`` (bytes, or text in ``encoding``) to ``path`` atomically; returns the path."""
    with atomic_open(path, "w" if isinstance(data, str) else "wb", encoding) as fh:
        fh.write(data)
    return Path(path)

