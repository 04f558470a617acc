"""Cost of the deck-building DP against T: one solve per fresh process, and a power fit.

Shared by the deck-building reproduction (its *Cost of the DP* section) and
``benchmarks/deckbuilder.py``. Each solve runs in a fresh interpreter (compiled kernels
loaded from numba's cache and warmed on a tiny game first), so peak memory (VmHWM, the peak
resident set) belongs to that solve alone; "above baseline" subtracts the process's
footprint just before the solve.

    python -m games.deckbuilder.reproduce.cost T [--keep]    # one solve, one JSON line
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time
from pathlib import Path


def peak_mb() -> float:
    """Peak resident memory of this process in MB (VmHWM starts afresh at exec; ru_maxrss
    may carry the parent's peak over a fork)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def solve_here(turns: int, keep: bool) -> dict:
    """Solve T = ``turns`` in this process after a warm-up; time, CPU time and memory."""
    from games.deckbuilder import solve
    from games.deckbuilder._states import state_space

    solve(3)  # load compiled kernels
    state_space.cache_clear()
    base = peak_mb()
    c0 = time.process_time()
    t0 = time.perf_counter()
    sol = solve(turns, keep_policy=keep)
    secs = time.perf_counter() - t0
    cpu = time.process_time() - c0
    peak = peak_mb()
    return {"turns": turns, "keep_policy": keep, "value": sol.value, "seconds": secs,
            "cpu_seconds": cpu, "peak_mb": peak, "above_base_mb": peak - base}


def dp_run(turns: int, keep: bool) -> dict:
    """``solve_here`` in a fresh interpreter that imports this same package."""
    root = str(Path(__file__).resolve().parents[3])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    cmd = [sys.executable, "-m", "games.deckbuilder.reproduce.cost", str(turns)]
    out = subprocess.run(cmd + (["--keep"] if keep else []), capture_output=True, text=True,
                         check=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def fit_power(points: list[tuple[int, float]]) -> tuple[float, float]:
    """Least-squares fit of log(seconds) = log(a) + b log(T) over the larger T measured."""
    xs = [math.log(t) for t, _ in points]
    ys = [math.log(s) for _, s in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / max(
        sum((x - mx) ** 2 for x in xs), 1e-12)
    return math.exp(my - b * mx), b


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("turns", type=int)
    ap.add_argument("--keep", action="store_true", help="store the policy")
    args = ap.parse_args()
    print(json.dumps(solve_here(args.turns, args.keep)))


if __name__ == "__main__":
    main()
