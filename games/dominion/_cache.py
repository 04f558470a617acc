"""Drop stale numba caches of the Dominion kernels.

The rule machine's compiled code (rules.py, policy.py, play.py) also freezes the helpers of
engine.py, kernel.py, matcher.py, effects.py and actions.py, the feature encoder of
encoder.py and the tables of cards.py, decisions.py, layout.py, steps.py and features.py,
so these sources are fingerprinted together (see games.kernel_cache).
"""

from __future__ import annotations

from pathlib import Path

from games import kernel_cache

_SOURCES = ("cards.py", "decisions.py", "layout.py", "engine.py", "matcher.py", "effects.py",
            "actions.py", "features.py", "encoder.py", "kernel.py", "steps.py", "rules.py",
            "policy.py", "play.py", "packed.py", "_cache.py", "../rng.py")


def fingerprint(folder: Path) -> str:
    """SHA-256 of the Dominion kernel sources."""
    return kernel_cache.fingerprint(folder, _SOURCES)


def invalidate_stale_cache(here: Path | None = None) -> None:
    """Remove cached Dominion kernels compiled from other sources; never fails."""
    kernel_cache.invalidate_stale_cache(here or Path(__file__).resolve().parent, _SOURCES,
                                        "dominion")
