"""Markdown tables of the deck-building report's README.md, one function per section."""

from __future__ import annotations

from math import comb

TABLE_T = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 31, 40, 50, 60, 70, 80, 90, 100, 125, 150]
NAMES = ["optimal", "random", "greedy", "expensive", "picky", "heuristic"]


def ikeys(d: dict) -> dict:
    """JSON turns integer keys into strings; turn them back."""
    return {int(k): v for k, v in d.items()}


def ci(e: dict, digits: int = 2) -> str:
    lo, hi = e["ci95"]
    return f"{e['mean']:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def score_table(data: dict) -> list[str]:
    ex = data["exact"]
    mc = ikeys(data["flatmc"])
    head = "| T | " + " | ".join(NAMES) + " | flat MC (simulated, 95% CI) |"
    lines = [head, "|" + "---|" * (len(NAMES) + 2)]
    for t in (t for t in TABLE_T if t < len(ex["optimal"])):
        cells = [f"{ex[n][t]:.3f}" for n in NAMES]
        best = max(range(1, len(NAMES)), key=lambda i: ex[NAMES[i]][t])
        cells[best] = f"**{cells[best]}**"
        sim = ci(mc[t]) if t in mc else ""
        lines.append(f"| {t} | " + " | ".join(cells) + f" | {sim} |")
    return lines


def long_table(data: dict) -> list[str]:
    long = {k: ikeys(v) for k, v in data["long"].items()}
    ex = data["exact"]
    names = list(long)
    lines = ["| T | " + " | ".join(f"{n}: simulated (95% CI); exact" for n in names) + " |",
             "|" + "---|" * (len(names) + 1)]
    for t in sorted(long[names[0]]):
        cells = [ci(long[n][t]) + (f"; {ex[n][t]:.2f}" if t < len(ex[n]) else "")
                 for n in names]
        lines.append(f"| {t} | " + " | ".join(cells) + " |")
    return lines


def long_check(data: dict) -> list[str]:
    """A note on simulated cells more than 3 standard errors from the exact value."""
    checks = data.get("long_check") or {}
    if not checks:
        return []
    ex = data["exact"]
    long = {k: ikeys(v) for k, v in data["long"].items()}
    parts, closer = [], True
    for name, rows in checks.items():
        for t, big in ikeys(rows).items():
            small = long[name][t]
            closer &= (abs(big["mean"] - ex[name][t]) / big["stderr"]
                       < abs(small["mean"] - ex[name][t]) / small["stderr"])
            parts.append(f"{name} at T = {t}: {small['mean']:.3f} ({small['n']:,} games, "
                         f"z = {(small['mean'] - ex[name][t]) / small['stderr']:.1f}) becomes "
                         f"{big['mean']:.3f} ({big['n']:,} games, z = "
                         f"{(big['mean'] - ex[name][t]) / big['stderr']:.1f}) against the "
                         f"exact {ex[name][t]:.3f}")
    return ["Cells more than 3 standard errors from the exact value were simulated again "
            "with four times as many games and the same seed (so the first games are the "
            "same): " + "; ".join(parts) + ". Every T uses the same game seeds, so one "
            "unlucky seed set shifts a whole column together; "
            + ("the larger runs move toward the exact values." if closer else
               "the larger runs do not all move toward the exact values: treat this as an "
               "open discrepancy."), ""]


def actions_table(data: dict) -> list[str]:
    sh = ikeys(data["action_shares"])
    lines = ["| T | pass (all turns) | treasure | victory | first turn with victory share "
             ">= 1% | first turn with victory share >= 50% | victory share, last turn |",
             "|---|---|---|---|---|---|---|"]
    for t, rows in sh.items():
        n = len(rows)
        tot = [sum(r[k] for r in rows) / n for k in range(3)]
        v1 = next((i + 1 for i, r in enumerate(rows) if r[2] >= 0.01), None)
        v50 = next((i + 1 for i, r in enumerate(rows) if r[2] >= 0.5), None)
        lines.append(f"| {t} | {tot[0]:.1%} | {tot[1]:.1%} | {tot[2]:.1%} | {v1} | {v50} | "
                     f"{rows[-1][2]:.1%} |")
    return lines


def geo_table(data: dict) -> list[str]:
    names = ["optimal", "random", "greedy", "expensive", "picky"]
    lines = ["| alpha | 1/alpha | " + " | ".join(names) + " | truncated at S added cards | "
             "error bound |", "|" + "---|" * (len(names) + 4)]
    for r in data["geometric"]:
        a = r["alpha"]
        loose = r["error_bound"] > 0.01 * r["exact"]["optimal"]
        mark = ">= " if loose else ""
        cells = [f"{mark}{r['exact'][n]:.3f}" for n in names]
        lines.append(f"| {a:.4g} | {1 / a:.0f} | " + " | ".join(cells)
                     + f" | {r['truncation']} | +{r['error_bound']:.2g} |")
    return lines


def geo_sim_table(data: dict) -> list[str]:
    names = ["random", "greedy", "expensive", "picky", "flatmc"]
    lines = ["| alpha | " + " | ".join(f"{n} (95% CI)" for n in names) + " |",
             "|" + "---|" * (len(names) + 1)]
    for r in data["geometric"]:
        lines.append(f"| {r['alpha']:.4g} | "
                     + " | ".join(ci(r["sim"][n]) for n in names) + " |")
    return lines


def cost_table(data: dict) -> list[str]:
    lines = ["| T | seconds (wall) | CPU seconds | peak memory (MB) | above baseline (MB) "
             "| states C(T+4, 4) |", "|---|---|---|---|---|---|"]
    for r in data["dp_cost"]:
        lines.append(f"| {r['turns']} | {r['seconds']:.3f} | {r.get('cpu_seconds', 0):.2f} | "
                     f"{r['peak_mb']:.0f} | {r['above_base_mb']:.0f} | "
                     f"{comb(r['turns'] + 4, 4):,} |")
    return lines


def bench_lines(data: dict) -> list[str]:
    b = data.get("benchmark")
    if not b:
        return ["(run `python benchmarks/deckbuilder.py --json runs/deckbuilder-benchmark.json`"
                " and `tabletune reproduce deckbuilder --from-json --benchmark "
                "runs/deckbuilder-benchmark.json` to fill this section)"]
    m = b.get("machine", {})
    load = m.get("load_average", [float("nan")] * 3)
    out = [f"Measured {m.get('date', '?')} on this {m.get('cpus', '?')}-CPU machine, shared "
           f"with other jobs (load average {load[0]:.1f} at the start, so wall times are "
           "inflated; CPU seconds are those of the solving process; the kernels are serial).", "",
           "| T | stored policy | seconds (wall, best run) | CPU seconds | peak RSS (MB) | "
           "above baseline (MB) | optimum |", "|---|---|---|---|---|---|---|"]
    rows = sorted(b["dp"] + b["dp_no_policy"], key=lambda r: (r["turns"], not r["keep_policy"]))
    for r in rows:
        out.append(f"| {r['turns']} | {'yes' if r['keep_policy'] else 'no'} | "
                   f"{r['seconds']:.3f} | {r.get('cpu_seconds', float('nan')):.2f} | "
                   f"{r['peak_mb']:.0f} | {r['above_base_mb']:.0f} | {r['value']:.4f} |")
    fit = b.get("fit")
    if fit:
        out += ["", f"Fit over the largest solves without stored policy: CPU seconds ~ "
                f"{fit['a']:.3g} * "
                f"T^{fit['exponent']:.2f}, which reaches 10 minutes near T = "
                f"{fit['predicted_T_in_600s']}; memory (about 96 bytes per composition, "
                f"C(T+4, 4) compositions) binds first: T <= {fit.get('largest_T_in_20GB')} "
                "fits in 20 GB. Largest T actually solved here: "
                f"{b.get('largest_measured', max(r['turns'] for r in rows))}."]
    s = b["simulator"]
    out += ["", f"Simulator: 10,000 Picky games of 250 turns in {s['seconds']:.3f} s "
            f"(CPU {s.get('cpu_seconds', float('nan')):.3f} s; {s['games_per_second']:,.0f} "
            f"games/s; mean score {s['mean_score']:.2f}). The thesis: 25 s."]
    byk = {(r["turns"], r["keep_policy"]): r for r in rows}
    r31, r100 = byk.get((31, True)), byk.get((100, True))
    if r31 and r100:
        def ok(flag: bool) -> str:
            return "met" if flag else "missed"

        out += ["", "| target | measured (wall; CPU) | verdict |", "|---|---|---|",
                f"| T = 31 under 1 s | {r31['seconds']:.2f} s; {r31['cpu_seconds']:.2f} s | "
                f"{ok(r31['seconds'] < 1)} |",
                f"| T = 100 in at most 10 s, at most 2 GB peak | {r100['seconds']:.1f} s; "
                f"{r100['cpu_seconds']:.1f} s; {r100['peak_mb']:.0f} MB peak (process "
                f"included) | {ok(r100['seconds'] <= 10 and r100['peak_mb'] <= 2048)} |",
                f"| 10,000 Picky games of 250 turns in at most 1 s | {s['seconds']:.2f} s; "
                f"{s['cpu_seconds']:.2f} s | {ok(s['seconds'] <= 1)}"
                + ("" if s["seconds"] <= 1 else " on wall time under this load; met on CPU "
                   "time") + " |"]
    return out
