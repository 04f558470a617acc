"""The gain list (``gain:``) checked against pyminion: the standard Workshop/Gardens bot,
whose Workshops gain by a list of their own, played in both engines against Big Money, beside
the buy-list-only Workshop/Gardens of the cross-check plan.

    python benchmarks/dominion_gain_list.py                       # 100,000 / 10,000 games
    python benchmarks/dominion_gain_list.py --games 20000 --pyminion-games 4000

Both engines play the same strategy text (pyminion through the cross-check's decider, which
follows the gain list the same way: its first entry that fits, then the buy list, then the
card's fallback); kingdom: the cards the bots name (Gardens, Workshop). Scores are the first
bot's (wins + ties / 2) / games, seats rotated, with 95% Wilson intervals and the interval
of the difference (the engines agree when it holds 0). Needs the ``crosscheck`` extra.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.dominion.crosscheck import _compare as compare  # noqa: E402
from games.dominion.crosscheck import _runner as runner
from games.dominion.crosscheck._lineup import kingdom_of  # noqa: E402
from games.dominion.game import GAME  # noqa: E402

MATCHUPS = (("workshop-gardens-standard", "big-money"), ("workshop-gardens", "big-money"))


def side_by_side(bots: tuple[str, str], games: int, theirs_games: int, seed: int) -> dict:
    """One match-up in both engines, with the CPU seconds each took."""
    kingdom = kingdom_of(bots)
    options = GAME.check_options({"kingdom": list(kingdom)})
    specs = [GAME.parse_bot(b) for b in bots]
    GAME.play(specs, options, seed, 0, 1)  # kernels loaded before the clock starts
    t0 = time.process_time()
    ours = GAME.play(specs, options, seed, 0, games)
    t1 = time.process_time()
    theirs = runner.play(list(bots), seed, 0, theirs_games, kingdom=kingdom)
    t2 = time.process_time()
    row = compare.side_by_side(ours, theirs)
    row.update(bots=list(bots), kingdom=list(kingdom), seed=seed,
               ours_seconds=t1 - t0, pyminion_seconds=t2 - t1)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000, help="games in our engine")
    ap.add_argument("--pyminion-games", type=int, default=10_000, help="games in pyminion")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = ap.parse_args()
    rows = [side_by_side(m, args.games, args.pyminion_games, args.seed + i)
            for i, m in enumerate(MATCHUPS)]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for r in rows:
        o, t = r["ours"], r["pyminion"]
        d, (lo, hi) = r["difference"], r["difference_ci95"]
        print(f"{r['bots'][0]} vs {r['bots'][1]} (kingdom {', '.join(r['kingdom'])}, "
              f"seed {r['seed']}):\n"
              f"  ours     {o['score']:.4f} [{o['ci95'][0]:.4f}, {o['ci95'][1]:.4f}] over "
              f"{o['games']:,} games ({r['ours_seconds']:.1f} CPU s)\n"
              f"  pyminion {t['score']:.4f} [{t['ci95'][0]:.4f}, {t['ci95'][1]:.4f}] over "
              f"{t['games']:,} games ({r['pyminion_seconds']:.1f} CPU s)\n"
              f"  difference {d:+.4f} [{lo:+.4f}, {hi:+.4f}]: "
              f"{'agree' if r['agree'] else 'DISAGREE'}")


if __name__ == "__main__":
    main()
