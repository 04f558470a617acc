"""Dominion engine speed: games per second on one core, and the speed-up with 2 jobs.

    python benchmarks/dominion.py [--games 200000] [--repeats 3]

Match-ups: a two-player Big Money mirror (the issue's target: at least 2,000 games/s on
one core; a Java simulator does about 1,100-1,900 here, a Python one 200-240), Smithy Big
Money vs Big Money Ultimate, and the heuristic bot vs Big Money. Each figure is the best of
``--repeats`` runs after a warm-up (numba cache loaded, loky workers started), because
other processes share this machine. Peak memory (max RSS) is printed at the end.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from games.dominion import BotSpec, play_many

MATCHUPS = {
    "big-money mirror": [BotSpec("big-money"), BotSpec("big-money")],
    "smithy-big-money vs big-money-ultimate": [BotSpec("smithy-big-money"),
                                               BotSpec("big-money-ultimate")],
    "heuristic vs big-money": [BotSpec("heuristic"), BotSpec("big-money")],
}


def best_rate(bots: list[BotSpec], games: int, jobs: int, repeats: int) -> tuple[float, float]:
    """(best games/s, seconds of that run) over ``repeats`` runs of ``games`` games."""
    best = (0.0, 0.0)
    for r in range(repeats):
        res = play_many(bots, games, seed=100 + r, jobs=jobs)
        rate = games / res.seconds
        if rate > best[0]:
            best = (rate, res.seconds)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    print(f"cpu cores: {os.cpu_count()}, games per run: {args.games:,}, "
          f"best of {args.repeats}")
    for bots in MATCHUPS.values():  # warm-up: load compiled kernels, start workers
        play_many(bots, 2000, seed=1, jobs=1)
        play_many(bots, 4000, seed=1, jobs=2)
    print(f"{'match-up':42s} {'1 job g/s':>12s} {'2 jobs g/s':>12s} {'speed-up':>9s}")
    for name, bots in MATCHUPS.items():
        one, t1 = best_rate(bots, args.games, 1, args.repeats)
        two, t2 = best_rate(bots, args.games, 2, args.repeats)
        print(f"{name:42s} {one:12,.0f} {two:12,.0f} {two / one:9.2f}"
              f"   ({t1:.2f} s / {t2:.2f} s)")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory: {own:.0f} MiB (this process), {kids:.0f} MiB (largest worker)")


if __name__ == "__main__":
    main()
