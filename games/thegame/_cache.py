"""Drop stale numba caches of The Game's kernels.

numba's on-disk cache checks only the timestamp of the file that defines a function, but a
compiled kernel also freezes every kernel it calls from the other modules (the engine holds
the search, the search holds the value functions). A fingerprint of all kernel sources, kept
next to the cache, removes every cached kernel of this package when any of them changes.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

_SOURCES = ("rules.py", "values.py", "search.py", "engine.py", "_cache.py")
_PREFIXES = tuple(name[:-3] + "." for name in _SOURCES)


def fingerprint(folder: Path) -> str:
    """SHA-256 of the kernel sources, in a fixed order."""
    h = hashlib.sha256()
    for name in _SOURCES:
        h.update((folder / name).read_bytes())
    return h.hexdigest()


def invalidate_stale_cache(here: Path | None = None) -> None:
    """Remove cached kernels compiled from other sources; never fails (read-only installs)."""
    here = here or Path(__file__).resolve().parent
    cache = here / "__pycache__"
    stamp = cache / "thegame-kernels.stamp"
    try:
        digest = fingerprint(here)
        if stamp.exists() and stamp.read_text() == digest:
            return
        for f in cache.glob("*.nb[ic]"):
            if f.name.startswith(_PREFIXES):
                f.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass
