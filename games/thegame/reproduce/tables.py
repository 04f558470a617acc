"""Seed 002's tables for The Game (solo), reproduced: results-PART.json and README.md.

Full sizes: 200,000 games a row at d = 0, 20,000 a row at d = 1 (50,000 for the best row),
10,000 games at d = 2, and 100,000 games for each alternative reading of the slides. Each
part (d0, d1, d2, variants) is saved in results-PART.json as it grows, so parts can run as
separate processes; the README is written from every results-*.json present, with the
hand-written notes.md of the report folder appended. Game i of a run with root seed S is
dealt from games.core.game_seeds(S, ., i): the same command gives the same figures,
whatever the number of jobs.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

from games.blocks import map_blocks
from games.core import Z95
from games.reproduction import Settings, play_parts, say, text_file
from games.thegame import play_block, summarize
from games.thegame._simulate import GameBatch

FOLDER = "reports/thegame"
SEED: int | None = 2019
PARTS = ("d0", "d2", "d1", "variants")
SIZES = {"d0-games": 200_000, "slow-d0-games": 200_000, "d1-games": 20_000,
         "best-d1-games": 50_000, "d2-games": 10_000, "variant-games": 100_000,
         "slow-variant-games": 100_000}
PARAMS = False
BENCHMARK = True  # benchmarks/thegame.py --json FILE, quoted by notes.md

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
SLOW = ("real-capacity", "weighted-real-capacity", "single-bridges",
        "single-bridges-amplified")


def measure(player: str, params: dict, depth: int, games: int, pool: Any, seed: int) -> dict:
    """Play ``games`` seeded games of one player at one depth on ``pool`` (the run's
    workers); the summary with wall time."""
    jobs = pool.jobs
    t0 = time.perf_counter()
    parts = map_blocks(play_block, (player, dict(params or {}), depth, seed), games,
                       pool=pool, block=max(100, games // (jobs * 8)))
    out = summarize(GameBatch.concat(parts), time.perf_counter() - t0)
    out.update({"player": player, "params": dict(params or {}), "depth": depth, "seed": seed,
                "players": 1, "expert": False, "jobs": jobs})
    out["wall_seconds"] = time.perf_counter() - t0
    say(f"  {player} {params} d={depth}: {100 * out['win_rate']:.2f}% "
        f"({out['games']} games, {out['wall_seconds']:.0f} s)")
    return out


def collect(out_dir: Path, settings: Settings) -> list[Path]:
    """Play every requested part; each part is saved to its json file as it grows."""
    seed = SEED if settings.seed is None else settings.seed
    n, pool = settings.n, settings.pool
    written = []
    for part in settings.parts:
        path = out_dir / f"results-{part}.json"
        out: dict = {"seed": seed, part: [] if part != "d2" else None,
                     f"command_{part}": settings.command()}

        def save(out: dict = out, path: Path = path) -> None:
            path.write_text(json.dumps(out, indent=1), encoding="utf-8")

        if part == "d0":
            for _, player, params, *_rest in ROWS:
                games = n("slow-d0-games" if player in SLOW else "d0-games")
                out["d0"].append(measure(player, params, 0, games, pool, seed))
                save()
        elif part == "d2":
            out["d2"] = measure("recovery-fallback", {}, 2, n("d2-games"), pool, seed + 2)
            save()
        elif part == "d1":
            for i, (_, player, params, *_rest) in enumerate(ROWS):
                games = n("best-d1-games" if i == len(ROWS) - 1 else "d1-games")
                out["d1"].append(measure(player, params, 1, games, pool, seed + 1))
                save()
        else:
            for _, player, params, _row in VARIANTS:
                games = n("slow-variant-games" if player in SLOW else "variant-games")
                out["variants"].append(measure(player, params, 0, games, pool, seed))
                save()
        written.append(path)
    return written


def load_results(out_dir: Path) -> dict:
    """Merge every results-*.json of the report folder."""
    res: dict = {"seed": SEED}
    for path in sorted(out_dir.glob("results-*.json")):
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


def readme_text(res: dict, notes: str | None) -> str:
    """README.md of the report from the merged results (and the hand-written notes)."""
    lines = [
        "# The Game (solo): seed 002's tables reproduced",
        "",
        "Regenerate: `tabletune reproduce thegame --jobs 16` (full sizes, root seed "
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
    if notes:
        lines += ["", notes.strip()]
    return "\n".join(lines) + "\n"


def reproduce(out_dir: Path, settings: Settings) -> list[Path]:
    """Play the requested parts (none with ``from_json``), then write README.md once every
    part has its results file; return the files written."""
    out_dir = Path(out_dir)
    written, _ = play_parts(out_dir, settings, collect)
    res = load_results(out_dir)
    missing = [k for k in ("d0", "d1", "d2", "variants") if k not in res]
    if missing:
        say("README not written: parts missing: " + ", ".join(missing))
        return written
    notes = text_file(out_dir, "notes.md", FOLDER)
    text = readme_text(res, notes.read_text(encoding="utf-8") if notes else None)
    (out_dir / "README.md").write_text(text, encoding="utf-8")
    return written + [out_dir / "README.md"]
