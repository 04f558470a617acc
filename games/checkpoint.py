"""The one checkpoint file format: a header line, the SHA-256 of the body, the pickled body.

A run that resumes (an evolution, a training loop) must never continue from half a file or
from someone else's file. Every checkpoint is written through :func:`games.atomic.atomic_open`
(a crash leaves the previous one) and read back through :func:`load_checked`, which refuses
a missing, foreign, truncated or edited file with one line. Each kind of checkpoint passes
its own header (``b"TABLETUNE-EVOLUTION-CHECKPOINT v1\\n"``) and then checks what the
payload holds itself. Here, in ``games``, so that both the tuning layer and the trainers
that live beside their game use the same format (games may not import tuning). A payload
that pickles classes of its own (a trainer's value model) names, in ``moved``, the modules
they were pickled from before they moved, so an older file still reads; a module of ours
that has since become private (``games.x.runner`` -> ``games.x._runner``) is found without
being named.
"""

from __future__ import annotations

import hashlib
import io
import pickle
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from games.atomic import atomic_open
from games.errors import InputError


def save_checked(path: str | Path, payload: Any, header: bytes) -> None:
    """Write ``payload`` (plain data) to ``path`` atomically, after ``header`` (one line
    ending in a newline) and the SHA-256 of the pickled payload."""
    if not header.endswith(b"\n") or header.count(b"\n") != 1:
        raise ValueError(f"a checkpoint header is one line ending in a newline, got {header!r}")
    body = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    with atomic_open(path) as fh:
        fh.write(header)
        fh.write(hashlib.sha256(body).hexdigest().encode() + b"\n")
        fh.write(body)


class _MovedUnpickler(pickle.Unpickler):
    """Finds the classes of modules that moved (``old module -> new module``) where they
    live now, and those of a module of ours that became private under its private name."""

    def __init__(self, fh: Any, moved: Mapping[str, str]) -> None:
        super().__init__(fh)
        self.moved = moved

    def find_class(self, module: str, name: str) -> Any:
        module = self.moved.get(module, module)
        try:
            return super().find_class(module, name)
        except ModuleNotFoundError:
            package, _, stem = module.rpartition(".")
            if not package.startswith(("games", "tuning")) or stem.startswith("_"):
                raise
            return super().find_class(f"{package}._{stem}", name)


def unpickle(body: bytes, moved: Mapping[str, str] | None = None) -> Any:
    """``pickle.loads(body)``, reading classes of a module named in ``moved`` from the
    module it maps to (and those of a module made private from its private name)."""
    return _MovedUnpickler(io.BytesIO(body), moved or {}).load()


def load_checked(path: str | Path, header: bytes, kind: str,
                 moved: Mapping[str, str] | None = None) -> Any:
    """The payload that :func:`save_checked` wrote to ``path`` with ``header``; InputError
    naming the file for a folder, a missing file, another ``header`` (not a ``kind``), a
    checksum that does not match (truncated or modified) or a body that does not unpickle.
    ``moved`` maps modules a payload's classes were pickled from to where they are now."""
    path = Path(path)
    if path.is_dir():
        raise InputError(f"checkpoint {path} is a folder, not a file")
    if not path.is_file():
        raise InputError(f"no checkpoint at {path}: start without --resume to begin a new run")
    raw = path.read_bytes()
    if not raw.startswith(header):
        raise InputError(f"{path} is not a {kind} (wrong header)")
    digest, sep, body = raw[len(header):].partition(b"\n")
    if not sep or hashlib.sha256(body).hexdigest().encode() != digest:
        raise InputError(f"checkpoint {path} is corrupt (checksum mismatch): it was truncated "
                         "or modified; delete it or restore a good copy")
    try:
        return unpickle(body, moved)
    except Exception as exc:  # noqa: BLE001 - any unpickling failure means a bad file
        raise InputError(f"checkpoint {path} is corrupt ({exc.__class__.__name__})") from None
