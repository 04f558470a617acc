"""Does --jobs pay? The README's parallel commands with 1 and 2 jobs.

Runs each command in a fresh process (as a user would), on fresh storage, with ``--jobs 1``
and ``--jobs 2``, best of ``--repeats`` (the two job counts alternate run by run, so a
shared host whose speed drifts affects both alike); prints two figures for each: the
command's own time for its work (the ``seconds`` of its JSON: the match, the trials with
their re-evaluation, the generations) and the process's wall time, which adds the
interpreter's start and imports (about 1-2 s that no job count changes), and the load
average (a speed-up needs an idle second core). Targets on 2 cores: at least 1.7x on the
work, never below 1.

Each speed-up is given twice: from the best run of each job count, and as the median of
the ratios of neighbouring runs (a 1-job run and the 2-job run right after it). The row
``ceiling`` is the machine's own limit: a plain Python loop run once alone and then as two
independent processes side by side (2 x its time alone / their wall time). On a shared
virtual machine whose two cores are not always both ours it is well below 2, and no
program's speed-up there can exceed it. The row ``play-split`` is the same limit for the
match itself: the same work as two independent 1-job matches of 10,000 games (root seeds 0
and 10000) started together (the 20,000-game time over the slower half's), a split with no
coordination at all.

    python benchmarks/parallel.py
    python benchmarks/parallel.py --only play --repeats 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
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


BURN = "import time\nt = time.perf_counter()\nx = 0\nfor i in range(12_000_000):\n    x += i * i\n"


def ceiling(repeats: int) -> tuple[float, float, float, float]:
    """The machine's 2-process scaling: the best time of the loop alone, the best wall time of
    two copies side by side, and the median of neighbouring pairs' speed-ups."""
    alone, pair, ratios = [], [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", BURN], check=True)
        alone.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(2)]
        for proc in procs:
            proc.wait()
        pair.append(time.perf_counter() - t0)
        ratios.append(2 * alone[-1] / pair[-1])
    return min(alone), min(pair), 2 * min(alone) / min(pair), statistics.median(ratios)


def split(repeats: int) -> tuple[float, float, float, float]:
    """``play -n 20000`` alone against two 10,000-game matches in independent processes side
    by side: best 1-job work time, best slower-half time, best and median speed-up."""
    whole, halves, ratios = [], [], []
    half = [a if a != "20000" else "10000" for a in COMMANDS["play"]]
    root = Path(__file__).resolve().parents[1]
    for _ in range(repeats):
        whole.append(timed(COMMANDS["play"], 1)[0])
        procs = [subprocess.Popen([sys.executable, "-m", "tuning.cli", *half, "--seed",
                                   str(seed), "--jobs", "1"], stdout=subprocess.PIPE,
                                  text=True, cwd=root) for seed in (0, 10000)]
        halves.append(max(float(json.loads(p.communicate()[0])["seconds"]) for p in procs))
        ratios.append(whole[-1] / halves[-1])
    return min(whole), min(halves), min(whole) / min(halves), statistics.median(ratios)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="ceiling,play-split," + ",".join(COMMANDS),
                    help="comma-separated commands (and 'ceiling', 'play-split')")
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    print(f"cpu cores: {os.cpu_count()}; best of {args.repeats}; load average before: "
          f"{os.getloadavg()[0]:.2f}")
    print(f"{'command':10s} {'work 1 job':>10s} {'2 jobs':>7s} {'speed-up':>9s}   "
          f"{'median':>7s}   {'wall 1 job':>10s} {'2 jobs':>7s} {'speed-up':>9s}  load")
    for name in args.only.split(","):
        if name == "ceiling":
            a, b, best, median = ceiling(args.repeats)
            print(f"{'ceiling':10s} {a:10.2f} {b:7.2f} {best:8.2f}x {median:6.2f}x   (two "
                  f"independent processes)  {os.getloadavg()[0]:.2f}", flush=True)
            continue
        if name == "play-split":
            a, b, best, median = split(args.repeats)
            print(f"{'play-split':10s} {a:10.2f} {b:7.2f} {best:8.2f}x {median:6.2f}x   (the "
                  f"match as two independent halves)  {os.getloadavg()[0]:.2f}", flush=True)
            continue
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
        median = statistics.median(a[0] / b[0] for a, b in zip(one, two, strict=True))
        print(f"{name:10s} {w1:10.2f} {w2:7.2f} {w1 / w2:8.2f}x {median:6.2f}x   {p1:10.2f} "
              f"{p2:7.2f} "
              f"{p1 / p2:8.2f}x  {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
