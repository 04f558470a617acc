"""Benchmark of the deck-building model: exact DP cost against T, simulator throughput.

    python benchmarks/deckbuilder.py                 # T = 31, 50, 100 (+ extrapolation)
    python benchmarks/deckbuilder.py --turns 31 50 100 150 --repeat 3
    python benchmarks/deckbuilder.py --search 600    # grow T while the fit predicts < 600 s
    python benchmarks/deckbuilder.py --json runs/deckbuilder-benchmark.json

Each DP measurement runs in a fresh subprocess (``games.deckbuilder.reproduce.cost``), so
peak memory belongs to that solve alone.
Times are the best of ``--repeat`` runs, because the machine may be shared; CPU seconds (all
threads together) and the load average are printed too, so a figure taken on a busy machine
can be read for what it is.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

from games.deckbuilder.reproduce.cost import dp_run, fit_power
from tuning.reproduce import outside_reports


def best_of(turns: int, keep: bool, repeat: int) -> dict:
    runs = [dp_run(turns, keep) for _ in range(repeat)]
    best = min(runs, key=lambda r: r["seconds"])
    best["peak_mb"] = max(r["peak_mb"] for r in runs)
    best["above_base_mb"] = max(r["above_base_mb"] for r in runs)
    best["cpu_seconds"] = min(r["cpu_seconds"] for r in runs)
    return best


def states_upto(turns: int, dims: int = 4) -> int:
    """Compositions with at most ``turns`` added cards: C(T + d, d)."""
    return math.comb(turns + dims, dims)


def predicted_mb(turns: int) -> float:
    """Memory of a solve without stored policy: per composition 8 B (counts) + 16 B
    (successors) + 56 B (hand tails) + 16 B (two value vectors)."""
    return states_upto(turns) * 96 / 2**20


def simulator(repeat: int) -> dict:
    from games.deckbuilder import simulate

    simulate("picky", turns=250, games=10, seed=0)  # compile / load
    best = math.inf
    cpu = math.inf
    scores = None
    for _ in range(repeat):
        c0 = time.process_time()
        t0 = time.perf_counter()
        scores = simulate("picky", turns=250, games=10_000, seed=1)
        best = min(best, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    return {"games": 10_000, "turns": 250, "seconds": best, "cpu_seconds": cpu,
            "games_per_second": 10_000 / best, "mean_score": float(scores.mean())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, nargs="*", default=[31, 50, 100])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--search", type=float, default=0.0,
                    help="also grow T (no stored policy) while the fit predicts < this many s")
    ap.add_argument("--max-mb", type=float, default=4000.0,
                    help="the search stops before a solve predicted to need more memory")
    ap.add_argument("--json", type=Path, default=None,
                    help="also write results here (under runs/, never reports/: "
                         "`tabletune reproduce deckbuilder --benchmark FILE` takes them in)")
    args = ap.parse_args()
    outside_reports(args.json)

    results: dict = {"dp": [], "dp_no_policy": []}
    import os

    load = os.getloadavg()
    results["machine"] = {"cpus": os.cpu_count(), "load_average": load,
                          "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    print(f"{os.cpu_count()} CPUs, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"{'T':>5} {'policy':>7} {'seconds':>9} {'CPU s':>7} {'peak MB':>9} "
          f"{'above base':>11}  optimum")
    for t in args.turns:
        for keep, key in ((True, "dp"), (False, "dp_no_policy")):
            r = best_of(t, keep, args.repeat)
            results[key].append(r)
            print(f"{t:5d} {str(keep):>7} {r['seconds']:9.3f} {r['cpu_seconds']:7.2f} "
                  f"{r['peak_mb']:9.0f} {r['above_base_mb']:11.0f}  {r['value']:.6f}",
                  flush=True)

    # fitted on CPU seconds: on a shared machine wall time measures the other jobs too
    pts = [(r["turns"], r["cpu_seconds"]) for r in results["dp_no_policy"] if r["turns"] >= 30]
    if len(pts) >= 2:
        a, b = fit_power(pts)
        t10 = int((600.0 / a) ** (1.0 / b))
        results["fit"] = {"a": a, "exponent": b, "predicted_T_in_600s": t10}
        mem_t = max(t for t in range(1, 2000) if predicted_mb(t) <= 20_000)
        results["fit"]["largest_T_in_20GB"] = mem_t
        print(f"fit (no policy): CPU seconds ~ {a:.3g} * T^{b:.2f}; T solvable in 10 minutes "
              f"~ {t10} by time; memory ~ 96 B x C(T+4, 4) = {predicted_mb(t10):,.0f} MB "
              f"there, so memory binds first: T <= {mem_t} fits in 20 GB")
        if args.search > 0:
            t = max(x for x, _ in pts)
            while True:
                t = int(t * 1.25)
                if a * t ** b > args.search or predicted_mb(t) > args.max_mb:
                    break
                r = best_of(t, False, 1)
                results["dp_no_policy"].append(r)
                print(f"{t:5d} {'False':>7} {r['seconds']:9.3f} {r['cpu_seconds']:7.2f} "
                      f"{r['peak_mb']:9.0f} {r['above_base_mb']:11.0f}  {r['value']:.6f}",
                      flush=True)
                pts.append((t, r["cpu_seconds"]))
                a, b = fit_power(pts[-3:])
        # the exponent grows with T (fixed costs fade, work ~ T^5): extrapolate from the
        # largest three solves only
        a, b = fit_power(pts[-3:])
        t10 = int((600.0 / a) ** (1.0 / b))
        big = max(pts)
        results["fit"].update({"a": a, "exponent": b, "predicted_T_in_600s": t10,
                               "predicted_mb_there": predicted_mb(t10)})
        results["largest_measured"] = big[0]
        print(f"largest T solved here: {big[0]} ({big[1]:.1f} CPU s); fit over the largest "
              f"three: CPU seconds ~ {a:.3g} * T^{b:.2f} -> 10 minutes at T ~ {t10}, which "
              f"would need ~{predicted_mb(t10):,.0f} MB (T <= {mem_t} fits in 20 GB)")

    sim = simulator(args.repeat)
    results["simulator"] = sim
    print(f"simulator: 10,000 Picky games of 250 turns in {sim['seconds']:.3f} s "
          f"(CPU {sim['cpu_seconds']:.3f} s) "
          f"({sim['games_per_second']:,.0f} games/s, mean score {sim['mean_score']:.2f}; "
          "thesis: 25 s)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
