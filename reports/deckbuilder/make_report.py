"""Rebuild reports/deckbuilder/: the thesis experiments with exact values where possible.

    python reports/deckbuilder/make_report.py            # about 10-20 minutes on 2 cores
    python reports/deckbuilder/make_report.py --quick    # smaller samples, for a smoke run

Writes README.md, data.json and PNG figures next to this file. Exact values come from the
DP (no sampling); flat Monte Carlo and the long games beyond T = 100 are simulated with the
sample sizes and seeds stated in the README.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from joblib import Parallel, delayed  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from games.core import Estimate  # noqa: E402
from games.deckbuilder import (  # noqa: E402
    DEFAULT,
    action_shares,
    evaluate_random,
    evaluate_rule,
    heuristic_rule,
    simulate,
    solve,
)
from games.deckbuilder.geometric import geometric_values  # noqa: E402
from games.deckbuilder.rules import expensive_rule, greedy_rule, picky_rule  # noqa: E402
from games.deckbuilder.states import state_space  # noqa: E402
from games.deckbuilder.strategies import HeuristicParams, get_strategy  # noqa: E402

TUNED = HeuristicParams(province_left=22, duchy_over_gold_left=11, duchy_left=15,
                        estate_over_silver_left=6, estate_left=9)
SIMPLE = ["random", "greedy", "expensive", "picky"]
COLORS = {"optimal": "black", "random": "tab:gray", "greedy": "tab:red",
          "expensive": "tab:orange", "picky": "tab:blue", "heuristic": "tab:green",
          "flatmc": "tab:purple"}
MC_TURNS = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 31, 40, 50, 60, 70, 80, 90, 100]
LONG_TURNS = [100, 125, 150, 175, 200, 225, 250]
EXACT_TMAX = 150  # one sweep gives every length up to it; 250 would need about 16 GB
ALPHAS = [1.0, 1 / 2, 1 / 3, 1 / 5, 1 / 10, 1 / 20, 1 / 50, 1 / 100]


def _bench():
    spec = importlib.util.spec_from_file_location("bench", ROOT / "benchmarks" / "deckbuilder.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _mc_block(strategy: str, turns: int | None, games: int, seed: int, start: int,
              alpha: float | None, params: dict | None) -> np.ndarray:
    return simulate(strategy, turns=turns or 0, games=games, seed=seed, start=start,
                    end_chance=alpha, params=params)


def simulated(strategy: str, turns: int | None, games: int, seed: int, alpha=None,
              params=None, jobs: int = 2) -> Estimate:
    """Mean score over ``games`` seeded games, split over ``jobs`` processes (same result
    whatever the split: each game has its own seed)."""
    block = max(1, -(-games // (jobs * 4)))
    parts = Parallel(n_jobs=jobs)(
        delayed(_mc_block)(strategy, turns, min(block, games - s), seed, s, alpha, params)
        for s in range(0, games, block))
    return Estimate.from_samples(np.concatenate(parts))


def exact_curves(tmax: int) -> dict[str, list[float]]:
    """Exact expected score for every T = 0..tmax: one backward sweep per strategy."""
    out = {"optimal": solve(tmax, keep_policy=False).by_turns.tolist(),
           "random": evaluate_random(tmax, all_turns=True).tolist()}
    for name, rule in (("greedy", greedy_rule(DEFAULT)), ("expensive", expensive_rule(DEFAULT)),
                       ("picky", picky_rule(DEFAULT)),
                       ("heuristic", heuristic_rule(TUNED, DEFAULT))):
        out[name] = evaluate_rule(rule, tmax, all_turns=True).tolist()
    return out


def crossing(a: list[float], b: list[float], start: int = 1) -> int | None:
    """First T >= start with a[T] < b[T] after a[T-1] >= b[T-1]."""
    for t in range(max(start, 1), len(a)):
        if a[t] < b[t] and a[t - 1] >= b[t - 1]:
            return t
    return None


def fig_scores(curves, mc, path: Path, tmax: int, title: str) -> None:
    fig, ax = plt.subplots(figsize=(8, 5))
    ts = np.arange(tmax + 1)
    for name, ys in curves.items():
        label = "heuristic (tuned at T=31)" if name == "heuristic" else name
        ax.plot(ts[1:], np.asarray(ys)[1:tmax + 1], label=label, color=COLORS[name])
    pts = [(t, e) for t, e in mc if t <= tmax]
    if pts:
        ax.errorbar([t for t, _ in pts], [e.mean for _, e in pts],
                    yerr=[1.96 * e.stderr for _, e in pts], fmt="o", ms=3,
                    color=COLORS["flatmc"], label="flat Monte Carlo (simulated, 95% CI)")
    ax.set_xlabel("game length T (turns)")
    ax.set_ylabel("expected final score")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fig_actions(shares: dict[int, np.ndarray], path: Path) -> None:
    fig, axes = plt.subplots(1, len(shares), figsize=(13, 4), sharey=True)
    for ax, (t, sh) in zip(axes, shares.items(), strict=True):
        x = np.arange(1, t + 1)
        ax.bar(x, sh[:, 1], color="tab:green", label="treasure")
        ax.bar(x, sh[:, 2], bottom=sh[:, 1], color="tab:red", label="victory")
        ax.bar(x, sh[:, 0], bottom=sh[:, 1] + sh[:, 2], color="tab:blue", label="pass")
        ax.set_title(f"DP policy, T = {t}")
        ax.set_xlabel("turn")
    axes[0].set_ylabel("share of games")
    axes[0].legend(loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fig_geometric(rows, path: Path) -> None:
    """Simulated means (no truncation) of the simple strategies and flat MC; the optimum
    exact where its truncation bound is under 1% of the value, else as a lower bound."""
    fig, ax = plt.subplots(figsize=(8, 5))
    inv = np.array([1 / r["alpha"] for r in rows])
    for name in SIMPLE + ["flatmc"]:
        ax.errorbar(inv, [r["sim"][name]["mean"] for r in rows],
                    yerr=[1.96 * r["sim"][name]["stderr"] for r in rows], fmt="o-", ms=3,
                    color=COLORS[name], label=f"{name} (simulated, 95% CI)")
    tight = np.array([r["error_bound"] <= 0.01 * r["exact"]["optimal"] for r in rows])
    opt = np.array([r["exact"]["optimal"] for r in rows])
    ax.plot(inv[tight], opt[tight], "k-", lw=2, label="optimal (exact)")
    if (~tight).any():
        ax.plot(inv[~tight], opt[~tight], "kv", mfc="none",
                label="optimal: lower bound (truncated DP)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("1 / alpha (expected number of turns)")
    ax.set_ylabel("expected final score")
    ax.set_title("Probabilistic end: the game ends after each turn with chance alpha")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fig_cost(rows, path: Path) -> None:
    fig, ax1 = plt.subplots(figsize=(7, 4.5))
    ts = [r["turns"] for r in rows]
    ax1.loglog(ts, [r["seconds"] for r in rows], "o-", label="wall seconds")
    ax1.loglog(ts, [r["cpu_seconds"] for r in rows], "^-", label="CPU seconds")
    ax1.set_xlabel("T")
    ax1.set_ylabel("seconds")
    ax2 = ax1.twinx()
    ax2.plot(ts, [max(r["above_base_mb"], 0.1) for r in rows], "s--", color="tab:red",
             label="peak memory above baseline (MB)")
    ax2.set_yscale("log")
    ax2.set_ylabel("MB")
    ax1.set_title("Exact DP with stored policy: cost against T")
    fig.legend(loc="upper left", bbox_to_anchor=(0.12, 0.88))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="small samples (smoke run)")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    mc_games = 20 if args.quick else 100
    long_games = 500 if args.quick else 50_000
    geo_games = 2000 if args.quick else 20000
    data: dict = {"settings": {"flatmc_games": mc_games, "flatmc_rollouts": 100,
                               "long_games": long_games, "geometric_games": geo_games,
                               "jobs": args.jobs,
                               "seeds": "flat MC 2026, long games 250, probabilistic end 77"},
                  "card_set_check": DEFAULT.check(),
                  "heuristic_params": ", ".join(
                      f"{k}={v}" for k, v in vars(TUNED).items()
                      if v != getattr(HeuristicParams(), k))}
    t0 = time.perf_counter()

    print(f"exact curves T = 0..{EXACT_TMAX}", flush=True)
    curves = exact_curves(EXACT_TMAX)
    state_space.cache_clear()  # about 2 GB of hand probabilities at T = 150
    data["exact"] = curves
    print("flat Monte Carlo", flush=True)
    mc = [(t, simulated("flatmc", t, mc_games, 2026, jobs=args.jobs)) for t in MC_TURNS]
    data["flatmc"] = {t: e.to_dict() for t, e in mc}
    print("long games by simulation", flush=True)
    long = {name: [(t, simulated(name, t, long_games, 250, jobs=args.jobs)) for t in LONG_TURNS]
            for name in SIMPLE}
    data["long"] = {k: {t: e.to_dict() for t, e in v} for k, v in long.items()}
    # where simulation and exact value both exist and disagree by more than 3 standard
    # errors, simulate four times as many games with the same seed (the first games are
    # the same ones), to tell bad luck of one seed set from an error
    data["long_check"] = {}
    for name, rows in long.items():
        for t, e in rows:
            if t < len(curves[name]) and abs(e.mean - curves[name][t]) > 3 * e.stderr:
                big = simulated(name, t, 4 * long_games, 250, jobs=args.jobs)
                data["long_check"].setdefault(name, {})[t] = big.to_dict()

    print("action ratios", flush=True)
    shares = {t: action_shares(solve(t)) for t in (15, 25, 31)}
    data["action_shares"] = {t: s.tolist() for t, s in shares.items()}

    print("geometric end", flush=True)
    strats = [get_strategy(n) for n in ["optimal"] + SIMPLE]
    geo = []
    for a in ALPHAS:
        res = geometric_values(strats, a)
        sim = {n: simulated(n, None, geo_games, 77, alpha=a, jobs=args.jobs).to_dict()
               for n in SIMPLE}
        sim["flatmc"] = simulated("flatmc", None, mc_games, 77, alpha=a,
                                  jobs=args.jobs).to_dict()
        geo.append({"alpha": a, "exact": {s.name: r.value for s, r in zip(strats, res,
                                                                          strict=True)},
                    "error_bound": res[0].error_bound, "truncation": res[0].size,
                    "seconds": res[0].seconds, "sim": sim})
        print(f"  alpha {a:.3f}: optimum {res[0].value:.3f} (+{res[0].error_bound:.2g})",
              flush=True)
    data["geometric"] = geo

    print("DP cost", flush=True)
    bench = _bench()
    cost = [bench.dp_run(t, True) for t in (5, 10, 20, 31, 50, 75, 100)]
    data["dp_cost"] = cost
    fit_pts = [(r["turns"], r["cpu_seconds"]) for r in cost if r["turns"] >= 50]
    a_fit, b_fit = bench.fit_power(fit_pts)
    data["dp_fit"] = {"a": a_fit, "exponent": b_fit}
    bench_json = HERE / "benchmark.json"
    data["benchmark"] = json.loads(bench_json.read_text()) if bench_json.exists() else None

    fig_scores(curves, mc, HERE / "scores.png", 100,
               "Expected final score against game length (exact; flat MC simulated)")
    fig_scores(curves, mc, HERE / "scores_short.png", 15, "Short games, T = 1..15")
    fig_actions(shares, HERE / "action_ratios.png")
    fig_geometric(geo, HERE / "geometric.png")
    fig_cost(cost, HERE / "dp_cost.png")
    data["seconds"] = time.perf_counter() - t0
    (HERE / "data.json").write_text(json.dumps(data, indent=1, default=str))
    spec = importlib.util.spec_from_file_location("readme", HERE / "readme.py")
    readme = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(readme)
    readme.write_readme(HERE / "README.md", json.loads(json.dumps(data, default=str)))
    print(f"done in {data['seconds']:.0f} s", flush=True)


if __name__ == "__main__":
    main()
