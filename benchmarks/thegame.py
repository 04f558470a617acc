"""Games per second of every The Game player at search depths 0, 1, 2: one core and --jobs.

    python benchmarks/thegame.py                 # one core, all players, d = 0, 1, 2
    python benchmarks/thegame.py --jobs 16       # also the throughput of 16 worker processes
    python benchmarks/thegame.py --players recovery-fallback --depths 0 --repeat 5
    python benchmarks/thegame.py --jobs 2 --json runs/thegame-benchmark.json

Each figure is the best of --repeat timed runs (after one warm-up run that loads or compiles
the numba kernels), so background load on a shared machine shows as little as possible.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from games.blocks import map_blocks
from games.thegame import PLAYERS, play_block
from tuning.evaluation import WorkerPool
from tuning.reproduce import outside_reports

GAMES = {0: 2000, 1: 200, 2: 30, 3: 5}


def one_core(player: str, depth: int, games: int, repeat: int) -> float:
    play_block(player, None, depth, 99, 0, 2)
    best = 0.0
    for r in range(repeat):
        t0 = time.perf_counter()
        play_block(player, None, depth, 1000 + r, 0, games)
        best = max(best, games / (time.perf_counter() - t0))
    return best


def many_cores(player: str, depth: int, games: int, pool: WorkerPool) -> float:
    """Games/s of ``pool``'s processes together (the pool is warmed up first)."""
    map_blocks(play_block, (player, None, depth, 7), pool.jobs * 4, pool=pool, block=4)
    t0 = time.perf_counter()
    map_blocks(play_block, (player, None, depth, 8), games, pool=pool,
               block=max(1, games // (pool.jobs * 8)))
    return games / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default=",".join(PLAYERS), help="comma-separated players")
    ap.add_argument("--depths", default="0,1,2", help="comma-separated search depths")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the games per run")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per figure (best kept)")
    ap.add_argument("--jobs", type=int, default=0, help="also measure J worker processes")
    ap.add_argument("--json", dest="json_path", default=None,
                    help="write figures here (under runs/, never reports/: "
                         "`tabletune reproduce thegame --benchmark FILE` takes them in)")
    args = ap.parse_args()
    outside_reports(args.json_path)
    rows = []
    print(f"cpu cores: {os.cpu_count()}")
    print(f"{'player':30s} {'d':>2s} {'games':>6s} {'1 core g/s':>11s}"
          + (f" {f'{args.jobs} jobs g/s':>12s}" if args.jobs else ""))
    with WorkerPool(max(1, args.jobs)) as pool:  # one pool for the whole benchmark
        for player in args.players.split(","):
            for depth in (int(d) for d in args.depths.split(",")):
                games = max(2, int(GAMES.get(depth, 2) * args.scale))
                single = one_core(player, depth, games, args.repeat)
                row = {"player": player, "depth": depth, "games": games, "one_core": single}
                line = f"{player:30s} {depth:2d} {games:6d} {single:11.1f}"
                if args.jobs:
                    row["jobs"] = args.jobs
                    row["many"] = many_cores(player, depth, games * args.jobs * 2, pool)
                    line += f" {row['many']:12.1f}"
                print(line, flush=True)
                rows.append(row)
    if args.json_path:
        os.makedirs(os.path.dirname(os.path.abspath(args.json_path)), exist_ok=True)
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
