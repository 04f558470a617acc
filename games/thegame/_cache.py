"""Drop stale numba caches of The Game's kernels.

A compiled kernel also freezes every kernel it calls from the other modules (the engine
holds the search, the search holds the value functions; _signatures.py fixes which versions
it links), so all kernel sources are fingerprinted together (see games.kernel_cache).
"""

from __future__ import annotations

from pathlib import Path

from games import kernel_cache

_SOURCES = ("_rules.py", "_values.py", "_search.py", "_endgame.py", "_engine.py", "_variant.py",
            "_signatures.py", "_cache.py", "../rng.py")


def fingerprint(folder: Path) -> str:
    """SHA-256 of The Game's kernel sources, in a fixed order."""
    return kernel_cache.fingerprint(folder, _SOURCES)


def invalidate_stale_cache(here: Path | None = None) -> None:
    """Remove cached kernels compiled from other sources; never fails (read-only installs)."""
    kernel_cache.invalidate_stale_cache(here or Path(__file__).resolve().parent, _SOURCES,
                                        "thegame")
