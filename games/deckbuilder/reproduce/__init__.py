"""The Leiden thesis experiments on the deck-building model, with exact values where
possible: data.json, README.md and PNG figures.

Exact values come from the DP (no sampling); flat Monte Carlo, the long games beyond the
exact range and the probabilistic end are simulated with the sample sizes and seeds stated
in the README (seeds fixed: flat MC 2026, long games 250, probabilistic end 77). Full sizes
take about 15-25 minutes on 2 busy cores and up to 2 GB for the exact curves to T = 150;
``--size turns=N`` and ``--size expected-turns=N`` shrink a smoke run (the README needs
T >= 100 and is only written then).

The game registers it (``DeckbuilderGame.reproductions``); ``tabletune reproduce deckbuilder``
runs it with the protocol of :mod:`games.reproduction`, and its simulations spread over the
run's worker pool (``settings.pool``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from games.core import Estimate
from games.reproduction import Settings, include_benchmark, read_json, say

FOLDER = "reports/deckbuilder"
SEED: int | None = None
PARTS = ("all",)
SIZES = {"flatmc-games": 100, "long-games": 50_000, "geometric-games": 20_000,
         "turns": 150, "expected-turns": 100}
PARAMS = False
BENCHMARK = True  # benchmarks/deckbuilder.py --json FILE: the Performance section

MC_TURNS = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 31, 40, 50, 60, 70, 80, 90, 100]
LONG_TURNS = [100, 125, 150, 175, 200, 225, 250]
ALPHAS = [1.0, 1 / 2, 1 / 3, 1 / 5, 1 / 10, 1 / 20, 1 / 50, 1 / 100]
SHARE_TURNS = (15, 25, 31)
COST_TURNS = (5, 10, 20, 31, 50, 75, 100)
README_TURNS = 100  # the text quotes exact values up to T = 100


def tuned():
    """The hand-set heuristic rule the report shows (chosen for T = 31)."""
    from games.deckbuilder._strategies import HeuristicParams

    return HeuristicParams(province_left=22, duchy_over_gold_left=11, duchy_left=15,
                           estate_over_silver_left=6, estate_left=9)


def _mc_block(strategy: str, turns: int | None, seed: int, alpha: float | None,
              params: dict | None, start: int, games: int) -> np.ndarray:
    from games.deckbuilder._api import simulate

    return simulate(strategy, turns=turns or 0, games=games, seed=seed, start=start,
                    end_chance=alpha, params=params)


def simulated(pool: Any, strategy: str, turns: int | None, games: int, seed: int,
              alpha: float | None = None, params: dict | None = None) -> Estimate:
    """Mean score over ``games`` seeded games, split over the workers of ``pool`` (the run's
    pool, ``settings.pool``); same result whatever the split: each game has its own seed."""
    from games.blocks import map_blocks

    parts = map_blocks(_mc_block, (strategy, turns, seed, alpha, params), games,
                       pool=pool, block=max(1, -(-games // (pool.jobs * 4))))
    return Estimate.from_samples(np.concatenate(parts))


def exact_curves(tmax: int) -> dict[str, list[float]]:
    """Exact expected score for every T = 0..tmax: one backward sweep per strategy."""
    from games.deckbuilder import DEFAULT, evaluate_random, evaluate_rule, heuristic_rule, solve
    from games.deckbuilder._rules import expensive_rule, greedy_rule, picky_rule

    out = {"optimal": solve(tmax, keep_policy=False).by_turns.tolist(),
           "random": evaluate_random(tmax, all_turns=True).tolist()}
    for name, rule in (("greedy", greedy_rule(DEFAULT)), ("expensive", expensive_rule(DEFAULT)),
                       ("picky", picky_rule(DEFAULT)),
                       ("heuristic", heuristic_rule(tuned(), DEFAULT))):
        out[name] = evaluate_rule(rule, tmax, all_turns=True).tolist()
    return out


def geometric(settings: Settings, simple: list[str]) -> list[dict]:
    """Exact (truncated) and simulated values when each turn ends the game with chance a."""
    from games.deckbuilder._geometric import geometric_values
    from games.deckbuilder._strategies import get_strategy

    strats = [get_strategy(n) for n in ["optimal"] + simple]
    rows = []
    for a in (a for a in ALPHAS if 1 / a <= settings.n("expected-turns") + 1e-9):
        res = geometric_values(strats, a)
        sim = {n: simulated(settings.pool, n, None, settings.n("geometric-games"), 77,
                            alpha=a).to_dict() for n in simple}
        sim["flatmc"] = simulated(settings.pool, "flatmc", None, settings.n("flatmc-games"),
                                  77, alpha=a).to_dict()
        rows.append({"alpha": a, "exact": {s.name: r.value for s, r in zip(strats, res,
                                                                           strict=True)},
                     "error_bound": res[0].error_bound, "truncation": res[0].size,
                     "seconds": res[0].seconds, "sim": sim})
        say(f"  alpha {a:.3f}: optimum {res[0].value:.3f} (+{res[0].error_bound:.2g})")
    return rows


def collect(out_dir: Path, settings: Settings) -> dict:
    """Compute every section's data and draw the figures into ``out_dir``."""
    from games.deckbuilder import DEFAULT, action_shares, solve
    from games.deckbuilder._states import state_space
    from games.deckbuilder._strategies import HeuristicParams
    from games.deckbuilder.reproduce import _figures as figs
    from games.deckbuilder.reproduce.cost import dp_run, fit_power

    n, jobs, tmax, pool = settings.n, settings.jobs, settings.n("turns"), settings.pool
    simple = figs.SIMPLE
    data: dict = {"settings": {"flatmc_games": n("flatmc-games"), "flatmc_rollouts": 100,
                               "long_games": n("long-games"),
                               "geometric_games": n("geometric-games"), "jobs": jobs,
                               "seeds": "flat MC 2026, long games 250, probabilistic end 77"},
                  "card_set_check": DEFAULT.check(),
                  "heuristic_params": ", ".join(
                      f"{k}={v}" for k, v in vars(tuned()).items()
                      if v != getattr(HeuristicParams(), k))}
    t0 = time.perf_counter()
    say(f"exact curves T = 0..{tmax}")
    curves = exact_curves(tmax)
    state_space.cache_clear()  # about 2 GB of hand probabilities at T = 150
    data["exact"] = curves
    say("flat Monte Carlo")
    mc = [(t, simulated(pool, "flatmc", t, n("flatmc-games"), 2026))
          for t in MC_TURNS if t <= tmax]
    data["flatmc"] = {t: e.to_dict() for t, e in mc}
    say("long games by simulation")
    long = {name: [(t, simulated(pool, name, t, n("long-games"), 250))
                   for t in LONG_TURNS] for name in simple}
    data["long"] = {k: {t: e.to_dict() for t, e in v} for k, v in long.items()}
    # where simulation and exact value both exist and disagree by more than 3 standard
    # errors, simulate four times as many games with the same seed (the first games are
    # the same ones), to tell bad luck of one seed set from an error
    data["long_check"] = {}
    for name, rows in long.items():
        for t, e in rows:
            if t < len(curves[name]) and abs(e.mean - curves[name][t]) > 3 * e.stderr:
                big = simulated(pool, name, t, 4 * n("long-games"), 250)
                data["long_check"].setdefault(name, {})[t] = big.to_dict()
    say("action ratios")
    shares = {t: action_shares(solve(t)) for t in SHARE_TURNS if t <= tmax}
    data["action_shares"] = {t: s.tolist() for t, s in shares.items()}
    say("geometric end")
    data["geometric"] = geo = geometric(settings, simple)
    say("DP cost")
    cost = [dp_run(t, True) for t in COST_TURNS if t <= tmax]
    data["dp_cost"] = cost
    fit_pts = [(r["turns"], r["cpu_seconds"]) for r in cost if r["turns"] >= 50]
    a_fit, b_fit = fit_power(fit_pts) if len(fit_pts) >= 2 else (None, None)
    data["dp_fit"] = {"a": a_fit, "exponent": b_fit}
    bench = include_benchmark(out_dir, settings)
    data["benchmark"] = read_json(bench) if bench else None
    figs.fig_scores(curves, mc, out_dir / "scores.png", 100,
                    "Expected final score against game length (exact; flat MC simulated)")
    figs.fig_scores(curves, mc, out_dir / "scores_short.png", 15, "Short games, T = 1..15")
    if shares:
        figs.fig_actions(shares, out_dir / "action_ratios.png")
    if geo:
        figs.fig_geometric(geo, out_dir / "geometric.png")
    if cost:
        figs.fig_cost(cost, out_dir / "dp_cost.png")
    data["seconds"] = time.perf_counter() - t0
    return data


def reproduce(out_dir: Path, settings: Settings) -> list[Path]:
    """Compute everything (or read data.json with ``from_json``, taking in a new
    ``--benchmark``); write data.json, and README.md when the data reach T = 100."""
    from games.deckbuilder.reproduce._readme import readme_text

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    data_path = out_dir / "data.json"
    written = [data_path]
    if settings.from_json:
        data = read_json(data_path)
        bench = include_benchmark(out_dir, settings)
        if bench is not None and data.get("benchmark") != read_json(bench):
            data["benchmark"] = read_json(bench)  # a benchmark run after the report
            data_path.write_text(json.dumps(data, indent=1))
        elif settings.benchmark is None:
            written = []
    else:
        data = collect(out_dir, settings)
        data_path.write_text(json.dumps(data, indent=1, default=str))
        data = json.loads(json.dumps(data, default=str))
        written += sorted(out_dir.glob("*.png"))
    if len(data["exact"]["optimal"]) <= README_TURNS:
        say(f"README not written: its text quotes exact values up to T = {README_TURNS} "
            f"(this run: T <= {len(data['exact']['optimal']) - 1})")
        return written
    (out_dir / "README.md").write_text(readme_text(data))
    return written + [out_dir / "README.md"]
