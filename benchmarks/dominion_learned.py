"""Learned Dominion bot speed: two-player games per second on one core against Big Money.

    python benchmarks/dominion_learned.py [--model runs/dominion-learned/model.npz]
        [--games 100000] [--repeats 3] [--opponent big-money]

A model plays on the kingdom it was trained on (its file records it).

Games are played by the game's ``play`` (the one entry point every game has) in this
process. Without a model file the bot plays with random weights (the same work per decision
as a trained model: every legal buy is scored). The figure is the best of ``--repeats`` runs
after a warm-up, because other processes share this machine; games per CPU-second (the
process's own CPU time) is the figure that load does not distort. The issue's target: at least
10,000 games/s on one core.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from games.core import BotSpec
from games.dominion._features import NF
from games.dominion._learned import load_model
from games.dominion.game import GAME


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=None)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--opponent", default="big-money")
    args = ap.parse_args()
    options = GAME.check_options({})
    if args.model:
        bot = GAME.parse_bot(f"learned:{args.model}")
        options = GAME.check_options({"kingdom": list(load_model(args.model).kingdom)})
    else:
        w = np.random.default_rng(0).normal(size=NF)
        bot = BotSpec("learned", {"weights": w})
    bm = GAME.parse_bot(args.opponent)
    GAME.play([bot, bm], options, 1, 0, 2000)  # warm-up: load the compiled kernels
    print(f"cpu cores: {os.cpu_count()}, games per run: {args.games:,}, best of "
          f"{args.repeats}, model: {args.model or 'random weights'}")
    for name, bots in ((f"learned vs {args.opponent}", [bot, bm]),
                       (f"{args.opponent} mirror", [bm, bm])):
        best = best_cpu = 0.0
        for r in range(args.repeats):
            t0, c0 = time.perf_counter(), time.process_time()
            res = GAME.play(bots, options, 100 + r, 0, args.games)
            best = max(best, args.games / (time.perf_counter() - t0))
            best_cpu = max(best_cpu, args.games / (time.process_time() - c0))
        print(f"{name:24s} {best:10,.0f} games/s (one core, wall) {best_cpu:10,.0f} games "
              f"per CPU-second, mean rounds {res.turns.mean():.1f}")
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
