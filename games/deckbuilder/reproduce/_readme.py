"""README.md of the deck-building report from its data (``data.json``).

Kept apart from the computation so the text can be rebuilt from ``data.json`` alone (and
the Performance section refreshed from a new ``benchmark.json``):
``tabletune reproduce deckbuilder --from-json [--benchmark FILE]``.
"""

from __future__ import annotations

from games.deckbuilder.reproduce import _tables as tables
from games.deckbuilder.reproduce._tables import ci as _ci
from games.deckbuilder.reproduce._tables import ikeys as _ikeys


def findings(data: dict) -> dict:
    """The numbers behind the thesis comparisons (exact curves, long simulated games)."""
    ex = data["exact"]
    opt, gre, rnd = ex["optimal"], ex["greedy"], ex["random"]
    exp_, pic = ex["expensive"], ex["picky"]
    tmax = len(opt) - 1
    greedy_opt = [t for t in range(1, tmax + 1) if abs(gre[t] - opt[t]) < 1e-9]
    last_equal = 0
    for t in range(1, tmax + 1):
        if abs(gre[t] - opt[t]) >= 1e-9:
            break
        last_equal = t
    picky_ahead = [t for t in range(1, tmax + 1) if pic[t] > exp_[t] + 1e-12]
    exp_ahead = [t for t in range(1, tmax + 1) if exp_[t] > pic[t] + 1e-12]
    overtake = next((t for t in range(2, tmax + 1)
                     if pic[t] > exp_[t] and all(pic[u] > exp_[u] for u in range(t, tmax + 1))),
                    None)
    rnd_exact = next((t for t in range(1, tmax + 1) if rnd[t] > gre[t]), None)
    long = {k: _ikeys(v) for k, v in data["long"].items()}
    rnd_sim = None
    for t in sorted(long["greedy"]):
        g, r = long["greedy"][t], long["random"][t]
        if r["ci95"][0] > g["ci95"][1]:
            rnd_sim = t
            break
    return {"greedy_equals_optimal_upto": last_equal, "greedy_equal_turns": greedy_opt,
            "picky_ahead": picky_ahead, "expensive_ahead": exp_ahead,
            "picky_for_good_from": overtake, "random_beats_greedy_exact": rnd_exact,
            "random_beats_greedy_sim": rnd_sim}


def readme_text(data: dict) -> str:
    """The report's README.md."""
    f = findings(data)
    ex = data["exact"]
    st = data["settings"]
    geo = data["geometric"]
    check = data.get("card_set_check", {})
    crossing = f["picky_for_good_from"]
    lines = [
        "# Deck-building model (Leiden thesis): strategies, exact DP, probabilistic end",
        "",
        "Regenerate (about 15-25 minutes each on 2 busy cores; the benchmark needs about "
        "8 GB free for its largest solve, the report reads its output):",
        "",
        "```",
        "python benchmarks/deckbuilder.py --repeat 2 --search 600 --max-mb 8000 "
        "--json runs/deckbuilder-benchmark.json",
        f"tabletune reproduce deckbuilder --jobs {st.get('jobs', 1)} "
        "--benchmark runs/deckbuilder-benchmark.json",
        "```",
        "",
        "Thesis card set: Copper (money 1, cost 0), Silver (2, 3), Gold (3, 6); Estate "
        "(1 point, cost 2), Duchy (3, 5), Province (6, 8); start 7 Copper + 3 Estate; hands "
        "of 5 drawn from the whole deck; one purchase (or pass) per turn. "
        f"Section 4 checks of this set: reachable {check.get('reachable')}, efficient "
        f"{check.get('efficient')}.",
        "",
        "Everything marked *exact* is an expected value computed by dynamic programming over "
        "(treasure counts, victory-card count, turn) with the hand-money distribution in "
        "closed form: no sampling noise. Simulated numbers give the mean with its 95% "
        "interval; sample sizes and seeds: flat Monte Carlo "
        f"{st['flatmc_games']} games per point with {st['flatmc_rollouts']} rollouts per "
        f"action (as in the thesis); long games {st['long_games']:,} games per point; "
        f"probabilistic end {st['geometric_games']:,} games per point; seeds "
        f"{st['seeds']}.",
        "",
        "## Thesis findings against our numbers",
        "",
        "| thesis | ours | verdict |",
        "|---|---|---|",
        "| DP is best everywhere | exact optimum >= every strategy at every T = "
        f"1..{len(ex['optimal']) - 1} "
        f"(e.g. T = 31: {ex['optimal'][31]:.3f}) | agrees (by construction) |",
        f"| Greedy matches DP for very short games (up to 4 turns) | Greedy = optimum exactly "
        f"for T <= {f['greedy_equals_optimal_upto']}; below it by "
        f"{1 - ex['greedy'][3] / ex['optimal'][3]:.1%} at T = 3, "
        f"{1 - ex['greedy'][4] / ex['optimal'][4]:.1%} at T = 4, "
        f"{1 - ex['greedy'][5] / ex['optimal'][5]:.1%} at T = 5 | "
        + ("agrees" if f["greedy_equals_optimal_upto"] >= 4 else
           "partly: exact up to T = 2 only; a gap of a few percent at T = 3-4 is within "
           "the noise of 100 simulated games (thesis Figure 4)") + " |",
        f"| Expensive beats Picky for short games, Picky wins beyond ~15 turns | Expensive "
        f"ahead at T in {_ranges(f['expensive_ahead'])}; Picky ahead at "
        f"{_ranges(f['picky_ahead'])}; Picky stays ahead from T = {crossing} "
        f"(T = 15: Expensive {ex['expensive'][15]:.3f}, Picky {ex['picky'][15]:.3f}) | "
        f"{_verdict_cross(crossing)} |",
        "| Greedy falls behind Random for very long games (150+ turns) | "
        + _greedy_random(f, data) + " |",
        _flatmc_row(data),
        f"| Probabilistic end: Random and Greedy clearly worse than the rest | simulated, "
        f"alpha = {geo[-1]['alpha']:.2g}: Random {_ci(geo[-1]['sim']['random'], 1)}, Greedy "
        f"{_ci(geo[-1]['sim']['greedy'], 1)}, Expensive "
        f"{_ci(geo[-1]['sim']['expensive'], 1)}, Picky {_ci(geo[-1]['sim']['picky'], 1)} "
        "| agrees |",
        _cost_row(data),
        "",
        "## Mean score against game length",
        "",
        "![scores](scores.png)",
        "",
        "![short games](scores_short.png)",
        "",
        "The figures show T = 1..100 (and 1..15); the table goes on to "
        f"T = {len(ex['optimal']) - 1}. "
        "Exact expected final score (best non-optimal strategy in bold). *heuristic* is the "
        "tunable buy rule at a hand-set point (" + data.get("heuristic_params", "") + "), "
        "chosen for T = 31, where it reaches "
        f"{ex['heuristic'][31] / ex['optimal'][31]:.2%} of the optimum.",
        "",
        *tables.score_table(data),
        "",
        "## Long games: Greedy against Random",
        "",
        f"Exact values reach T = {len(ex['optimal']) - 1} here (one backward sweep gives "
        "every game length up to it; a sweep to T = 250 would need C(254, 4) = 170 million "
        "compositions, about 16 GB); beyond, only simulation. All four simple strategies "
        f"are simulated, {st['long_games']:,} games per point, so the two can be compared "
        "where both exist.",
        "",
        *tables.long_table(data),
        "",
        *tables.long_check(data),
        "## Action ratios of the optimal policy (T = 15, 25, 31)",
        "",
        "Exact shares: the probability that the optimal player passes, buys a treasure or "
        "buys a victory card at each turn (state distribution pushed forward through the "
        "stored policy, no sampling).",
        "",
        "![action ratios](action_ratios.png)",
        "",
        *tables.actions_table(data),
        "",
        "As in the thesis, the three lengths look alike, victory cards start later in longer "
        "games, and passing is optimal in some states at most turns (hands too poor for "
        "anything useful late, or an Estate that would only dilute the deck).",
        "",
        "## Probabilistic end, alpha = 1 .. 1/100",
        "",
        "After every turn the game ends with chance alpha (at least one purchase is made; "
        "1/alpha purchases on average). Values are exact for the game truncated at S added "
        "cards (no value beyond) and are lower bounds; the true value lies within the "
        "stated bound above them (p_max (1-alpha)^S / alpha, p_max = 6). Where the bound "
        "exceeds 1% of the value the cells read '>=': the truncated state space grows as "
        "S^4, so small alpha is costly; the simulated table below shows where the truth "
        "lies for the simple strategies.",
        "",
        "![probabilistic end](geometric.png)",
        "",
        *tables.geo_table(data),
        "",
        "Simulated, without truncation (each game capped at 100,000 turns), "
        f"{st['geometric_games']:,} games per point ({st['flatmc_games']} for flat MC):",
        "",
        *tables.geo_sim_table(data),
        "",
        "The optimum is at least the best simulated strategy, so at alpha = 1/100 it lies "
        "well above its truncated lower bound; an exact value there needs S of several "
        "hundred added cards (C(S+4, 4) compositions), out of reach of this machine's time "
        "budget for a report.",
        "",
        "## Cost of the DP against T",
        "",
        "One solve with the policy stored, each in a fresh process (peak RSS includes the "
        "interpreter and numba, about 160 MB).",
        "",
        "![DP cost](dp_cost.png)",
        "",
        *tables.cost_table(data),
        "",
        f"Power fit over T >= 50: CPU seconds ~ {data['dp_fit']['a']:.3g} * "
        f"T^{data['dp_fit']['exponent']:.2f}. Work per solve is the number of "
        "(composition, turn) pairs, C(T+5, 5) ~ T^5/120; memory is C(T+4, 4) compositions "
        "(plus the stored policy, one byte per composition, turn and money bucket).",
        "",
        "## Performance (benchmarks/deckbuilder.py)",
        "",
        *tables.bench_lines(data),
        "",
        f"Report computed in {data['seconds']:.0f} s.",
        "",
    ]
    return "\n".join(lines)


def _flatmc_row(data: dict) -> str:
    ex = data["exact"]
    mc = _ikeys(data["flatmc"])
    parts, inside = [], 0
    for t in (31, 100):
        e = mc[t]
        parts.append(f"T = {t}: flat MC {_ci(e, 1)}, Picky {ex['picky'][t]:.1f}, Random "
                     f"{ex['random'][t]:.1f}")
        inside += e["ci95"][0] <= ex["picky"][t] <= e["ci95"][1]
    verdict = ("agrees" if inside == 2 else
               "partly: far above Random; Picky lies outside its interval at "
               f"{2 - inside} of these two lengths")
    return ("| Flat MC (their MCTS) far better than Random, on par with Picky | "
            + "; ".join(parts) + f" | {verdict} |")


def _cost_row(data: dict) -> str:
    b = data.get("benchmark")
    text = "| DP needs 16 GB at T = 31, time O(T^6); a later solver took ~20 s at T = 30 | "
    if not b:
        return text + "see *Cost of the DP* | - |"
    rows = {(r["turns"], r["keep_policy"]): r for r in b["dp"] + b["dp_no_policy"]}
    r31, r100 = rows.get((31, True)), rows.get((100, True))
    if not (r31 and r100):
        return text + "see *Performance* | - |"
    return (text + f"T = 31 in {r31['seconds']:.2f} s ({r31['peak_mb']:.0f} MB peak, "
            f"process included); T = 100 in {r100['seconds']:.1f} s wall, "
            f"{r100['cpu_seconds']:.1f} s CPU, {r100['peak_mb']:.0f} MB peak; time grows "
            "about as T^5 (work C(T+5, 5)) | far cheaper: the state is a composition "
            "(C(T+4, 4) of them), not a deck and hand |")


def _ranges(ts: list[int]) -> str:
    if not ts:
        return "none"
    out, lo, prev = [], ts[0], ts[0]
    for t in ts[1:] + [None]:
        if t is not None and t == prev + 1:
            prev = t
            continue
        out.append(f"{lo}" if lo == prev else f"{lo}-{prev}")
        if t is not None:
            lo = prev = t
    return ", ".join(out)


def _verdict_cross(t: int | None) -> str:
    if t is None:
        return "differs: Picky never takes over for good"
    if 10 <= t <= 20:
        return f"agrees (crossing at {t})"
    return f"partly: crossing at {t}, not ~15"


def _greedy_random(f: dict, data: dict) -> str:
    ex = data["exact"]
    if f["random_beats_greedy_exact"] is not None:
        t = f["random_beats_greedy_exact"]
        long = {k: _ikeys(v) for k, v in data["long"].items()}
        last = max(long["greedy"])
        gap = long["random"][last]["mean"] - long["greedy"][last]["mean"]
        return (f"exact: Random ahead of Greedy from T = {t} on (T = {t}: Random "
                f"{ex['random'][t]:.3f}, Greedy {ex['greedy'][t]:.3f}; T = 100: "
                f"{ex['random'][100]:.2f} vs {ex['greedy'][100]:.2f}); simulated, the gap "
                f"grows to {gap:.1f} points at T = {last} | agrees on the effect, not on "
                "where it starts: the curves meet at a shallow angle, so 100-game means (the "
                "thesis's sample) cannot place the crossing; a later crossing in the thesis "
                "may also come from a detail of its Random (which actions it draws from) "
                "that the text does not pin down")
    t = f["random_beats_greedy_sim"]
    long = {k: _ikeys(v) for k, v in data["long"].items()}
    if t is None:
        last = max(long["greedy"])
        return (f"Greedy still ahead at T = {last}: Greedy {_ci(long['greedy'][last], 1)}, "
                f"Random {_ci(long['random'][last], 1)} (simulated) | differs |")
    return (f"T = 100 exact: Greedy {ex['greedy'][100]:.2f}, Random {ex['random'][100]:.2f}; "
            f"simulated, Random is ahead (intervals apart) from T = {t}: Greedy "
            f"{_ci(long['greedy'][t], 1)}, Random {_ci(long['random'][t], 1)} | agrees |")
