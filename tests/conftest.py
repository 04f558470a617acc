"""Suite-wide set-up: compile every game's kernels once before the xdist workers start.

On a fresh checkout numba compiles each kernel on its first call; two workers would compile
the same kernels at the same time (minutes for The Game's search). The controller warms
numba's on-disk cache first, one game per process (:mod:`games.warm`), so each compile is
paid once and the workers load the results. Runs without workers skip it.
"""

from __future__ import annotations

import os
import sys
import time

import pytest


def _workers(config: pytest.Config) -> int:
    n = getattr(config.option, "numprocesses", None)
    if n in ("auto", "logical"):
        return os.cpu_count() or 1
    return int(n or 0)


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or os.environ.get("TABLETUNE_NO_WARM"):
        return  # a worker (the controller warmed already), or warming turned off
    workers = _workers(config)
    if workers < 2:
        return
    from games.warm import warm_all

    start = time.perf_counter()
    seconds = warm_all(jobs=workers)
    slowest = max(seconds, key=seconds.get) if seconds else "-"
    print(f"kernels warmed in {time.perf_counter() - start:.0f} s (slowest: {slowest})",
          file=sys.stderr)
