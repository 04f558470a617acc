"""Splendor (Reed thesis, seed 003): card data, full rules for 2-4 players, numba batch
kernel, the turn-level state and the Greedy / Minimax / RandomSearch / random players."""

from games.splendor._cache import invalidate_stale_cache

invalidate_stale_cache()  # before any kernel is compiled or loaded
