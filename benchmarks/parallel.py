"""Does --jobs pay? The README's parallel commands with 1 and 2 jobs.

Runs each command in a fresh process (as a user would), on fresh storage, with ``--jobs 1``
and ``--jobs 2``, best of ``--repeats`` (the two job counts alternate run by run, so a
shared host whose speed drifts affects both alike); prints two figures for each: the
command's own time for its work (the ``seconds`` of its JSON: the match, the trials with
their re-evaluation, the generations) and the process's wall time, which adds the
interpreter's start and imports (about 1-2 s that no job count changes), and the load
average (a speed-up needs an idle second core). Targets on 2 cores: at least 1.7x on the
work, never below 1.

    python benchmarks/parallel.py
    python benchmarks/parallel.py --only play --repeats 3
"""

from __future__ import annotations

import argparse
import json
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
    "evolve": ["evolve", "dominion-buylist", "-g", "2", "--json", "--checkpoint",
               "{tmp}/e.ckpt"],
}


def timed(args: list[str], jobs: int) -> tuple[float, float]:
    """Work seconds (from the command's JSON) and wall seconds of one fresh `tabletune`
    process running ``args`` with ``--jobs``."""
    with tempfile.TemporaryDirectory() as tmp:
        argv = [a.replace("{tmp}", tmp) for a in args] + ["--jobs", str(jobs)]
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "tuning.cli", *argv], capture_output=True,
                              text=True, cwd=Path(__file__).resolve().parents[1])
        seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()[-300:]}")
    return float(json.loads(done.stdout)["seconds"]), seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=",".join(COMMANDS), help="comma-separated commands")
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    print(f"cpu cores: {os.cpu_count()}; best of {args.repeats}; load average before: "
          f"{os.getloadavg()[0]:.2f}")
    print(f"{'command':10s} {'work 1 job':>10s} {'2 jobs':>7s} {'speed-up':>9s}   "
          f"{'wall 1 job':>10s} {'2 jobs':>7s} {'speed-up':>9s}  load")
    for name in args.only.split(","):
        if name not in COMMANDS:
            raise SystemExit(f"unknown command {name!r}; use {', '.join(COMMANDS)}")
        cmd = COMMANDS[name]
        timed(cmd, 1)  # warm the numba cache so neither side pays compilation
        one, two = [], []
        for _ in range(args.repeats):
            one.append(timed(cmd, 1))
            two.append(timed(cmd, 2))
        w1, w2 = min(r[0] for r in one), min(r[0] for r in two)
        p1, p2 = min(r[1] for r in one), min(r[1] for r in two)
        print(f"{name:10s} {w1:10.2f} {w2:7.2f} {w1 / w2:8.2f}x   {p1:10.2f} {p2:7.2f} "
              f"{p1 / p2:8.2f}x  {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
