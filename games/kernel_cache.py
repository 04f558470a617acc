"""Drop stale numba caches of a package whose kernels span several modules.

numba's on-disk cache checks only the timestamp of the file that defines a function, yet a
compiled kernel also freezes the helpers and tables it uses from the package's other
modules. A fingerprint of all those sources, kept next to the cache, removes every cached
kernel of the package when any of them changes (e.g. after ``git pull`` touched one file).
"""

from __future__ import annotations

import hashlib
from pathlib import Path


def fingerprint(folder: Path, sources: tuple[str, ...]) -> str:
    """SHA-256 of the kernel sources, in the given order."""
    h = hashlib.sha256()
    for name in sources:
        h.update((folder / name).read_bytes())
    return h.hexdigest()


def invalidate_stale_cache(folder: Path, sources: tuple[str, ...], tag: str) -> None:
    """Remove ``folder``'s cached kernels compiled from other sources; never fails.

    Only the cache files of the named source modules go; a read-only install is left alone.
    """
    cache = folder / "__pycache__"
    stamp = cache / f"{tag}-kernels.stamp"
    prefixes = tuple(name[:-3] + "." for name in sources)
    try:
        digest = fingerprint(folder, sources)
        if stamp.exists() and stamp.read_text() == digest:
            return
        for f in cache.glob("*.nb[ic]"):
            if f.name.startswith(prefixes):
                f.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass
