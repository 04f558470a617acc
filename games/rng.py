"""SplitMix64, the one random-number stream of every engine, written once.

Game i of a run gets a 64-bit seed from ``games.core.game_seeds`` (the vectorised finaliser
:func:`mix_array`); inside numba kernels a game draws from a counter held in ``state[0]``
(:func:`next_u64`, :func:`uniform`, :func:`below`), so the same seed gives the same game in
any process.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # the counter's increment (2^64 / golden ratio)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0  # 2^-53


def mix_array(x: np.ndarray) -> np.ndarray:
    """Vectorised SplitMix64 step: advance each counter by GOLDEN and mix (a bijection)."""
    with np.errstate(over="ignore"):
        z = x + GOLDEN
        z = (z ^ (z >> _S30)) * _MIX1
        z = (z ^ (z >> _S27)) * _MIX2
        return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def mix(z: np.uint64) -> np.uint64:
    """SplitMix64's finaliser of one 64-bit value."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def next_u64(state: np.ndarray) -> np.uint64:
    """Next 64-bit output of the stream whose counter is ``state[0]``."""
    state[0] = state[0] + GOLDEN
    return mix(state[0])


@njit(cache=True, inline="always")
def to_unit(z: np.uint64) -> float:
    """A uniform double in [0, 1) from the top 53 bits of ``z``."""
    return float(z >> _S11) * _INV53


@njit(cache=True, inline="always")
def uniform(state: np.ndarray) -> float:
    """Next uniform double in [0, 1) of the stream in ``state[0]``."""
    return to_unit(next_u64(state))


@njit(cache=True, inline="always")
def below(state: np.ndarray, n: int) -> int:
    """A uniform integer in [0, n) (53-bit float method; bias below 2^-40 for n < 2^13)."""
    return int(uniform(state) * n)
