"""Drop stale numba caches of the Dominion kernels.

The rule machine's compiled code (_rules.py, _policy.py, _play.py) also freezes the helpers of
_engine.py, _kernel.py, _matcher.py, _effects.py and _actions.py, the feature encoder of
_encoder.py and the tables of _cards.py, _decisions.py, _layout.py, _steps.py and _features.py,
so these sources are fingerprinted together (see games.kernel_cache).
"""

from __future__ import annotations

from pathlib import Path

from games import kernel_cache

_SOURCES = ("_cards.py", "_decisions.py", "_layout.py", "_engine.py", "_matcher.py", "_effects.py",
            "_actions.py", "_features.py", "_encoder.py", "_kernel.py", "_steps.py", "_rules.py",
            "_policy.py", "_play.py", "_packed.py", "_cache.py", "../rng.py")


def fingerprint(folder: Path) -> str:
    """SHA-256 of the Dominion kernel sources."""
    return kernel_cache.fingerprint(folder, _SOURCES)


def invalidate_stale_cache(here: Path | None = None) -> None:
    """Remove cached Dominion kernels compiled from other sources; never fails."""
    kernel_cache.invalidate_stale_cache(here or Path(__file__).resolve().parent, _SOURCES,
                                        "dominion")
