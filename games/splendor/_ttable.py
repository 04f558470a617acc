"""The transposition table of the Splendor minimax (``minimax:4,tt=1``).

A searched position is keyed by a 64-bit hash of every word of its compact state before
the decks (bank, tokens, bonuses, points, reserves, board, nobles, deck pointers, turn and
round counters, turns simulated): all that the search reads in the thesis's mode, where
decks are hidden, and all that changes during one search in the sampled mode, where the
deck order is fixed once per search. Since the turns simulated are part of the key, a key
fixes the turns left to search, and values are only reused at the same depth, so a search
with the table returns exactly what it returns without one.

Each entry holds the key, the value, its bound (exact, lower or upper: alpha-beta's
fail-high and fail-low results), the depth searched and the best move found (tried first
when the node is searched again). Two slots per bucket: the first keeps the deeper entry,
the second always takes the newest. The number of the search is mixed into every key, so
a new search starts from an empty table without clearing it (only the keys are zeroed when
a table is made). A false match needs two positions with the same 64-bit key.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.splendor._rules import O_DECK

EXACT, LOWER, UPPER = 0, 1, 2
I_GEN, I_DEPTH, I_BOUND, I_MOVE = range(4)
# counters (one int64 array per search space): search number, positions generated, probes,
# probes whose value was used, entries written
C_GEN, C_NODES, C_PROBES, C_HITS, C_STORES = range(5)
N_COUNTERS = 5

# one odd 64-bit multiplier per hashed word (fixed seed: compiled in as constants)
_MUL = np.random.default_rng(0x5E1D0B).integers(0, 2**63, size=O_DECK, dtype=np.uint64) * \
    np.uint64(2) + np.uint64(1)
_F1 = np.uint64(0xBF58476D1CE4E5B9)
_F2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True)
def table_bits(depth: int) -> int:
    """log2 of the table size for a search ``depth`` turns deep: 2^14 entries (512 KiB) at
    depth 5. A table is made per decision of the turn-level API, and on the benchmark's
    positions four times larger ones cost more to make than their few extra hits saved."""
    return min(18, max(10, 2 * depth + 4))


@njit(cache=True)
def tables(bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(keys, values, info, counters) of an empty table with 2^bits entries (bits 0 gives
    one entry, enough for a search that does not use it). An entry is found by its key
    alone, so values and info are left unset."""
    size = 1 << bits
    return (np.zeros(size, dtype=np.int64), np.empty(size),
            np.empty((size, 4), dtype=np.int32), np.zeros(N_COUNTERS, dtype=np.int64))


@njit(cache=True)
def position_key(s: np.ndarray, search: int) -> np.int64:
    """64-bit key of ``s[:O_DECK]`` in search number ``search``: the sum of each word times
    its own random odd multiplier (independent products, so it pipelines) plus the search
    number times another, then a finaliser that mixes the high bits into the low ones the
    bucket index reads."""
    h = np.uint64(search) * _F2
    for i in range(O_DECK):
        h += np.uint64(s[i] + 2) * _MUL[i]
    h ^= h >> np.uint64(30)
    h *= _F1
    h ^= h >> np.uint64(27)
    h *= _F2
    h ^= h >> np.uint64(31)
    return np.int64(h)


@njit(cache=True, inline="always")
def _bucket(keys: np.ndarray, key: np.int64) -> int:
    return int(key) & (keys.size - 2) if keys.size > 1 else 0


@njit(cache=True)
def lookup(keys: np.ndarray, vals: np.ndarray, info: np.ndarray, count: np.ndarray,
           key: np.int64, depth: int, alpha: float, beta: float) -> tuple[bool, float, int]:
    """(usable, value, best move or -1) of ``key`` searched ``depth`` turns deep in the
    window (alpha, beta): usable when the entry is exact, or a bound that settles it."""
    count[C_PROBES] += 1
    b = _bucket(keys, key)
    for slot in range(b, min(b + 2, keys.size)):
        if keys[slot] != key:
            continue
        move = info[slot, I_MOVE]
        if info[slot, I_DEPTH] != depth:
            return False, 0.0, move
        v = vals[slot]
        bound = info[slot, I_BOUND]
        if bound == EXACT or (bound == LOWER and v >= beta) or (bound == UPPER and v <= alpha):
            count[C_HITS] += 1
            return True, v, move
        return False, v, move
    return False, 0.0, -1


@njit(cache=True)
def store(keys: np.ndarray, vals: np.ndarray, info: np.ndarray, count: np.ndarray,
          key: np.int64, depth: int, value: float, bound: int, move: int) -> None:
    """Write an entry: into the bucket's first slot unless that holds another position of
    this search searched deeper, else into the second slot."""
    b = _bucket(keys, key)
    slot = b
    if keys.size > 1 and info[b, I_GEN] == count[C_GEN] and keys[b] != key \
            and info[b, I_DEPTH] > depth:
        slot = b + 1
    count[C_STORES] += 1
    keys[slot] = key
    vals[slot] = value
    info[slot, I_GEN] = count[C_GEN]
    info[slot, I_DEPTH] = depth
    info[slot, I_BOUND] = bound
    info[slot, I_MOVE] = move


@njit(cache=True, inline="always")
def bound_of(value: float, alpha: float, beta: float, prune: bool) -> int:
    """The bound a fail-soft alpha-beta result ``value`` in the window (alpha, beta) is."""
    if not prune:
        return EXACT
    if value <= alpha:
        return UPPER
    if value >= beta:
        return LOWER
    return EXACT
