"""Seed 003's Splendor tables (Reed thesis), reproduced: results-PART.json and README.md.

Parts: ``greedy`` (Minimax(n) vs Greedy, allEval, n = 1..5), ``minimax`` (Minimax(n) vs
Minimax(3), allEval2), ``random-search`` (RandomSearch(10, 1000) vs Greedy and Minimax(3),
allEval2 as in the thesis's table), ``first-player`` (the first seat's share with the same
bot in both seats) and ``readings`` (the leaf readings of the thesis's Figure 4.1, for
rows that miss). The rows are data, thesis.toml beside this module (line-ups, sizes, the
thesis's values, the root seed), played by :mod:`games.reproduction_table`: two players,
seats rotated every game, root seed SEED (game i dealt from games.core.game_seeds(SEED, .,
i)), so the same command gives the same figures whatever the number of jobs. Sizes shrink
with search cost (one core: Minimax(5) vs Greedy about 3.5 games a second,
RandomSearch(10, 1000) about one game a second). Each part is saved as it grows; the README
is written from every results-*.json present, with notes.md of the report folder appended.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.reproduction import Settings, play_and_write_readme
from games.reproduction_table import collect, load_table
from games.splendor._players import AIDS_FROM

FOLDER = "reports/splendor"
SIZES = {"fast-games": 2000, "d3-games": 2000, "d4-games": 2000, "d5-games": 1000,
         "rs-games": 400, "mirror-games": 20000}
#: every part's line-ups, the thesis's values and the root seed
TABLE = load_table(Path(__file__).with_name("thesis.toml"), sizes=SIZES)
SEED: int | None = TABLE.seed
PARTS = tuple(TABLE.parts)
PARAMS = False
BENCHMARK = True  # benchmarks/splendor.py output (JSON), quoted in the speed section


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


def _collect(out_dir: Path, settings: Settings) -> list[Path]:
    """Play the requested parts of the table, each saved as it grows."""
    return collect(out_dir, settings, TABLE)


def reproduce(out_dir: Path, settings: Settings) -> list[Path]:
    """Play the requested parts (none with ``from_json``), then write README.md from every
    results file present; return the files written."""
    return play_and_write_readme(out_dir, settings, _collect, PARTS, FOLDER, readme_text)
