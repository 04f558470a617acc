"""Seed 003's Splendor tables (Reed thesis), reproduced: results-PART.json and README.md.

Parts: ``greedy`` (Minimax(n) vs Greedy, allEval, n = 1..5), ``minimax`` (Minimax(n) vs
Minimax(3), allEval2), ``random-search`` (RandomSearch(10, 1000) vs Greedy and Minimax(3),
allEval2 as in the thesis's table), ``first-player`` (the first seat's share with the same
bot in both seats) and ``readings`` (the leaf readings of the thesis's Figure 4.1, for
rows that miss). Every row is two players, seats rotated every game, root seed SEED (game
i dealt from games.core.game_seeds(SEED, ., i)), so the same command gives the same
figures whatever the number of jobs. Sizes shrink with search cost (one core: Minimax(5)
vs Greedy about 3.5 games a second, RandomSearch(10, 1000) about one game a second).
Each part is saved as it grows; the README is written from every results-*.json present,
with notes.md of the report folder appended.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from games.core import Record
from games.reproduction import Settings, play_and_write_readme, say
from games.splendor.players import AIDS_FROM

FOLDER = "reports/splendor"
SEED: int | None = 2013
PARTS = ("greedy", "minimax", "first-player", "readings", "random-search")
SIZES = {"fast-games": 2000, "d3-games": 2000, "d4-games": 2000, "d5-games": 1000,
         "rs-games": 400, "mirror-games": 20000}
PARAMS = False
BENCHMARK = True  # benchmarks/splendor.py output (JSON), quoted in the speed section


def _size(depth: int) -> str:
    return "fast-games" if depth <= 2 else f"d{depth}-games"


# part -> rows: (label, candidate, opponent, thesis %, size name)
ROWS: dict[str, list[tuple[str, str, str, float | None, str]]] = {
    "greedy": [(f"Minimax({n}) vs Greedy, allEval", f"minimax:{n}", "greedy", pct, _size(n))
               for n, pct in zip(range(1, 6), (48, 72, 79, 80, 83), strict=True)],
    "minimax": [(f"Minimax({n}) vs Minimax(3), allEval2", f"minimax2:{n}", "minimax2:3", pct,
                 _size(max(n, 3))) for n, pct in zip(range(1, 6), (23.9, 34.8, 45.5, 60.7,
                                                                   73.2), strict=True)],
    "random-search": [
        ("RandomSearch(10, 1000) vs Greedy, allEval2", "random-search:10,1000", "greedy2", 88,
         "rs-games"),
        ("RandomSearch(10, 1000) vs Minimax(3), allEval2", "random-search:10,1000",
         "minimax2:3", 51, "rs-games"),
    ],
    "first-player": [
        ("Greedy mirror (allEval)", "greedy", "greedy", 60, "mirror-games"),
        ("Greedy mirror (allEval2)", "greedy2", "greedy2", 60, "mirror-games"),
        ("Minimax(2) mirror (allEval)", "minimax:2", "minimax:2", 60, "fast-games"),
        ("Minimax(3) mirror (allEval2)", "minimax2:3", "minimax2:3", 60, "d3-games"),
    ],
    "readings": [
        ("Minimax(1) vs Greedy, leaf = difference", "minimax:1,leaf=difference", "greedy", 48,
         "fast-games"),
        ("Minimax(2) vs Greedy, leaf = difference", "minimax:2,leaf=difference", "greedy", 72,
         "fast-games"),
        ("Minimax(2) vs Greedy, leaf = mover", "minimax:2,leaf=mover", "greedy", 72,
         "fast-games"),
        ("Minimax(3) vs Greedy, leaf = difference", "minimax:3,leaf=difference", "greedy", 79,
         "d3-games"),
        ("Minimax(2) vs Minimax(3), both leaf = difference", "minimax2:2,leaf=difference",
         "minimax2:3,leaf=difference", 34.8, "d3-games"),
        ("Minimax(1) vs Minimax(3), both leaf = difference", "minimax2:1,leaf=difference",
         "minimax2:3,leaf=difference", 23.9, "d3-games"),
    ],
}


def measure(candidate: str, opponent: str, games: int, seed: int, jobs: int) -> dict[str, Any]:
    """One row: ``games`` seeded games, seats rotated; the candidate's score and interval,
    and the first seat's share over both bots."""
    from games.registry import get
    from tuning.evaluation import WorkerPool
    from tuning.evaluation.match import run_match

    game = get("splendor")
    specs = [game.parse_bot(candidate), game.parse_bot(opponent)]
    options = game.check_options({})
    t0 = time.perf_counter()
    with WorkerPool(jobs) as pool:
        data = run_match("splendor", specs, options, games=games, seed=seed, pool=pool,
                         block=max(1, min(250, games // (4 * jobs))))
    summary = data.to_dict()
    first, other = list(summary["bots"].values())
    seat0 = Record()
    for row in (first, other):
        s = row["per_seat"][0]
        seat0.add(Record(s["wins"], s["ties"], s["losses"]))
    out = {"candidate": candidate, "opponent": opponent, "games": games, "seed": seed,
           "score": first["score"], "score_ci": list(first["score_ci"]),
           "wins": first["wins"], "ties": first["ties"], "losses": first["losses"],
           "first_seat": seat0.score, "first_seat_ci": list(seat0.score_ci),
           "mean_rounds": summary["mean_turns"], "capped_games": summary["capped_games"],
           "seconds": time.perf_counter() - t0}
    say(f"  {candidate} vs {opponent}: {100 * out['score']:.1f}% "
        f"({games} games, {out['seconds']:.0f} s)")
    return out


def collect(out_dir: Path, settings: Settings) -> list[Path]:
    """Play every requested part, saving its json file after each row."""
    seed = SEED if settings.seed is None else settings.seed
    written = []
    for part in settings.parts:
        path = out_dir / f"results-{part}.json"
        out: dict[str, Any] = {"seed": seed, "command": settings.command(), "rows": []}
        for label, cand, opp, thesis, size in ROWS[part]:
            row = measure(cand, opp, settings.n(size), seed, settings.jobs)
            out["rows"].append({"label": label, "thesis": thesis, **row})
            path.write_text(json.dumps(out, indent=1), encoding="utf-8")
        written.append(path)
    return written


def _pct(value: float, ci: list[float]) -> str:
    return f"{100 * value:.1f} ({100 * ci[0]:.1f}-{100 * ci[1]:.1f})"


def _table(rows: list[dict[str, Any]], first_seat: bool = False) -> list[str]:
    key, ci = ("first_seat", "first_seat_ci") if first_seat else ("score", "score_ci")
    head = "first seat's share %" if first_seat else "ours win %"
    lines = [f"| row | bots (`--bots`) | games | seed | {head} (95% CI) | thesis % | "
             "thesis inside CI | mean rounds | capped | seconds |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lo, hi = r[ci]
        inside = "-" if r["thesis"] is None else (
            "yes" if lo <= r["thesis"] / 100 <= hi else "no")
        lines.append(f"| {r['label']} | `{r['candidate']};{r['opponent']}` | {r['games']:,} | "
                     f"{r['seed']} | {_pct(r[key], r[ci])} | {r['thesis']} | {inside} | "
                     f"{r['mean_rounds']:.1f} | {r['capped_games']} | {r['seconds']:.0f} |")
    return lines


TITLES = {
    "greedy": "Minimax(n) vs Greedy, allEval",
    "minimax": "Minimax(n) vs Minimax(3), allEval2",
    "random-search": "RandomSearch(10, 1000)",
    "first-player": "Same bot in both seats: the first player's share",
    "readings": "Other readings of the thesis, for the rows that miss",
}


def readme_text(results: dict[str, dict[str, Any]], notes: str | None,
                bench: dict[str, Any] | None = None) -> str:
    """README.md from the parts present (and the hand-written notes)."""
    lines = [
        "# Splendor: seed 003's tables (Reed thesis) reproduced",
        "",
        "Two players, seats rotated every game, cap 100 rounds, the thesis's lookahead (no "
        "refills, hidden decks and blind reserves). Win % counts a shared first place as "
        "half; intervals are 95% normal intervals of the per-game score. Figures come from "
        + "; ".join(f"`{c}`" for c in dict.fromkeys(r["command"] for r in results.values()))
        + " (sizes in the tables; README only: `--from-json`).",
    ]
    for part in PARTS:
        if part not in results:
            lines += ["", f"## {TITLES[part]}", "", "Not run yet."]
            continue
        lines += ["", f"## {TITLES[part]}", ""]
        lines += _table(results[part]["rows"], first_seat=part == "first-player")
    if bench:
        lines += ["", *speed_lines(bench)]
    if notes:
        lines += ["", notes.strip()]
    return "\n".join(lines) + "\n"


def speed_lines(bench: dict[str, Any]) -> list[str]:
    """The speed and memory section from ``benchmarks/splendor.py --json`` figures."""
    lines = ["## Speed and memory", "",
             f"From `python benchmarks/splendor.py --json FILE` (benchmark.json; load average "
             f"{bench.get('load_average', float('nan')):.2f} when it started: the machine "
             "was shared, so rates are lower bounds).", ""]
    if "random_games_per_second" in bench:
        rate = bench["random_games_per_second"]
        lines.append(f"- Random vs random, 2 players, one core: {rate:,.0f} games/s (target "
                     f"20,000; a Rust engine reports about 98,000 on a fast laptop core: "
                     f"ratio {rate / 98_000:.2f}).")
    if "greedy_games_per_second" in bench:
        lines.append(f"- Greedy vs Greedy, one core: {bench['greedy_games_per_second']:,.0f} "
                     "games/s (target 1,000).")
    for m in bench.get("memory", []):
        lines.append(f"- Peak memory of a {m['games']:,}-game match `{m['bots']}` with "
                     f"{m['jobs']} jobs: {m['tree_peak_mib']:.0f} MiB for the main process "
                     f"and its workers together (largest single process "
                     f"{m['largest_process_mib']:.0f} MiB); {m['seconds']:.0f} s wall.")
    lines += search_lines(bench.get("seconds_per_move", {}))
    lines += match_lines(bench.get("match_seconds", {}))
    return lines


def search_lines(costs: dict[str, dict[str, float]]) -> list[str]:
    """Minimax seconds per move: a table when the benchmark measured its variants (table,
    deepening), else one line per search."""
    if not costs:
        return []
    if not all("p90" in t for t in costs.values()):
        return [f"- {label}: median {t['median']:.4f} s per move, max {t['max']:.3f} s over "
                f"{t['positions']} positions (one core)." for label, t in costs.items()]
    first = next(iter(costs.values()))
    lines = ["", f"Minimax per move over {first['positions']} positions of Greedy-vs-Greedy "
             "games (one core; every variant picks the same move, checked; CPU seconds are "
             "what the search itself used, wall seconds include waiting for a shared core; "
             "each position's time is the least of "
             f"{first.get('repeat', 1)} searches). `minimax` and `minimax2` use the table "
             f"(`tt`) and iterative deepening (`deepen`) from depth {AIDS_FROM} unless told "
             "otherwise:",
             "", "| search | wall s median | wall s p90 | CPU s median | CPU s p90 | CPU s mean "
             "| max s | positions generated | table hits |",
             "|---|---|---|---|---|---|---|---|---|"]
    for label, t in costs.items():
        lines.append(f"| {label} | {t['median']:.4f} | {t['p90']:.4f} | {t['cpu_median']:.4f} "
                     f"| {t['cpu_p90']:.4f} | {t['cpu_mean']:.4f} | {t['max']:.3f} "
                     f"| {t['nodes_per_move']:,.0f} | {t['table_hits_per_move']:,.0f} |")
    return lines


def match_lines(games: dict[str, dict[str, float]]) -> list[str]:
    """Whole games against Greedy per Minimax variant (same games, checked)."""
    if not games:
        return []
    lines = ["", "Whole games against Greedy (seed 1, seats rotated; the batch kernel makes one "
             "table per match; every variant plays the same games, checked):", "",
             "| match | games | wall s | CPU s | mean rounds |", "|---|---|---|---|---|"]
    for label, g in games.items():
        lines.append(f"| {label} | {g['games']} | {g['seconds']:.2f} | {g['cpu_seconds']:.2f} "
                     f"| {g['mean_rounds']:.1f} |")
    return lines


def reproduce(out_dir: Path, settings: Settings) -> list[Path]:
    """Play the requested parts (none with ``from_json``), then write README.md from every
    results file present; return the files written."""
    return play_and_write_readme(out_dir, settings, collect, PARTS, FOLDER, readme_text)
