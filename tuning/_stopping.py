"""Ctrl-C and SIGTERM: one way for a long run to stop, and short stretches it finishes first.

Python turns Ctrl-C (SIGINT) into ``KeyboardInterrupt`` in the main thread; inside
:func:`stop_signals` SIGTERM (``kill``, a scheduler's stop) does the same, so every long
command keeps what it has on either signal through one ``except KeyboardInterrupt``.
:func:`held_stop` holds a stop back while a run changes state that must change all at once
(a training round's model, probe and checkpoint), and delivers it when that is done.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

from games import compiling

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_holding = False  # a hold is active (in the main thread)


def _interrupt(signum: int, frame: Any) -> None:
    if compiling.defer_stop(signum):  # inside numba's compiler: the stop waits for it
        return
    raise KeyboardInterrupt(f"signal {signum}")


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def stop_signals() -> Iterator[None]:
    """Inside the block SIGTERM stops the run as Ctrl-C does (``KeyboardInterrupt``); both
    wait for a kernel compile under way to end (:func:`games.compiling.defer_stop`)."""
    # handlers are set in the main thread only; a signal ignored on purpose stays ignored,
    # and a Ctrl-C handler of the caller's own stays
    if not _main_thread():
        yield
        return
    old = {}
    if signal.getsignal(signal.SIGTERM) not in (signal.SIG_IGN, None):
        old[signal.SIGTERM] = signal.signal(signal.SIGTERM, _interrupt)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        old[signal.SIGINT] = signal.signal(signal.SIGINT, _interrupt)
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


@contextlib.contextmanager
def held_stop() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back until the block ends, then stop (``KeyboardInterrupt``)
    if one came: the block's changes are then whole, never half made. Inside another hold
    (or off the main thread, where no signal is handled) it changes nothing."""
    global _holding
    if _holding or not _main_thread():
        yield
        return
    came: list[int] = []
    old = {s: signal.signal(s, lambda signum, frame: came.append(signum)) for s in STOP_SIGNALS
           if signal.getsignal(s) not in (signal.SIG_IGN, None)}  # ignored stays ignored
    _holding = True
    try:
        yield
    finally:
        _holding = False
        for s, handler in old.items():
            signal.signal(s, handler)
    if came:
        raise KeyboardInterrupt(f"signal {came[0]}")
