"""README.md of reports/splendor-genetic from its results-*.json (and benchmark.json)."""

from __future__ import annotations

from typing import Any

TITLES = {
    "variants": "Table 5.1: BuyOrder variants vs Greedy, allEval (depth 10)",
    "depths": "Table 5.3: BuyOrder vs Greedy by depth and population, allEval",
    "random-search": "Table 4.3, genetic rows: RandomSearch(10, 1000) vs BuyOrder and ExactMove",
    "buy-and-deny": "BuyAndDeny vs Greedy, Minimax(3) and Minimax(4), allEval",
    "beyond": "Beyond the thesis: against Minimax(3) with the thesis's budget",
    "start": "Beyond the thesis: Greedy's line in the first generation, at Minimax(3)'s time",
    "diagnosis": "The thesis's diagnosis: crossover yield (Table 5.2) and diversity",
}
ORDER = ("variants", "depths", "random-search", "buy-and-deny", "beyond", "start",
         "diagnosis")


def _pct(value: float, ci: list[float]) -> str:
    return f"{100 * value:.1f} ({100 * ci[0]:.1f}-{100 * ci[1]:.1f})"


def match_table(rows: list[dict[str, Any]]) -> list[str]:
    """One line per match row: games, seed, seats, score with its interval, the thesis."""
    lines = ["| row | bots (`--bots`) | games | seed | seats | ours win % (95% CI) | "
             "thesis % | thesis inside CI | mean rounds | capped | seconds |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lo, hi = r["score_ci"]
        thesis = "-" if r["thesis"] is None else f"{r['thesis']:g}"
        inside = "-" if r["thesis"] is None else (
            "yes" if lo <= r["thesis"] / 100 <= hi else "no")
        lines.append(f"| {r['label']} | `{r['candidate']};{r['opponent']}` | {r['games']:,} | "
                     f"{r['seed']} | rotated | {_pct(r['score'], r['score_ci'])} | {thesis} | "
                     f"{inside} | {r['mean_rounds']:.1f} | {r['capped_games']} | "
                     f"{r['seconds']:.0f} |")
    return lines


def crossover_table(rows: list[dict[str, Any]]) -> list[str]:
    lines = ["| population | evaluations | games | seed | moves | fitter children / "
             "crossovers | % | thesis | thesis % | of them in the first generation | "
             "fitter / mutations (mutation alone) | % |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        cx, better = r["crossovers"], r["improvements"]
        tb, tc = r["thesis"]
        first = r["first_generation_improvements"] / better if better else float("nan")
        mut, mbetter = r["mutations"], r["mutation_improvements"]
        lines.append(
            f"| {r['population']:,} | {r['evaluations']:,} | {r['games']} | {r['seed']} | "
            f"{r['moves']} | {better:,} / {cx:,} | {100 * better / max(cx, 1):.1f} | "
            f"{tb:,} / {tc:,} | {100 * tb / tc:.1f} | {100 * first:.0f}% | "
            f"{mbetter:,} / {mut:,} | {100 * mbetter / max(mut, 1):.1f} |")
    return lines


def diversity_table(rows: list[dict[str, Any]]) -> list[str]:
    heads = " | ".join(f"`{r['candidate']}` distinct % / expressed-distinct %" for r in rows)
    lines = [f"| generation | {heads} |", "|---|" + "---|" * len(rows)]
    depth = max(len(r["per_generation"]) for r in rows)
    for k in range(depth):
        cells = []
        for r in rows:
            g = r["per_generation"][k] if k < len(r["per_generation"]) else None
            cells.append("-" if g is None else
                         f"{100 * g['distinct']:.0f} / {100 * g['expressed']:.0f}")
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    lines += ["", "| player | games | seed | moves | last generation: distinct % | "
              "expressed-distinct % | moves whose best plan improved on generation 0 |",
              "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| `{r['candidate']}` | {r['games']} | {r['seed']} | {r['moves']} | "
                     f"{100 * r['final_distinct']:.1f} | {100 * r['final_expressed']:.1f} | "
                     f"{100 * r['improved_moves']:.0f}% |")
    return lines


def speed_lines(bench: dict[str, Any]) -> list[str]:
    command = bench.get("command", "python benchmarks/splendor_genetic.py")
    lines = ["## Speed", "",
             f"From `{command}` (benchmark.json; load average "
             f"{bench.get('load_average', float('nan')):.2f} when it started, on a shared "
             "2-core machine: CPU time is the one-core cost, wall time an upper bound), "
             "milliseconds per move on the same positions for every bot (Greedy-vs-Greedy "
             "games 4 to 59 turns in):", "",
             "| bot | positions | CPU ms/move median | p90 | mean | wall ms/move median | p90 | "
             "DEAP share | simulation share | plans simulated per move |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for b in bench.get("bots", []):
        c, w = b["cpu"], b["wall"]
        ga = "deap_share" in b
        lines.append(
            f"| `{b['bot']}` | {b['positions']} | {1e3 * c['median']:.2f} | "
            f"{1e3 * c['p90']:.2f} | {1e3 * c['mean']:.2f} | {1e3 * w['median']:.2f} | "
            f"{1e3 * w['p90']:.2f} | "
            + (f"{100 * b['deap_share']:.0f}% | {100 * b['simulation_share']:.0f}% | "
               f"{b['evaluations_per_move']:.0f} |" if ga else "- | - | - |"))
    return lines


def readme_text(results: dict[str, dict[str, Any]], notes: str | None,
                bench: dict[str, Any] | None = None) -> str:
    """README.md from the parts present (and the hand-written notes)."""
    commands = "; ".join(f"`{c}`" for c in dict.fromkeys(r["command"] for r in results.values()))
    lines = [
        "# Splendor: the thesis's genetic players (seed 003, chapters 4-6) reproduced",
        "",
        "Two players, seats rotated every game, cap 100 rounds, the thesis's lookahead (no "
        "refills, hidden decks and blind reserves). Each genetic player runs one DEAP "
        "evolution per move: plans of `depth` turns (every seat's), the opponent modelled "
        "by Greedy with the player's F, the end scored with F; `name:depth,population,"
        "evaluations` (generations = evaluations / population, only changed chromosomes "
        "simulated). Win % counts a shared first place as half; intervals are 95% normal "
        "intervals of the per-game score. Figures come from "
        + (commands or "`tabletune reproduce splendor-genetic`")
        + " (README only: `--from-json`).",
    ]
    for part in ORDER:
        lines += ["", f"## {TITLES[part]}", ""]
        if part not in results:
            lines.append("Not run yet.")
        elif part == "diagnosis":
            data = results[part]
            if data.get("crossover"):
                lines += ["Crossover children fitter than the better parent, over whole games "
                          "of BuyOrder(10, population, evaluations) vs Greedy (the thesis "
                          "counted one game); mutation alone beside it.", ""]
                lines += crossover_table(data["crossover"])
            if data.get("diversity"):
                lines += ["", "Share of distinct chromosomes and of distinct expressed "
                          "prefixes (the genes a plan read: the thesis's equivalence "
                          "classes) per generation, averaged over every move of games vs "
                          "Greedy.", ""]
                lines += diversity_table(data["diversity"])
        else:
            lines += match_table(results[part]["rows"])
    if bench:
        lines += ["", *speed_lines(bench)]
    if notes:
        lines += ["", notes.strip()]
    return "\n".join(lines) + "\n"
