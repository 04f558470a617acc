"""The Game, solo, depth 2: players compared on common deals (paired), with time per game.

    python benchmarks/thegame_d2.py --games 500 --seed 31 --jobs 2
    python benchmarks/thegame_d2.py --games 20000 --seed 3141 --jobs 16 --json runs/d2.json
    python benchmarks/thegame_d2.py --games 500 --only d2-fitted,lay-more-0.5 \\
        --config "lay-more-0.5=fallback-lay-more:lay_margin=0.5"
    python benchmarks/thegame_d2.py --games 500 --only d2-fitted,k3 \\
        --config "k3=d2-fitted:deepen_k=3,deepen_plies=1"

Every configuration plays the same deals (games 0..N-1 of root --seed), so differences are
paired: the script prints each one's wins with the 95% Wilson interval, games/s and mean
seconds of one worker per game, then each configuration minus the first (per-deal win
difference, mean and 95% normal interval). ``--config NAME=PLAYER:k=v,k=v`` adds a
configuration (PLAYER may be a configuration named before, whose params k=v then
override); the built-in ones are listed by --help. Games run in --jobs worker processes
(forked after the kernels are compiled here), in blocks of --block games.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from games.core import InputError, wilson_interval
from games.thegame import build_params, play_block

# the weights fitted at d = 0 (reports/thegame-penalty-d0), the d = 2 study's best
FITTED = {"alpha": 5.137766281766317, "beta": 0.07623242763683438,
          "gamma": 0.005042452797870999, "lam": 0.17236899328960764, "bound": 23,
          "w_first": 1.0775416458161158, "hand_weight": 1.4663887372635531, "form": "inner"}
CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "d2-fitted": ("recovery-fallback", FITTED),
    "seed": ("recovery-fallback", {}),
    "lay-more": ("fallback-lay-more", {}),
}


def parse_config(text: str, known: dict[str, tuple[str, dict[str, Any]]] | None = None
                 ) -> tuple[str, tuple[str, dict[str, Any]]]:
    """``NAME=PLAYER:k=v,k=v`` -> (NAME, (PLAYER, params)); values as float, int or text.

    PLAYER may also name a configuration of ``known`` (e.g. d2-fitted): its player and
    params, with k=v on top.
    """
    name, _, rest = text.partition("=")
    player, _, pairs = rest.partition(":")
    if not name or not player:
        raise InputError(f"--config needs NAME=PLAYER[:k=v,...], got {text!r}")
    params: dict[str, Any] = {}
    if known and player in known:
        player, base = known[player]
        params.update(base)
    for pair in filter(None, pairs.split(",")):
        key, _, value = pair.partition("=")
        try:
            params[key] = int(value) if value.lstrip("-").isdigit() else float(value)
        except ValueError:
            params[key] = value
    build_params(player, params)  # unknown player or parameter: one line, exit 2
    return name, (player, params)


def _block(player: str, params: dict[str, Any], depth: int, seed: int, start: int,
           count: int) -> tuple[int, np.ndarray, float]:
    t0 = time.process_time()
    left = play_block(player, params, depth, seed, start, count).cards_left
    return start, left, time.process_time() - t0


def measure(player: str, params: dict[str, Any], depth: int, seed: int, games: int,
            block: int, pool: ProcessPoolExecutor, start: int = 0) -> dict[str, Any]:
    """Cards left per deal, wall time and CPU seconds of the workers, for games
    start..start+N-1."""
    t0 = time.perf_counter()
    futures = [pool.submit(_block, player, params, depth, seed, start + s,
                           min(block, games - s)) for s in range(0, games, block)]
    parts = sorted(f.result() for f in futures)
    wall = time.perf_counter() - t0
    left = np.concatenate([p[1] for p in parts])
    return {"left": left, "wall": wall, "cpu": sum(p[2] for p in parts)}


def summary(name: str, player: str, params: dict[str, Any], res: dict[str, Any]
            ) -> dict[str, Any]:
    left = res["left"]
    n, wins = int(left.size), int((left == 0).sum())
    lo, hi = wilson_interval(wins, n)
    return {"name": name, "player": player, "params": params, "games": n, "wins": wins,
            "win_rate": wins / n, "win_rate_ci": [lo, hi],
            "mean_cards_left": float(left.mean()), "games_per_second": n / res["wall"],
            "seconds_per_game": res["cpu"] / n, "cards_left": left.tolist()}


def paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """Mean per-deal win difference a - b and its 95% normal interval."""
    d = (a == 0).astype(float) - (b == 0).astype(float)
    half = 1.959964 * d.std(ddof=1) / math.sqrt(d.size) if d.size > 1 else float("nan")
    return float(d.mean()), float(d.mean() - half), float(d.mean() + half)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500, help="common deals (games 0..N-1)")
    ap.add_argument("--seed", type=int, default=31, help="root seed of the deals")
    ap.add_argument("--start", type=int, default=0,
                    help="first game index (a run in parts: games start..start+N-1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--depth", type=int, default=2, help="search depth d")
    ap.add_argument("--block", type=int, default=0, help="games per task (0: automatic)")
    ap.add_argument("--only", default=None,
                    help=f"comma-separated configurations, the first is the baseline "
                         f"(built in: {', '.join(CONFIGS)}; default: d2-fitted, lay-more "
                         f"and every --config)")
    ap.add_argument("--config", action="append", default=[],
                    help="NAME=PLAYER:k=v,k=v, a further configuration")
    ap.add_argument("--json", dest="json_path", default=None, help="write the figures here")
    args = ap.parse_args()
    configs = dict(CONFIGS)
    try:
        if (args.games < 2 or args.jobs < 1 or not 0 <= args.depth <= 4 or args.block < 0
                or args.start < 0):
            raise InputError("--games must be >= 2, --jobs >= 1, --depth 0..4, --block >= 0, "
                             "--start >= 0")
        for c in args.config:
            name, config = parse_config(c, configs)
            configs[name] = config
        if args.only is not None and not args.only.strip(","):
            raise InputError("--only names no configuration")
        names = ([n for n in args.only.split(",") if n] if args.only is not None else
                 ["d2-fitted", "lay-more"] + [c.partition("=")[0] for c in args.config])
        unknown = [n for n in names if n not in configs]
        if unknown:
            raise InputError(f"unknown configuration {unknown[0]!r}; "
                             f"choose from {', '.join(configs)}")
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    block = args.block or max(1, min(100, args.games // (4 * args.jobs)))
    for name in names:  # compile (or load) the kernels once, before the workers fork
        play_block(*configs[name], args.depth, 99, 0, 1)
    print(f"{args.games} deals (from game {args.start}) of root seed {args.seed}, "
          f"d = {args.depth}, {args.jobs} jobs, "
          f"{os.cpu_count()} cores", flush=True)
    rows, lefts = [], {}
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(args.jobs, mp_context=ctx) as pool:
        for name in names:
            player, params = configs[name]
            res = measure(player, params, args.depth, args.seed, args.games, block, pool,
                          args.start)
            row = summary(name, player, params, res)
            lefts[name] = res["left"]
            lo, hi = row["win_rate_ci"]
            print(f"{name:22s} wins {row['wins']:6d}/{row['games']} = "
                  f"{100 * row['win_rate']:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]  cards left "
                  f"{row['mean_cards_left']:.2f}  {row['games_per_second']:.2f} games/s  "
                  f"{row['seconds_per_game']:.4f} s/game", flush=True)
            rows.append(row)
    base = names[0]
    for name in names[1:]:
        diff, lo, hi = paired(lefts[name], lefts[base])
        ratio = rows[names.index(name)]["seconds_per_game"] / rows[0]["seconds_per_game"]
        rows[names.index(name)]["paired_vs_first"] = [diff, lo, hi]
        rows[names.index(name)]["time_ratio_vs_first"] = ratio
        print(f"{name} - {base}: {100 * diff:+.2f} points [{100 * lo:+.2f}, {100 * hi:+.2f}], "
              f"time per game x{ratio:.2f}")
    if args.json_path:
        os.makedirs(os.path.dirname(os.path.abspath(args.json_path)), exist_ok=True)
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump({"seed": args.seed, "start": args.start, "games": args.games,
                       "depth": args.depth,
                       "jobs": args.jobs, "rows": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
