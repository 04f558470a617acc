"""Drop stale numba caches of the Dominion kernels.

numba's on-disk cache checks only the timestamp of the file that defines a function, yet
kernel.py's compiled code also freezes the helpers of engine.py and the card tables of
cards.py. A fingerprint of all three sources, kept next to the cache, removes every cached
kernel when any of them changes (e.g. after ``git pull`` touched only one file).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

_SOURCES = ("cards.py", "engine.py", "kernel.py", "_cache.py")
_PREFIXES = tuple(name[:-3] + "." for name in _SOURCES)


def fingerprint(folder: Path) -> str:
    h = hashlib.sha256()
    for name in _SOURCES:
        h.update((folder / name).read_bytes())
    return h.hexdigest()


def invalidate_stale_cache(here: Path | None = None) -> None:
    """Remove cached kernels compiled from other sources; never fails (read-only installs)."""
    here = here or Path(__file__).resolve().parent
    cache = here / "__pycache__"
    stamp = cache / "dominion-kernels.stamp"
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
