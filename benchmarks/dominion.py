"""Dominion engine speed: games per second on one core, and the speed-up with 2 jobs.

    python benchmarks/dominion.py [--games 200000] [--repeats 3]

Match-ups: a two-player Big Money mirror (the issue's target: at least 2,000 games/s on
one core; a Java simulator does about 1,100-1,900 here, a Python one 200-240), Smithy Big
Money vs Big Money Ultimate, the heuristic bot vs Big Money, and two base-set match-ups
with attacks: a Double Witch mirror (target: 20,000 games/s on one core) and Double
Militia vs Double Witch, on a kingdom of just their cards. Each figure is the best of
``--repeats`` runs after a warm-up (numba cache loaded, loky workers started), because
other processes share this machine. Peak memory (max RSS) is printed at the end.
"""

from __future__ import annotations

import argparse
import os

from games.dominion.reproduce._speed import (
    MATCHUP_OPTIONS,
    MATCHUPS,
    best_rate,
    peak_kib,
    timed_run,
    worker_peak_mib,
)
from tuning.evaluation import WorkerPool


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    print(f"cpu cores: {os.cpu_count()}, games per run: {args.games:,}, "
          f"best of {args.repeats}")
    with WorkerPool(1) as solo, WorkerPool(2) as pair:  # one pool each for the whole run
        for name, bots in MATCHUPS.items():  # warm-up: load compiled kernels, start workers
            timed_run(bots, 2000, 1, solo, MATCHUP_OPTIONS.get(name))
            timed_run(bots, 4000, 1, pair, MATCHUP_OPTIONS.get(name))
        print(f"{'match-up':40s} {'1 job g/s':>10s} {'(per cpu-s)':>11s} {'2 jobs g/s':>10s} "
              f"{'speed-up':>8s}")
        for name, bots in MATCHUPS.items():
            opts = MATCHUP_OPTIONS.get(name)
            one, t1, cpu1 = best_rate(bots, args.games, solo, args.repeats, opts)
            two, t2, _ = best_rate(bots, args.games, pair, args.repeats, opts)
            print(f"{name:40s} {one:10,.0f} {cpu1:11,.0f} {two:10,.0f} {two / one:8.2f}"
                  f"   ({t1:.2f} s / {t2:.2f} s)")
        load = os.getloadavg()[0]
        print(f"load average during the run: {load:.1f} on {os.cpu_count()} cores "
              f"(a speed-up needs a second idle core)")
        own = peak_kib() / 1024
        print(f"peak memory: {own:.0f} MiB (this process), {worker_peak_mib(pair):.0f} MiB "
              f"(largest worker)")


if __name__ == "__main__":
    main()
