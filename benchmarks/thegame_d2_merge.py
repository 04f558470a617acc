"""Merge runs of benchmarks/thegame_d2.py made in parts (--start) into one table.

    python benchmarks/thegame_d2_merge.py runs/part-0.json runs/part-2000.json \\
        --only d2-fitted,k3 --json runs/fresh.json

The parts must share the root seed and depth. A configuration's cards left per deal are
joined in game order over the parts that ran it, which must cover consecutive games (a
configuration may come from a run of its own, e.g. the baseline of an earlier report
replayed by the same code). Each configuration gets wins, the 95% Wilson interval, mean
cards left and seconds of one worker per game (CPU seconds over all its games); the paired
difference against the first configuration is taken over the games both played, from the
first game of the run on (the time ratio means something only where both ran on one
machine). The merged file keeps the cards left per deal, so it can be merged
again with further parts.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import numpy as np

from games.core import wilson_interval

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from thegame_d2 import paired  # noqa: E402


def _joined(parts: list[dict[str, Any]], name: str) -> tuple[dict[str, Any], np.ndarray, float]:
    """A configuration's first row, its cards left in game order and its CPU seconds."""
    runs = sorted(((r.get("start", p.get("start", 0)), r) for p in parts for r in p["rows"]
                   if r["name"] == name), key=lambda x: x[0])
    if not runs:
        raise ValueError(f"no part ran configuration {name!r}")
    pos = runs[0][0]
    for start, row in runs:
        if start != pos:
            raise ValueError(f"configuration {name!r} has a gap or overlap at game {pos}")
        if "cards_left" not in row:
            raise ValueError(f"configuration {name!r} has no per-deal cards left")
        pos += row["games"]
    left = np.concatenate([np.asarray(r["cards_left"], dtype=np.int64) for _, r in runs])
    cpu = sum(r["seconds_per_game"] * r["games"] for _, r in runs)
    return {**runs[0][1], "start": runs[0][0]}, left, cpu


def merge(parts: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    """One table from the parts for configurations ``names``; ValueError when they do not
    fit together."""
    if len({(p["seed"], p["depth"]) for p in parts}) != 1:
        raise ValueError("the parts have different root seeds or depths")
    rows, lefts = [], {}
    for name in names:
        src, left, cpu = _joined(parts, name)
        n, wins = int(left.size), int((left == 0).sum())
        lo, hi = wilson_interval(wins, n)
        rows.append({"name": name, "player": src["player"], "params": src["params"],
                     "start": src["start"], "games": n, "wins": wins, "win_rate": wins / n,
                     "win_rate_ci": [lo, hi], "mean_cards_left": float(left.mean()),
                     "under_10_rate": float((left < 10).mean()),
                     "seconds_per_game": cpu / n, "cards_left": left.tolist()})
        lefts[name] = left
    base = rows[0]
    for row in rows[1:]:
        if row["start"] != base["start"]:
            raise ValueError(f"{row['name']!r} and {base['name']!r} start at different games")
        common = min(row["games"], base["games"])
        a, b = lefts[row["name"]][:common], lefts[base["name"]][:common]
        row["paired_games"] = common
        row["paired_vs_first"] = list(paired(a, b))
        row["mean_cards_left_diff"] = float(a.mean() - b.mean())
        row["time_ratio_vs_first"] = row["seconds_per_game"] / base["seconds_per_game"]
    return {"seed": parts[0]["seed"], "depth": parts[0]["depth"], "parts": len(parts),
            "rows": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("parts", nargs="+", help="JSON files of thegame_d2.py --json")
    ap.add_argument("--only", required=True,
                    help="comma-separated configurations, the first is the baseline")
    ap.add_argument("--json", dest="json_path", default=None, help="write the merged figures")
    args = ap.parse_args()
    try:
        parts = []
        for path in args.parts:
            with open(path, encoding="utf-8") as fh:
                parts.append(json.load(fh))
        out = merge(parts, [n for n in args.only.split(",") if n])
    except (OSError, ValueError, KeyError, IndexError) as err:
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    print(f"root seed {out['seed']}, d = {out['depth']}, {out['parts']} parts")
    for row in out["rows"]:
        lo, hi = row["win_rate_ci"]
        line = (f"{row['name']:22s} wins {row['wins']:6d}/{row['games']} = "
                f"{100 * row['win_rate']:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]  cards left "
                f"{row['mean_cards_left']:.2f}  {row['seconds_per_game']:.4f} s/game")
        if "paired_vs_first" in row:
            d, dlo, dhi = row["paired_vs_first"]
            line += (f"  paired on {row['paired_games']}: {100 * d:+.2f} "
                     f"[{100 * dlo:+.2f}, {100 * dhi:+.2f}]  x{row['time_ratio_vs_first']:.2f}")
        print(line)
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
