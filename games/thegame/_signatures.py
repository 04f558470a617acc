"""One compiled version of each search kernel: its numba signature fixed before the first
batch of games.

numba compiles a jitted function once for each distinct set of argument types it is called
with, and a literal constant at a call site (the ``1`` of ``tmin`` in :func:`extra_play`, a
``0`` depth) is a type of its own. :func:`games.thegame._engine.play_batch` reaches
``search_turn`` through four call sites, so a fresh clone compiled ``search_turn`` three
times, ``_search_tree`` six times and ``extra_play`` twice: about two thirds of The Game's
first-use compile. :func:`fix` compiles each of them once for the plain types (int64,
float64, bool and C-contiguous arrays) and then stops numba from compiling more versions,
so every call site uses that one (literals convert to the plain type, as for any function
with an explicit signature). The kernels stay lazy: nothing compiles when the game is
imported or its players listed, only when the first batch is played.
"""

from __future__ import annotations

from numba import types

from games.thegame import _engine as engine
from games.thegame import _search as search

_I, _F, _B = types.int64, types.float64, types.boolean
_F1, _F2, _F3 = types.float64[::1], types.float64[:, ::1], types.float64[:, :, ::1]
_I1, _I2, _B1 = types.int64[::1], types.int64[:, ::1], types.boolean[::1]

#: the plain argument types of each kernel, as play_batch calls it
SIGNATURES = {
    "search_turn": (_F1, _F3, _F3, _I, _I1, _I1, _I, _I, _I, _F1, _B1, _B1, _I, _I1, _F1,
                    _I1, _I1, _F3, _F3, _I2, _F2, _I1, _I1),
    "_search_tree": (_F1, _F3, _I, _I1, _I1, _I, _I, _I, _F1, _B1, _I1, _F1, _I1, _I1, _F3,
                     _F3, _I2, _F2, _B, _B, _B, _B, _F, _I, _I1, _I1),
    "_search_pairs": (_F3, _F1, _I1, _I, _I1, _B, _I, _F1, _I2, _F2, _F3, _F3, _I1, _B, _B,
                      _F, _I1, _I1),
    "extra_play": (_F1, _F3, _F3, _I, _I1, _I1, _I, _I, _F1, _B1, _B1, _I, _I1, _F1, _I1,
                   _I1, _F3, _F3, _I2, _F2, _I1, _I1),
    "deepened_turn": (_F1, _F3, _F3, _I, _I1, _I1, _I, _I, _I, _I, _F1, _B1, _B1, _I, _I1,
                      _F1, _I1, _I1, _F1, _I1, _I1, _F3, _F3, _I2, _F2, _I1, _I1),
}

_FIXED = False


def fix() -> None:
    """Compile (or load from the cache) the one version of each kernel, callees first, and
    let numba compile no other; once per process."""
    global _FIXED
    if _FIXED:
        return
    for name in ("_search_pairs", "_search_tree", "search_turn", "extra_play",
                 "deepened_turn"):
        kernel = getattr(search, name, None) or getattr(engine, name)
        kernel.compile(SIGNATURES[name])
        kernel.disable_compile()
    _FIXED = True
