"""Random numbers inside the kernels and the deal of a new game.

Each game's deal and its bots' choices come from SplitMix64 streams whose state is a
one-element uint64 array seeded from games.core.game_seeds, so game i of a run is the same
whatever block or process plays it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.splendor._rules import (
    DECK_OFF,
    GEMS_FOR,
    GOLD_TOKENS,
    O_BANK,
    O_BLIND,
    O_BOARD,
    O_CAP,
    O_DECK,
    O_DPTR,
    O_NOB,
    O_NOBOWN,
    O_NP,
    O_OWNER,
    O_REFILL,
    O_RES,
    O_WIN,
    SIZE,
    TIER_SIZE,
    TIER_START,
    WIN_POINTS,
)

# --------------------------------------------------------------------------- random numbers

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0


@njit(cache=True, inline="always")
def rand_below(rng: np.ndarray, n: int) -> int:
    """Uniform integer in [0, n) from the SplitMix64 stream whose state is ``rng[0]``."""
    rng[0] = rng[0] + _GOLDEN
    z = rng[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    z = z ^ (z >> _S31)
    return int(float(z >> _S11) * _INV53 * n)


@njit(cache=True)
def shuffle_range(a: np.ndarray, lo: int, hi: int, rng: np.ndarray) -> None:
    """Fisher-Yates shuffle of ``a[lo:hi]`` in place."""
    for i in range(hi - lo - 1, 0, -1):
        j = rand_below(rng, i + 1)
        tmp = a[lo + i]
        a[lo + i] = a[lo + j]
        a[lo + j] = tmp


# --------------------------------------------------------------------------- setup


@njit(cache=True)
def setup(s: np.ndarray, players: int, cap: int, rng: np.ndarray, win: int = WIN_POINTS,
          nobles: int = 0) -> None:
    """Deal a new game of ``players`` into ``s``: shuffled decks, 4 cards a tier, nobles.
    ``win``: the points that end the game; ``nobles``: nobles on the table (0: one more
    than the players, as the rules have it)."""
    s[:] = 0
    s[O_NP] = players
    s[O_CAP] = cap
    s[O_WIN] = win
    s[O_REFILL] = 1
    for c in range(5):
        s[O_BANK + c] = GEMS_FOR[players]
    s[O_BANK + 5] = GOLD_TOKENS
    s[O_RES:O_BLIND] = -1
    s[O_OWNER:SIZE] = -1
    for t in range(3):
        off = O_DECK + DECK_OFF[t]
        for k in range(TIER_SIZE[t]):
            s[off + k] = TIER_START[t] + k
        shuffle_range(s, off, off + TIER_SIZE[t], rng)
        for k in range(4):
            s[O_BOARD + 4 * t + k] = s[off + k]
        s[O_DPTR + t] = 4
    order = np.arange(10)
    shuffle_range(order, 0, 10, rng)
    for k in range(5):
        s[O_NOB + k] = order[k] if k < (nobles if nobles > 0 else players + 1) else -1
        s[O_NOBOWN + k] = -1
