"""Say so on stderr while numba compiles a game's kernels, so that a first use never looks
like a hang.

numba compiles a kernel on its first call in a process unless its on-disk cache (the
``__pycache__`` folders beside the sources) already holds it; a fresh checkout or a changed
kernel source compiles for seconds to minutes. :func:`watch` registers a listener for
numba's ``numba:compile`` event, which fires only on a real compile (a cache load is
silent). At the first compile of a game's kernels it prints one line at once, naming the
game and what its first use costs (each game package states that in
``FIRST_USE_COMPILE``), then a line every ``TABLETUNE_PROGRESS_SECONDS`` (2 s on a
terminal, 10 s otherwise) while compiling goes on, and one line when it is done.
``python -m games.warm`` compiles every game ahead of time.

The command line turns this on (:func:`enable`); a game registers its package with
:func:`watch` when it is imported, so a command that imports no game imports no numba.
"""

from __future__ import annotations

import _thread
import atexit
import contextlib
import math
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

WARM_HINT = "python -m games.warm"
#: seconds without a compile after which a run of compiles counts as done
QUIET = 1.0
_ENABLED = False
_LISTENER: Any = None


def enable(stream: TextIO | None = None) -> None:
    """Announce compiles in this process (and its forked workers) from now on."""
    global _ENABLED
    _ENABLED = True
    if stream is not None:
        _Notice.stream = stream
    if "numba" in sys.modules:  # a game is loaded already: hear its compiles too
        watch()


def watch() -> None:
    """Register the listener once, if :func:`enable` was called; cheap to call again."""
    global _LISTENER
    if not _ENABLED or _LISTENER is not None:
        return
    from numba.core import event

    _LISTENER = _make_listener(event.Listener)()
    event.register("numba:compile", _LISTENER)
    atexit.register(_LISTENER.notice.close)


def defer_stop(signum: int) -> bool:
    """Hold a stop (Ctrl-C, SIGTERM) back while this process compiles kernels: True if it
    is held, and then it arrives (``_thread.interrupt_main``) once the compiles are done.

    A ``KeyboardInterrupt`` raised inside numba's compiler can leave the process crashing
    or hanging at exit; a compile takes seconds, so the stop waits for it. A second stop
    while one waits is not held (the user insists). Called from a signal handler: it takes
    no lock (the main thread may hold one) and only appends to and pops from a list."""
    notice = getattr(_LISTENER, "notice", None)
    if notice is None or notice.pid != os.getpid():
        return False
    return notice.defer(signum)


def busy() -> bool:
    """Whether this process is compiling kernels now (or did less than ``QUIET`` s ago)."""
    notice = getattr(_LISTENER, "notice", None)
    return notice is not None and notice.pid == os.getpid() and notice.thread is not None


def game_of(module: str) -> str | None:
    """``GAME`` for ``games.GAME.MODULE``; None outside a game package."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "games" else None


def first_use_cost(game: str) -> str:
    """What the game's package says its first compile costs (its ``compiling`` part,
    :mod:`games.capabilities`), or a generic phrase."""
    from games.capabilities import package_part

    return str(package_part(f"games.{game}", "compiling") or "seconds to minutes")


def _interval() -> float:
    """Seconds between progress lines: the environment's, else 2 (terminal) or 10."""
    text = os.environ.get("TABLETUNE_PROGRESS_SECONDS", "").strip()
    try:
        value = float(text) if text else math.nan
    except ValueError:
        value = math.nan
    if math.isfinite(value) and value > 0:
        return value
    stream = _Notice.stream or sys.stderr
    return 2.0 if getattr(stream, "isatty", lambda: False)() else 10.0


class _Notice:
    """The state of one process's compile notices (reset in a forked child)."""

    stream: TextIO | None = None

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.reset()

    def reset(self) -> None:
        self.pid = os.getpid()
        self.depth = 0
        self.functions = 0
        self.games: list[str] = []
        self.started = self.last = 0.0
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.thread: threading.Thread | None = None
        self.pending: list[int] = []  # a stop held back until the compiles end
        self.announced = False

    def say(self, text: str) -> None:
        stream = self.stream or sys.stderr
        try:
            print(text, file=stream, flush=True)
        except (OSError, ValueError):  # a closed or broken stderr never stops a compile
            pass

    def start(self, module: str) -> None:
        if self.pid != os.getpid():
            self.reset()
        with self.lock:
            self.depth += 1
            self.functions += 1
            self.last = self.clock()
            game = game_of(module)  # numba's own helpers count for the game that needs them
            new = game is not None and game not in self.games
            if new:
                self.games.append(game)
            if self.thread is None:
                self.started = self.last
                self.done.clear()
                self.thread = threading.Thread(target=self._tick, daemon=True,
                                               name="tabletune-compile")
                self.thread.start()
        if new:
            self.say(f"compiling {game}'s numba kernels (first use only: {first_use_cost(game)};"
                     f" later runs load them from the cache; `{WARM_HINT}` compiles ahead)")

    def end(self) -> None:
        if self.pid != os.getpid():
            return
        with self.lock:
            self.depth = max(0, self.depth - 1)
            self.last = self.clock()

    def defer(self, signum: int) -> bool:
        """:func:`defer_stop` for this process. Whoever pops the pending stop (this handler,
        when the compiles just ended, or the ticker closing them) delivers it, exactly once."""
        if self.pending:  # a second stop: not held
            with contextlib.suppress(IndexError):
                self.pending.pop()
            return False
        self.pending.append(signum)
        if self.thread is not None:  # the ticker delivers it when it closes the run
            return True
        try:
            self.pending.pop()
        except IndexError:
            return True  # the ticker took it meanwhile and delivers it
        return False

    def _deliver(self) -> None:
        """The held stop, if any, now that no compile runs (from the ticker's thread)."""
        try:
            signum = self.pending.pop()
        except IndexError:
            return
        self.announced = False
        _thread.interrupt_main(signum)

    def _closing(self) -> str:
        """End the run of compiles (the lock is held): the line that says it is done."""
        self.thread = None
        self.done.set()
        return (f"compiled {', '.join(self.games) or 'numba'} kernels in "
                f"{self.last - self.started:.0f} s ({self.functions} functions); cached for "
                "later runs")

    def close(self) -> None:
        """At exit: the closing line of a run of compiles that the ticker has not ended."""
        with self.lock:
            text = self._closing() if self.thread is not None and self.pid == os.getpid() \
                else ""
        if text:
            self.say(text)

    def _tick(self) -> None:
        """Progress every interval while compiles go on; one closing line once none has run
        for ``QUIET`` seconds (kernels with explicit signatures compile one by one)."""
        every = _interval()
        said = self.clock()
        while not self.done.wait(0.25):
            if self.pending and not self.announced:
                self.announced = True
                self.say("stopping once the kernels being compiled are done (stopping inside "
                         "the compiler could crash the process; a second Ctrl-C stops now)")
            with self.lock:
                now = self.clock()
                seconds = now - self.started
                games = ", ".join(self.games) or "numba"
                if self.depth == 0 and now - self.last >= QUIET:
                    text = self._closing()
                elif now - said >= every:
                    said = now
                    text = (f"still compiling {games} kernels: {self.functions} functions, "
                            f"{seconds:.0f} s")
                else:
                    continue
            self.say(text)
            if self.thread is None:  # the run of compiles is closed: a held stop arrives
                self._deliver()


def _make_listener(base: type) -> type:
    """A ``numba.core.event.Listener`` subclass over one :class:`_Notice` (built lazily so
    this module imports numba only when a game does)."""

    class CompileListener(base):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            self.notice = _Notice()

        def on_start(self, event: Any) -> None:
            dispatcher = event.data.get("dispatcher") if event.data else None
            func = getattr(dispatcher, "py_func", None)
            self.notice.start(getattr(func, "__module__", "") or "")

        def on_end(self, event: Any) -> None:
            self.notice.end()

    return CompileListener
