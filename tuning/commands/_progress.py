"""Throttled progress on stderr for every long command (studies, re-evaluation, evolutions,
training, matches).

A :class:`Throttle` prints at most one line every ``every`` seconds, always with the time
left where it can be estimated, and keeps talking through long silent stretches: when no
line was printed for ``every`` seconds (a long trial, a long re-evaluation, a slow block of
games) a background ticker prints the current state again. On a terminal a live status line
shows the latest state between lines. ``every``: ``TABLETUNE_PROGRESS_SECONDS``, else 2 s on
a terminal and 10 s when stderr is a pipe or a file (a log gets a line every 10 s, not one
per trial).
"""

from __future__ import annotations

import math
import os
import shlex
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import typer
from rich.console import Console

from games.errors import InputError

ENV = "TABLETUNE_PROGRESS_SECONDS"
#: exit status of a command stopped by Ctrl-C or SIGTERM (128 + SIGINT, as shells report)
STOP_STATUS = 130


def progress_seconds(terminal: bool) -> float:
    """Seconds between progress lines: the environment's setting, else 2 (terminal) or 10."""
    text = os.environ.get(ENV, "").strip()
    if not text:
        return 2.0 if terminal else 10.0
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not math.isfinite(value) or value <= 0:
        raise InputError(f"{ENV} must be a number of seconds above 0, got {text!r}")
    return value


def duration(seconds: float | None) -> str:
    """``1h02m``, ``3m05s`` or ``?`` (unknown)."""
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return "?"
    whole = int(round(seconds))
    h, rem = divmod(whole, 3600)
    m, s = divmod(rem, 60)
    return f"{h}h{m:02d}m" if h else f"{m}m{s:02d}s"


class Throttle:
    """At most one progress line every ``every`` seconds, and one at least that often.

    ``describe()`` gives the current state as one line (called when a line is due, so it
    can compute elapsed and remaining time then). Call :meth:`poke` after each event and
    :meth:`say` for a line that must always show (a warning)."""

    def __init__(self, describe: Callable[[], str], console: Console | None = None,
                 every: float | None = None, clock: Callable[[], float] = time.monotonic,
                 ticker: bool = True) -> None:
        if console is None:
            from tuning.commands._output import err_console
            console = err_console
        self.console = console
        self.describe = describe
        self.live = console.is_terminal
        self.every = every if every is not None else progress_seconds(self.live)
        self.clock = clock
        self.last = clock()  # nothing is due in the first interval
        self.lines = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ticker = ticker
        self._status: Any = None

    def __enter__(self) -> Throttle:
        if self.live:
            from rich.status import Status
            self._status = Status("starting", console=self.console)
            self._status.start()
        if self._ticker:
            self._thread = threading.Thread(target=self._tick_loop, daemon=True,
                                            name="tabletune-progress")
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the ticker and the live status line (again: nothing happens)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self._status is not None:
            self._status.stop()
            self._status = None

    def _tick_loop(self) -> None:
        while not self._stop.wait(min(1.0, self.every / 4)):
            self.poke()

    def poke(self, force: bool = False) -> bool:
        """Print the current state if a line is due (or ``force``); True if printed."""
        with self._lock:
            now = self.clock()
            text = self.describe()
            if self._status is not None:
                self._status.update(text)
            if not force and now - self.last < self.every:
                return False
            self.last = now
            self.lines += 1
            self.console.print(text, highlight=False, markup=False, soft_wrap=True)
            return True

    def say(self, text: str) -> None:
        """A line that always shows (it does not reset the interval)."""
        with self._lock:
            self.console.print(text, highlight=False, markup=False, soft_wrap=True)


class Reporter:
    """Base of the progress reporters: a :class:`Throttle` over :meth:`describe`, used as a
    context manager; ``since`` is when the latest event arrived (or the run started)."""

    def __init__(self, console: Console | None = None, every: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.started = self.since = clock()
        self.throttle = Throttle(self.describe, console, every, clock)

    def __enter__(self) -> Any:
        self.started = self.since = self.clock()
        self.throttle.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.throttle.close()

    def describe(self) -> str:
        raise NotImplementedError


def stop_line(text: str, reporter: Reporter | None = None) -> NoReturn:
    """End a command that Ctrl-C or SIGTERM stopped: first the live status line and the
    ticker stop (they would erase the line, or print after it), then one line on stderr
    saying what was kept and the command that continues; exit status 130."""
    if reporter is not None:
        reporter.throttle.close()
    from tuning.commands._output import err_console
    err_console.print(text, highlight=False, markup=False, soft_wrap=True)
    raise typer.Exit(STOP_STATUS)


def given_command(drop: Sequence[str] = (), add: Sequence[str] = ()) -> str:
    """The command line as it was typed, for a stop line that says how to go on: flags in
    ``drop`` (flags without a value, such as ``--restart``) left out, ``add`` appended."""
    words = [w for w in sys.argv[1:] if w not in drop]
    return shlex.join(["tabletune", *words, *(w for w in add if w not in words)])


class MatchProgress(Reporter):
    """``progress(done, total, seconds)`` of :func:`tuning.evaluation._match.run_match`."""

    def __init__(self, what: str, console: Console | None = None,
                 every: float | None = None, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        super().__init__(console, every, clock)
        self.what = what
        self.done = self.total = 0
        self.seconds = 0.0

    def describe(self) -> str:
        elapsed = self.clock() - self.started
        if not self.total:
            from games import compiling
            doing = "compiling kernels" if compiling.busy() else "starting"
            return f"{self.what}: {doing}, {duration(elapsed)} elapsed"
        rate = self.done / self.seconds if self.seconds > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else None
        return (f"{self.what}: {self.done:,}/{self.total:,} games, {rate:,.0f} games/s, "
                f"{duration(elapsed)} elapsed, {duration(left)} left")

    def __call__(self, done: int, total: int, seconds: float) -> None:
        self.done, self.total, self.seconds = done, total, seconds
        self.throttle.poke()
