"""Drop stale numba caches of Splendor's kernels (one fingerprint over every kernel source,
since a compiled kernel freezes the helpers it calls from the other modules, and the card
tables it reads as constants)."""

from __future__ import annotations

from pathlib import Path

from games import kernel_cache

_SOURCES = ("_cards.py", "_rules.py", "_deal.py", "_heuristics.py", "_features.py", "_search.py",
            "_minimax.py", "_ttable.py", "_kernel.py", "_plans.py", "_payment.py", "_goal_seeds.py",
            "_seeded.py", "_recording.py", "_cache.py", "data/splendor_cards.csv",
            "data/splendor_nobles.csv")


def invalidate_stale_cache(here: Path | None = None) -> None:
    """Remove cached kernels compiled from other sources; never fails (read-only installs)."""
    kernel_cache.invalidate_stale_cache(here or Path(__file__).resolve().parent, _SOURCES,
                                        "splendor")
