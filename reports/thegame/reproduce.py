"""Reproduce seed 002's tables for The Game (solo) and write results*.json and README.md.

    python reports/thegame/reproduce.py --jobs 16                 # full sizes (below)
    python reports/thegame/reproduce.py --parts d2 --jobs 1       # one part, own json file
    python reports/thegame/reproduce.py --from-json               # rewrite README only
    python reports/thegame/reproduce.py --scale 0.01 --jobs 2     # quick look

Full sizes: 200,000 games a row at d = 0, 20,000 a row at d = 1 (50,000 for the best row),
10,000 games at d = 2, and 100,000 games for each alternative reading of the slides; the
options below lower them for slow players or a small machine (the README states the sizes
used). Each part (d0, d1, d2, variants) is saved in results-PART.json, so parts can run as
separate processes; the README is written from every results-*.json present. Game i of a run
with root seed S is dealt from games.core.game_seeds(S, ., i): the same command gives the
same figures, whatever the number of jobs.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from games.core import Z95
from games.thegame import run

HERE = Path(__file__).resolve().parent
SEED = 2019

# name, player, params, seed win % d=0, seed cards left d=0, seed win % d=1, seed tricks
ROWS = [
    ("Perceived capacity", "perceived-capacity", {}, 4.0, 17.1, 4.0, 18.1),
    ("Real capacity", "real-capacity", {}, 3.4, 17.9, 3.4, 16.3),
    ("Weighted perceived capacity", "weighted-perceived-capacity", {}, 5.2, 15.4, 5.3, 18.0),
    ("Weighted real capacity", "weighted-real-capacity", {}, 6.8, 14.9, 6.8, 15.7),
    ("Penalize playability", "penalize-playability", {}, 9.4, 13.2, 16.2, 15.1),
    ("Recovery using distance", "recovery-distance", {}, 12.7, 11.2, 18.8, 15.9),
    ("Single bridges", "single-bridges", {}, 10.8, 12.8, 18.2, 15.9),
    ("Single bridges amplified", "single-bridges-amplified", {}, 12.2, 13.0, 22.6, 16.6),
    ("Recovery with fallback", "recovery-fallback", {}, 13.1, 12.4, 23.4, 16.7),
]
# other readings of the slides, each against the row it stands for
VARIANTS = [
    ("Single bridges, only drawn bridges count", "single-bridges", {"hand_bridges": 0}, 6),
    ("Single bridges amplified, only drawn bridges count", "single-bridges-amplified",
     {"hand_bridges": 0}, 7),
    ("Recovery with fallback, (1 - rho)^lambda", "recovery-fallback", {"form": "outer"}, 8),
    ("Recovery with fallback, only drawn bridges count", "recovery-fallback",
     {"hand_bridges": 0}, 8),
    ("Recoverability (alpha = 3.5), said to equal penalize playability", "recoverability", {},
     4),
]
SEED_D2 = {"win": 29.7, "cards": 7.1, "under_10": 69.88, "games": 10_000}
SEED_GAMES = 1_000_000


def measure(player: str, params: dict, depth: int, games: int, jobs: int, seed: int) -> dict:
    t0 = time.perf_counter()
    out = run(player, params, depth, games, seed, jobs, block=max(100, games // (jobs * 8)))
    out["wall_seconds"] = time.perf_counter() - t0
    print(f"  {player} {params} d={depth}: {100 * out['win_rate']:.2f}% "
          f"({out['games']} games, {out['wall_seconds']:.0f} s)", flush=True)
    return out


SLOW = ("real-capacity", "weighted-real-capacity", "single-bridges",
        "single-bridges-amplified")
PARTS = ("d0", "d2", "d1", "variants")


def collect(args: argparse.Namespace) -> dict:
    """Play every part in ``args.parts``; each part is saved to its json file as it grows."""
    sc = args.scale

    def n(x: int) -> int:
        return max(10, int(x * sc))

    res: dict = {"seed": SEED}
    for part in args.parts.split(","):
        if part not in PARTS:
            raise SystemExit(f"unknown part {part!r}; choose from {', '.join(PARTS)}")
        path = HERE / f"results-{part}.json"
        out: dict = {"seed": SEED, part: [] if part != "d2" else None,
                     f"command_{part}": "python reports/thegame/reproduce.py "
                     + " ".join(sys.argv[1:])}

        def save(out: dict = out, path: Path = path) -> None:
            path.write_text(json.dumps(out, indent=1), encoding="utf-8")

        if part == "d0":
            for _, player, params, *_rest in ROWS:
                games = n(args.slow_d0_games if player in SLOW else args.d0_games)
                out["d0"].append(measure(player, params, 0, games, args.jobs, SEED))
                save()
        elif part == "d2":
            out["d2"] = measure("recovery-fallback", {}, 2, n(args.d2_games), args.jobs,
                                SEED + 2)
            save()
        elif part == "d1":
            for i, (_, player, params, *_rest) in enumerate(ROWS):
                games = n(args.best_d1_games if i == len(ROWS) - 1 else args.d1_games)
                out["d1"].append(measure(player, params, 1, games, args.jobs, SEED + 1))
                save()
        else:
            for _, player, params, _row in VARIANTS:
                games = n(args.slow_variant_games if player in SLOW else args.variant_games)
                out["variants"].append(measure(player, params, 0, games, args.jobs, SEED))
                save()
        res.update(out)
    return res


def load_results() -> dict:
    """Merge every results-*.json of this folder."""
    res: dict = {"seed": SEED}
    for path in sorted(HERE.glob("results-*.json")):
        res.update(json.loads(path.read_text(encoding="utf-8")))
    return res


def _gap(ours: dict, seed_pct: float, seed_n: int) -> tuple[float, float]:
    """Difference ours - seed in points and the 95% half-width of that difference."""
    p, n = ours["win_rate"], ours["games"]
    q = seed_pct / 100
    half = Z95 * math.sqrt(p * (1 - p) / n + q * (1 - q) / seed_n)
    return 100 * (p - q), 100 * half


def _pct(r: dict) -> str:
    lo, hi = r["win_rate_ci"]
    return f"{100 * r['win_rate']:.2f} ({100 * lo:.2f}-{100 * hi:.2f})"


NOTES = Path(HERE / "notes.md")


def write_readme(res: dict) -> None:
    lines = [
        "# The Game (solo): seed 002's tables reproduced",
        "",
        "Regenerate: `python reports/thegame/reproduce.py --jobs 16` (full sizes, root seed "
        f"{res['seed']}; README only: `--from-json`). The figures below come from "
        + "; ".join(f"`{c}`" for c in dict.fromkeys(res[k] for k in sorted(res)
                                                   if k.startswith("command_")))
        + " (sizes in the tables). Win % with 95% Wilson intervals; "
        "the seed's figures come from 1,000,000 games a row (10,000 at d = 2). "
        "\"Miss\" marks a row whose difference from the seed exceeds the 95% interval of "
        "the difference.",
        "",
        "## Depth 0 and depth 1",
        "",
        "| value function | games d=0 | ours d=0 win % | seed | miss | cards left ours / seed "
        "| backwards tricks of winners ours / seed | games d=1 | ours d=1 win % | seed d=1 "
        "| miss d=1 |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row, r0, r1 in zip(ROWS, res["d0"], res["d1"], strict=True):
        name, _, _, s0, sc, s1, st = row
        g0, h0 = _gap(r0, s0, SEED_GAMES)
        g1, h1 = _gap(r1, s1, SEED_GAMES)
        lines.append(
            f"| {name} | {r0['games']:,} | {_pct(r0)} | {s0} | "
            f"{'yes' if abs(g0) > h0 else 'no'} ({g0:+.2f}) | "
            f"{r0['mean_cards_left']:.2f} / {sc} | {r0['backwards_tricks_of_winners']:.1f} / {st}"
            f" | {r1['games']:,} | {_pct(r1)} | {s1} | {'yes' if abs(g1) > h1 else 'no'} "
            f"({g1:+.2f}) |")
    d2 = res["d2"]
    g2, h2 = _gap(d2, SEED_D2["win"], SEED_D2["games"])
    lines += [
        "",
        "## Depth 2 (recovery with fallback)",
        "",
        "| games | ours win % | seed | miss | cards left ours / seed | under 10 cards ours / "
        "seed | games/s |",
        "|---|---|---|---|---|---|---|",
        f"| {d2['games']:,} | {_pct(d2)} | {SEED_D2['win']} | "
        f"{'yes' if abs(g2) > h2 else 'no'} ({g2:+.2f}) | {d2['mean_cards_left']:.2f} / "
        f"{SEED_D2['cards']} | {100 * d2['under_10_rate']:.2f}% / {SEED_D2['under_10']}% | "
        f"{d2['games_per_second']:.0f} |",
        "",
        "## Other readings of the slides (d = 0)",
        "",
        "| reading | games | win % | seed figure of its row | cards left |",
        "|---|---|---|---|---|",
    ]
    for (label, _, _, row), r in zip(VARIANTS, res["variants"], strict=True):
        lines.append(f"| {label} | {r['games']:,} | {_pct(r)} | {ROWS[row][3]} | "
                     f"{r['mean_cards_left']:.2f} |")
    if NOTES.exists():
        lines += ["", NOTES.read_text(encoding="utf-8").strip()]
    (HERE / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    ap.add_argument("--parts", default=",".join(PARTS), help="comma-separated parts to play")
    ap.add_argument("--d0-games", type=int, default=200_000)
    ap.add_argument("--slow-d0-games", type=int, default=200_000,
                    help="d = 0 games of the slow players (" + ", ".join(SLOW) + ")")
    ap.add_argument("--d1-games", type=int, default=20_000)
    ap.add_argument("--best-d1-games", type=int, default=50_000)
    ap.add_argument("--d2-games", type=int, default=10_000)
    ap.add_argument("--variant-games", type=int, default=100_000)
    ap.add_argument("--slow-variant-games", type=int, default=100_000)
    ap.add_argument("--from-json", action="store_true", help="only rewrite README.md")
    args = ap.parse_args()
    if not args.from_json:
        collect(args)
    res = load_results()
    if all(k in res for k in ("d0", "d1", "d2", "variants")):
        write_readme(res)
    else:
        print("README not written: parts missing:",
              ", ".join(k for k in ("d0", "d1", "d2", "variants") if k not in res))


if __name__ == "__main__":
    main()
