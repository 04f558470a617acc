"""Depth-2 evidence for The Game's penalty weights: weights tuned at d = 0 replayed at d = 2.

    python reports/thegame-penalty-d2/d0-weights/evaluate.py --games 10000 --param alpha=4.1 ...
    python reports/thegame-penalty-d2/d0-weights/evaluate.py --start 3000 --games 3500 --param ...

Games start..start+games-1 are saved in chunk-START.json, so separate processes can play
separate ranges of deals; the README merges every chunk (wins, cards left and games add up).

The d = 2 study (studies/thegame-penalty-d2.toml) needs about 100,000 d = 2 games; where
that is out of reach, this script measures what transfers: the d = 0 winner's weights at
d = 2 on the deals of the reproduction's d = 2 row (root seed 2021, games 0..N-1, the same
deals as the seed-parameter figure in reports/thegame/), so both figures share their deals.
It writes chunk-*.json and README.md next to itself.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from games.core import parse_param_assignments, wilson_interval
from games.thegame import build_params, simulate, summarize

HERE = Path(__file__).resolve().parent
SEED = 2021  # reports/thegame/reproduce.py: SEED + 2, its d = 2 row
SEED_PAPER = {"win": 29.7, "cards": 7.1, "games": 10_000}


def _pct(r: dict) -> str:
    lo, hi = r["win_rate_ci"]
    return f"{100 * r['win_rate']:.2f} ({100 * lo:.2f}-{100 * hi:.2f})"


def write_readme(res: dict) -> None:
    base = res.get("baseline")
    rows = [("tuned at d = 0 (" + ", ".join(f"{k}={v}" for k, v in res["params"].items())
             + ")", res["tuned"])]
    if base:
        rows.insert(0, ("seed parameters (reports/thegame, same deals)", base))
    lines = [
        "# The Game: penalty weights at search depth 2",
        "",
        "Recovery with fallback, solo, d = 2. Seed 002: 29.7% wins, 7.1 cards left over "
        "10,000 games. Win % with 95% Wilson intervals.",
        "",
        "| weights | games | win % | cards left | under 10 cards | games/s (1 process) |",
        "|---|---|---|---|---|---|",
    ]
    for label, r in rows:
        lines.append(f"| {label} | {r['games']:,} | {_pct(r)} | {r['mean_cards_left']:.2f} | "
                     f"{100 * r['under_10_rate']:.1f}% | {r['games_per_second']:.1f} |")
    lines += ["", "Deals of the tuned row: games " + ", ".join(
        f"{a}..{b - 1}" for a, b in res["tuned"]["ranges"]) + f" of root seed {res['seed']}.",
              "", "Commands: " + "; ".join(f"`{c}`" for c in res["commands"])]
    notes = HERE / "notes.md"
    if notes.exists():
        lines += ["", notes.read_text(encoding="utf-8").strip()]
    (HERE / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--start", type=int, default=0, help="first game index of this chunk")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--param", action="append", default=[], help="name=value, repeatable")
    ap.add_argument("--from-json", action="store_true", help="only rewrite README.md")
    args = ap.parse_args()
    if not args.from_json:
        raw = parse_param_assignments(args.param)
        params = build_params("recovery-fallback", raw)  # rejects bad names and ranges
        values = {k: getattr(params, k) for k in raw}
        t0 = time.perf_counter()
        batch = simulate("recovery-fallback", values, 2, SEED, args.start, args.games,
                         jobs=args.jobs, block=max(100, args.games // (8 * args.jobs)))
        chunk = summarize(batch, time.perf_counter() - t0)
        chunk.update({"start": args.start, "params": values,
                      "under_10": int((batch.cards_left < 10).sum()),
                      "cards_left_sum": int(batch.cards_left.sum()),
                      "command": "python reports/thegame-penalty-d2/d0-weights/evaluate.py "
                      + " ".join(sys.argv[1:])})
        (HERE / f"chunk-{args.start}.json").write_text(json.dumps(chunk, indent=1),
                                                        encoding="utf-8")
    chunks = [json.loads(p.read_text(encoding="utf-8"))
              for p in sorted(HERE.glob("chunk-*.json"))]
    if not chunks:
        raise SystemExit("no chunk-*.json yet")
    res = {"seed": SEED, "params": chunks[0]["params"], "tuned": merge(chunks),
           "commands": [c["command"] for c in chunks]}
    repro = HERE.parent / "thegame" / "results-d2.json"
    if repro.exists():
        res["baseline"] = json.loads(repro.read_text(encoding="utf-8"))["d2"]
    write_readme(res)


def merge(chunks: list[dict]) -> dict:
    """One summary of several chunks of games (counts and sums add up)."""
    games = sum(c["games"] for c in chunks)
    wins = sum(c["wins"] for c in chunks)
    seconds = sum(c["seconds"] for c in chunks)
    starts = sorted((c["start"], c["start"] + c["games"]) for c in chunks)
    return {"games": games, "wins": wins, "win_rate": wins / games,
            "win_rate_ci": list(wilson_interval(wins, games)),
            "mean_cards_left": sum(c["cards_left_sum"] for c in chunks) / games,
            "under_10_rate": sum(c["under_10"] for c in chunks) / games,
            "games_per_second": games / seconds if seconds > 0 else float("nan"),
            "ranges": starts}


if __name__ == "__main__":
    main()
