"""``learned-general`` against a baseline on fresh random base-set kingdoms: the score per
kingdom with its 95% interval, and the mean over the kingdoms.

    python benchmarks/learned_general.py [--model reports/dominion-learned-general/model.npz]
        [--kingdoms 1001-1010] [--games 2000] [--seed 4101] [--opponent big-money-ultimate]
        [--bot TEXT] [--json out.json]

Kingdom i is ``random:i``; the seed and kingdoms are not the training run's (its kingdoms
come from its own seed, block by block). Games run in this process with seats rotated, the
same as ``tabletune play dominion --bots learned-general,OPP --kingdom random:i -n N -s S``.
The mean's interval treats the kingdoms as fixed (the games' noise only).
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

from games.core import BotSpec, Estimate
from games.dominion._kingdoms import parse_kingdom
from games.dominion._learned import GENERAL_MODEL
from games.dominion.game import GAME


def _range(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=str(GENERAL_MODEL))
    ap.add_argument("--kingdoms", default="1001-1010")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=4101)
    ap.add_argument("--opponent", default="big-money-ultimate")
    ap.add_argument("--bot", default=None, help="score this bot instead (its guide list, ...)")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    me = (GAME.parse_bot(args.bot) if args.bot else
          BotSpec("learned", {"path": args.model}, label_text="learned-general"))
    opp = GAME.parse_bot(args.opponent)
    rows = []
    t0 = time.perf_counter()
    for i in _range(args.kingdoms):
        k = f"random:{i}"
        out = GAME.play([me, opp], GAME.check_options({"kingdom": k}), args.seed, 0, args.games)
        est = Estimate.from_samples(out.bot_result()[:, 0])
        lo, hi = est.ci95
        rows.append({"kingdom": k, "cards": list(parse_kingdom(k)), "score": est.mean,
                     "score_ci": [lo, hi], "stderr": est.stderr, "games": est.n})
        print(f"{k:12s} {est.mean:.3f} ({lo:.3f}..{hi:.3f})  {', '.join(parse_kingdom(k))}",
              flush=True)
    mean = float(np.mean([r["score"] for r in rows]))
    se = math.sqrt(sum(r["stderr"] ** 2 for r in rows)) / len(rows)
    seconds = time.perf_counter() - t0
    games = sum(r["games"] for r in rows)
    low = min(r["score"] for r in rows)
    print(f"mean over {len(rows)} kingdoms vs {args.opponent}: {mean:.3f} "
          f"({mean - 1.96 * se:.3f}..{mean + 1.96 * se:.3f}); min {low:.3f}; "
          f"{games:,} games in {seconds:.0f} s ({games / seconds:,.0f} games/s)")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"opponent": args.opponent, "seed": args.seed, "mean": mean,
                       "mean_ci": [mean - 1.96 * se, mean + 1.96 * se], "kingdoms": rows,
                       "games": games, "seconds": seconds}, fh, indent=1)


if __name__ == "__main__":
    main()
