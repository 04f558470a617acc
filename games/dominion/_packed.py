"""A Dominion position in one buffer, for the turn-level State (:mod:`games.dominion._state`).

The rule machine's kernels take eight work arrays (zones, draw pile, player info, piles,
turn state, stream, machine, options). Calling a compiled kernel costs about 0.06 us per
array argument before any rule runs, more than a typical decision's rules themselves, so
the State keeps all eight in one byte buffer and steps it through :func:`step`, which
takes the buffer alone and finds the arrays by the offsets in its header. A copy of a
position is one buffer copy.

Layout: a header of :data:`HEADER` int64 words (players, draw-pile width, player-info
width, then the byte offset of each array in :data:`ARRAYS` order), then the arrays, each
8-byte aligned, with the dtypes and shapes the kernels declare
(:mod:`games.dominion._engine`).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numba import carray, njit, types
from numba.extending import intrinsic

from games.dominion._cards import NC
from games.dominion._engine import I1, Int
from games.dominion._engine import u8 as U64
from games.dominion._rules import deal_hands as _deal_hands
from games.dominion._rules import new_game as _new_game
from games.dominion._rules import settle as _settle
from games.dominion._rules import step as _step
from games.dominion._steps import M_ACTIVE, M_OVER, M_SIZE, M_SP, M_STACK, MAX_OPTIONS, SW

#: the arrays in the buffer, in order (``piles_`` is the State's name for the piles)
ARRAYS = ("zones", "draw", "pinfo", "piles_", "ts", "rng", "mach", "opts")
HEADER = 16
TS_SIZE = 4
U8 = np.uint8
BUF = types.uint8[::1]  # the buffer as the kernels declare it


def shapes(players: int, width: int, pcols: int) -> tuple[tuple[tuple[int, ...], np.dtype], ...]:
    """Shape and dtype of each array of :data:`ARRAYS`."""
    i64, i8, u64 = np.dtype(np.int64), np.dtype(np.int8), np.dtype(np.uint64)
    return (((players, 4, NC), i64), ((players, width), i8), ((players, pcols), i64),
            ((2, NC), i64), ((TS_SIZE,), i64), ((1,), u64), ((M_SIZE,), i64),
            ((MAX_OPTIONS,), i64))


@functools.lru_cache(maxsize=64)
def layout(players: int, width: int, pcols: int) -> tuple[int, dict[str, tuple]]:
    """Bytes of a buffer, and each array's (shape, dtype, offset) in it."""
    where, at = {}, HEADER * 8
    for name, (shape, dtype) in zip(ARRAYS, shapes(players, width, pcols), strict=True):
        where[name] = (shape, dtype, at)
        at += -(-math.prod(shape) * dtype.itemsize // 8) * 8
    return at, where


def empty(players: int, width: int, pcols: int) -> np.ndarray:
    """A zeroed buffer with its header written."""
    size, where = layout(players, width, pcols)
    buf = np.zeros(size, dtype=U8)
    buf[:HEADER * 8].view(np.int64)[:3 + len(ARRAYS)] = [
        players, width, pcols, *(where[name][2] for name in ARRAYS)]
    return buf


def pack(arrays: dict[str, np.ndarray]) -> np.ndarray:
    """A new buffer holding copies of ``arrays`` (every name of :data:`ARRAYS`)."""
    players, width = arrays["draw"].shape
    buf = empty(players, width, arrays["pinfo"].shape[1])
    for name in ARRAYS:
        out = view(buf, name)
        out[...] = np.asarray(arrays[name], dtype=out.dtype).reshape(out.shape)
    return buf


def view(buf: np.ndarray, name: str) -> np.ndarray:
    """The array ``name`` of the buffer, as a writable view."""
    head = buf[:24].view(np.int64)
    shape, dtype, off = layout(int(head[0]), int(head[1]), int(head[2]))[1][name]
    return np.ndarray(shape, dtype, buf, off)


@intrinsic
def _address(typingctx, buf, offset):
    """The address ``offset`` bytes into ``buf``'s data, as a void pointer."""
    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        at = builder.add(builder.ptrtoint(data, context.get_value_type(types.intp)), args[1])
        return builder.inttoptr(at, context.get_value_type(types.voidptr))
    return types.voidptr(buf, offset), codegen


@njit(cache=True, inline='always')  # compiled into each caller
def _arrays(buf):
    """The eight arrays of a buffer made by :func:`pack` (``carray`` views of its bytes:
    nothing is allocated or counted, about 10 ns for all eight)."""
    head = carray(_address(buf, 0), (HEADER,), np.int64)
    n, width, pcols = head[0], head[1], head[2]
    zones = carray(_address(buf, head[3]), (n, 4, NC), np.int64)
    draw = carray(_address(buf, head[4]), (n, width), np.int8)
    pinfo = carray(_address(buf, head[5]), (n, pcols), np.int64)
    piles = carray(_address(buf, head[6]), (2, NC), np.int64)
    ts = carray(_address(buf, head[7]), (TS_SIZE,), np.int64)
    rng = carray(_address(buf, head[8]), (1,), np.uint64)
    mach = carray(_address(buf, head[9]), (M_SIZE,), np.int64)
    opts = carray(_address(buf, head[10]), (MAX_OPTIONS,), np.int64)
    return zones, draw, pinfo, piles, ts, rng, mach, opts


@njit(cache=True, inline='always')  # compiled into each caller
def _mover(n, mach):
    """``n`` options and the seat to move in one int: n + 256 * (seat + 1); 0 once over."""
    if n == 0 or mach[M_OVER]:
        return 0
    sp = mach[M_SP]
    seat = mach[M_ACTIVE] if sp == 0 else mach[M_STACK + SW * (sp - 1) + 1]
    return n + 256 * (seat + 1)


@njit(Int(Int, BUF), cache=True)
def step(code, buf):
    """The rule machine's :func:`games.dominion._rules.step` on the buffer's arrays; returns
    the options of the next decision and the seat to move (see :func:`_mover`)."""
    zones, draw, pinfo, piles, ts, rng, mach, opts = _arrays(buf)
    n = _step(code, mach, zones, draw, pinfo, piles, ts, rng, opts)
    return _mover(n, mach)


@njit(Int(BUF), cache=True)
def settle(buf):
    """:func:`games.dominion._rules.settle` on the buffer's arrays (after edits by hand)."""
    zones, draw, pinfo, piles, ts, rng, mach, opts = _arrays(buf)
    n = _settle(mach, zones, draw, pinfo, piles, ts, rng, opts)
    return _mover(n, mach)


@njit(Int(U64, I1, Int, Int, Int, Int, Int, BUF), cache=True)
def new_game(seed, supply0, end_rule, cap, solo, tiebreak, hand, buf):
    """:func:`games.dominion._rules.new_game` on the buffer's arrays, then
    :func:`games.dominion._rules.settle`: a fresh game's first decision."""
    zones, draw, pinfo, piles, ts, rng, mach, opts = _arrays(buf)
    _new_game(seed, supply0, end_rule, cap, solo, tiebreak, hand, mach, zones, draw, pinfo,
              piles, ts, rng)
    n = _settle(mach, zones, draw, pinfo, piles, ts, rng, opts)
    return _mover(n, mach)


@njit(Int(BUF), cache=True)
def deal_hands(buf):
    """:func:`games.dominion._rules.deal_hands` on the buffer's arrays (OpenSpiel's deal)."""
    zones, draw, pinfo, piles, ts, rng, mach, opts = _arrays(buf)
    n = _deal_hands(mach, zones, draw, pinfo, piles, ts, rng, opts)
    return _mover(n, mach)


def entry(kernel) -> object:
    """The compiled function of a kernel with one declared signature, called without the
    dispatcher's type matching (about 0.1 us a call instead of 0.2-0.6 us); the State
    passes only buffers made by :func:`pack`, so the argument types are always the
    declared ones."""
    return kernel.overloads[kernel.signatures[0]].entry_point

