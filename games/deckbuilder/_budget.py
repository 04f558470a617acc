"""Memory estimate of the exact solvers, checked before anything is allocated: a user who
asks for 100000 turns gets a refusal with the figure instead of a MemoryError later."""

from __future__ import annotations

import os
from math import comb

from games.core import InputError
from games.deckbuilder._model import CardSet

BYTES_PER_STATE = 400  # measured: 60 turns, 635k states, about 240 MB above the interpreter
WARN_BYTES = 1 << 30


def physical_memory() -> int:
    """Bytes of physical memory, or 8 GiB where the system does not say."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, OSError, ValueError):
        return 8 << 30


def states(size: int, card_set: CardSet) -> int:
    """Number of (turn, added cards) states the dynamic programme visits up to ``size``."""
    return comb(size + card_set.dims, card_set.dims)


def check_memory(size: int, card_set: CardSet, what: str) -> str | None:
    """Refuse a solve whose estimate exceeds half the physical memory; return a warning
    line above 1 GiB, else None."""
    need = states(size, card_set) * BYTES_PER_STATE
    have = physical_memory()
    if need > have // 2:
        raise InputError(f"{what} needs about {_size(need)} of memory "
                         f"({states(size, card_set):,} states), more than half of this "
                         f"machine's {_size(have)}; choose a smaller value")
    if need > WARN_BYTES:
        return f"warning: {what} needs about {_size(need)} of memory and may take long"
    return None


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return str(n)  # pragma: no cover
