"""Does --jobs pay? Wall time of the README's parallel commands with 1 and 2 jobs.

Runs each command in a fresh process (as a user would), on fresh storage, with ``--jobs 1``
and ``--jobs 2``, best of ``--repeats``; prints seconds, the speed-up and the load average
(a speed-up needs an idle second core). Targets on 2 cores: at least 1.7x, never below 1.

    python benchmarks/parallel.py
    python benchmarks/parallel.py --only play --repeats 3
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = {
    "play": ["play", "dominion", "--bots", "smithy-big-money,big-money", "-n", "20000",
             "--json"],
    "play-200k": ["play", "dominion", "--bots", "smithy-big-money,big-money", "-n", "200000",
                  "--json"],
    "run": ["run", "dominion-heuristic", "--trials", "40", "--json", "--storage", "{tmp}/s.j"],
    "evolve": ["evolve", "dominion-buylist", "-g", "3", "--json", "--checkpoint",
               "{tmp}/e.ckpt"],
}


def timed(args: list[str], jobs: int) -> float:
    """Seconds of one fresh `tabletune` process running ``args`` with ``--jobs``."""
    with tempfile.TemporaryDirectory() as tmp:
        argv = [a.replace("{tmp}", tmp) for a in args] + ["--jobs", str(jobs)]
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "tuning.cli", *argv], capture_output=True,
                              text=True, cwd=Path(__file__).resolve().parents[1])
        seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()[-300:]}")
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=",".join(COMMANDS), help="comma-separated commands")
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    print(f"cpu cores: {os.cpu_count()}; best of {args.repeats}; load average before: "
          f"{os.getloadavg()[0]:.2f}")
    print(f"{'command':10s} {'1 job s':>9s} {'2 jobs s':>9s} {'speed-up':>9s}  load")
    for name in args.only.split(","):
        cmd = COMMANDS[name]
        timed(cmd, 1)  # warm the numba cache so neither side pays compilation
        one = min(timed(cmd, 1) for _ in range(args.repeats))
        two = min(timed(cmd, 2) for _ in range(args.repeats))
        print(f"{name:10s} {one:9.2f} {two:9.2f} {one / two:9.2f}  {os.getloadavg()[0]:.2f}",
              flush=True)


if __name__ == "__main__":
    main()
