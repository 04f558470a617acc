"""Any engine's block function over a worker pool: games split into seed blocks.

Engines offer a function that plays games ``start .. start+count-1`` of a run in the calling
process (a game's ``play``, or a kernel's block function); this spreads such a function over
the workers of a pool, block by block, and returns the blocks' results in order. The pool is
any object with ``jobs`` and an ordered ``map(fn, tasks)``: the tuning layer passes its
``WorkerPool``, so a game's own code (its reproductions) spreads work without importing the
tuning layer. Game i's seed depends only on the run seed and i, so the result never depends
on the pool or the block size. Blocks are drawn lazily (:func:`iter_blocks`): a run of any
length never lists them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from games.core import InputError


def iter_blocks(total: int, size: int, start: int = 0) -> Iterator[tuple[int, int]]:
    """Contiguous ``(start, count)`` blocks of at most ``size`` games covering games
    ``start .. start+total-1``, made one at a time: the blocks of a trillion-game match are
    never held in memory (``games.core.seed_blocks`` lists them). A bad size is refused at
    the call, not at the first block."""
    if size <= 0:
        raise InputError("block size must be positive")
    end = start + total
    return ((s, min(size, end - s)) for s in range(start, end, size))


def _call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Any:
    return fn(*args, **kwargs)


def map_blocks(fn: Callable[..., Any], before: Sequence[Any], games: int, *,
               pool: Any, start: int = 0, block: int | None = None,
               after: Sequence[Any] = (), **kwargs: Any) -> list[Any]:
    """``fn(*before, s, c, *after, **kwargs)`` for every block ``(s, c)`` of games
    ``start .. start+games-1`` on ``pool``, in block order. ``block`` defaults to a size
    that gives each worker about eight blocks."""
    if games < 1:
        raise InputError(f"the number of games must be at least 1, got {games}")
    size = block or max(1, math.ceil(games / (8 * pool.jobs)))
    tasks = ((fn, (*before, s, c, *after), kwargs) for s, c in iter_blocks(games, size, start))
    return pool.map(_call, tasks)
