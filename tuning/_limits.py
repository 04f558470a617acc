"""The range each kind of number on the command line may take: one rule per kind.

Without a maximum, ``-n 2**64`` games or ``--trials 2**64`` runs for ever, and a game index
past 2**63 overflows the seed arithmetic. Every command checks its numbers here before any
work starts; a value outside its range is one line (InputError, exit status 2) naming the
flag, the range and the value. The README's command-line section states the same maxima.
Root seeds follow the one seed rule of :func:`games.core.check_seed` (0 .. 2**64-1).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from games.errors import InputError


@dataclass(frozen=True)
class Limit:
    """Whole numbers ``low .. high`` for one kind of count; ``every_core`` also allows -1
    (job counts: one worker per core)."""

    what: str
    low: int
    high: int
    every_core: bool = False

    def check(self, value: object, flag: str) -> int:
        """``value`` when it is a whole number in range; InputError naming ``flag`` else."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"{flag} must be a whole number, got {value!r}")
        if self.every_core and value == -1:
            return value
        extra = " (or -1: every core)" if self.every_core else ""
        if value < self.low:
            raise InputError(f"{flag}: {self.what} must be at least {self.low:,}{extra}, "
                             f"got {value}")
        if value > self.high:
            raise InputError(f"{flag}: {self.what} must be at most {self.high:,}, got {value}")
        return value

    def check_optional(self, value: int | None, flag: str) -> int | None:
        """As :meth:`check`, with None (the flag left out) passed through."""
        return None if value is None else self.check(value, flag)


#: games of one match or training run: a billion Dominion games take about 6 hours
GAMES = Limit("games", 1, 1_000_000_000)
#: games per seed block; 0 lets the match choose
BLOCK = Limit("games per block", 0, GAMES.high)
#: which game of a run (``watch -i``): any game that a run of GAMES.high games plays
GAME_INDEX = Limit("game index", 0, GAMES.high - 1)
#: Optuna trials of one study
TRIALS = Limit("trials", 1, 100_000)
#: DEAP generations of one evolution
GENERATIONS = Limit("generations", 1, 100_000)
#: DEAP population size mu
POPULATION = Limit("population", 1, 10_000)
#: worker processes or threads (-1: one per core)
JOBS = Limit("worker processes", 1, 1024, every_core=True)
#: calls a storage proxy serves at once
THREADS = Limit("threads", 1, 1024)
#: TCP ports to listen on
PORT = Limit("port", 1, 65_535)

def workers(value: int | None, flag: str = "--jobs") -> int | None:
    """A checked job count with -1 resolved to the number of cores (None passes)."""
    if value is None:
        return None
    return os.cpu_count() or 1 if JOBS.check(value, flag) == -1 else value


#: ``reproduce --scale``: a factor on every default game count
SCALE_MAX = 100.0


def check_scale(value: float, flag: str = "--scale") -> float:
    """A positive, finite factor up to :data:`SCALE_MAX`."""
    if not (math.isfinite(value) and 0 < value <= SCALE_MAX):
        raise InputError(f"{flag} must lie in (0, {SCALE_MAX:g}] (a factor on the default "
                         f"game counts), got {value:g}")
    return value
