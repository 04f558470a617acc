"""Which optimiser finds the best player with the fewest games: random search, TPE, CMA-ES,
Optuna's other samplers (NTBEA, the Gaussian process) where this install has them, and a
DEAP genetic algorithm over the same parameters, each given the same budget of games, on
three tuning problems (reports/optimisers/).

    python benchmarks/optimiser_comparison.py                              # the overnight run
    python benchmarks/optimiser_comparison.py --repeats 3 --problems dominion-heuristic
    python benchmarks/optimiser_comparison.py --backend dask --address tcp://HOST:8786
    python benchmarks/optimiser_comparison.py --summary                    # tables only

Problems (the published studies, each with a smaller budget so that 30 repeats of every
optimiser fit a night on 2 cores): the Dominion heuristic against Smithy Big Money
(dominion-heuristic), Splendor's Greedy coefficients against Greedy (splendor-heuristic),
The Game's d = 0 penalty weights (thegame-penalty-d0). A repeat r of every optimiser plays
the same seeds (root seed + r): the same games per candidate, no pruner, no start from the
defaults. Each repeat's recommended point (the best candidate by its search value) and its
incumbents at a quarter and half of the budget are confirmed on one common fresh seed set.
Repeats are stored one file each (repeats/PROBLEM/OPTIMISER/rNN.json, committed with the
report); an Optuna repeat keeps its journal under runs/ while it runs, so a stopped repeat
resumes; a rerun skips what is done.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.core import InputError  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "reports" / "optimisers"
#: per problem: trials (candidates) per repeat and games per candidate
PROBLEMS: dict[str, tuple[int, int]] = {"dominion-heuristic": (120, 2000),
                                        "splendor-heuristic": (60, 600),
                                        "thegame-penalty-d0": (40, 1000)}
OPTIMISERS = ("random", "tpe", "cmaes", "ntbea", "gp", "deap-ga")
CHECKPOINTS = (0.25, 0.5, 1.0)
#: values of each float parameter on NTBEA's grid (ends included)
NTBEA_GRID = 11
#: the published studies each problem speaks for: the same game, strategy and parameters
#: (other studies keep TPE: no comparison measured their kind of space)
STUDIES: dict[str, tuple[str, ...]] = {
    "dominion-heuristic": ("dominion-heuristic", "dominion-attack-heuristic"),
    "splendor-heuristic": ("splendor-heuristic",),
    "thegame-penalty-d0": ("thegame-penalty-d0", "thegame-penalty-d2")}
#: the samplers a published study may name: Optuna samplers that need no optional extra
#: (GP needs PyTorch, the gp extra; the GA is not a sampler)
PLAIN_SAMPLERS = ("tpe", "cmaes", "random", "ntbea")
#: the incumbent default, changed only on evidence: a one-sided Mann-Whitney test at this
#: level that the challenger's confirmed values are higher
INCUMBENT, LEVEL = "tpe", 0.05


def problem_spec(name: str, optimiser: str, repeat: int, args: argparse.Namespace) -> Any:
    """The published study with the comparison's budget, seeds and sampler."""
    from tuning._spec import load_spec

    trials, games = PROBLEMS[name]
    spec = load_spec(name).with_overrides(trials=trials, jobs=args.jobs,
                                          seed=args.seed + repeat, backend=args.backend,
                                          address=args.address)
    ev = dataclasses.replace(spec.evaluation, games=games, block=max(100, games // 4))
    op = dataclasses.replace(spec.optuna, sampler="random" if optimiser == "deap-ga"
                             else optimiser, pruner="none", start_from_defaults=False,
                             enqueue=(), n_startup_trials=min(10, trials // 4))
    space = spec.space
    if optimiser == "ntbea":  # NTBEA searches a grid: 11 values of each float with no step
        space = {n: p if p.type != "float" or p.step is not None or p.grid is not None
                 else dataclasses.replace(p, grid=NTBEA_GRID) for n, p in space.items()}
    return spec.replace(evaluation=ev, optuna=op, space=space,
                        name=f"{name}-{optimiser}-r{repeat}")


def run_optuna(spec: Any, where: Path, pool: Any
               ) -> tuple[list[tuple[dict, float]], list[dict] | None]:
    """(params, search value) of each trial in order, from a study on its own journal; for
    NTBEA also its model's recommendation after each checkpoint's share of the trials (it
    plays points again and again: its answer is the model's, not one lucky trial)."""
    from optuna.trial import TrialState

    from tuning.study._runner import run_study

    summary = run_study(spec, str(where.with_suffix(".journal")), reevaluate_best=False,
                        pool=pool)
    del summary
    from tuning.study._opening import load_study

    study = load_study(spec, str(where.with_suffix(".journal"))).study
    done = [t for t in study.get_trials(deepcopy=False) if t.state == TrialState.COMPLETE]
    history = [(dict(t.params), float(t.value)) for t in done]
    if spec.optuna.sampler != "ntbea":
        return history, None
    from tuning.study._ntbea import NTBEASampler
    from tuning.study._samplers import ntbea_space

    space, grids = ntbea_space(spec)
    model = NTBEASampler(space, spec.optuna.ntbea, grids=grids)
    return history, [model.recommend(study, done[:max(1, int(round(share * len(done))))])
                     for share in CHECKPOINTS]


def run_ga(spec: Any, seed: int, pool: Any) -> list[tuple[dict, float]]:
    """A DEAP genetic algorithm over the study's parameters with the same budget: a
    population of 8, tournament selection, blend crossover and bounded polynomial mutation on
    the unit cube the parameters map onto (integers and categoricals rounded), elitist."""
    from deap import tools

    from tuning.evaluation import candidate_bot, evaluate_many

    space = list(spec.space.values())
    trials, rng = spec.optuna.trials, random.Random(seed)

    def decode(x: list[float]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for p, u in zip(space, x, strict=True):
            u = min(1.0, max(0.0, u))
            if p.type == "categorical":
                choices = list(p.choices or ())
                out[p.name] = choices[min(len(choices) - 1, int(u * len(choices)))]
            elif p.log and p.low > 0:
                v = float(np.exp(np.log(p.low) + u * (np.log(p.high) - np.log(p.low))))
                out[p.name] = int(round(v)) if p.type == "int" else v
            else:
                v = p.low + u * (p.high - p.low)
                out[p.name] = int(round(v)) if p.type == "int" else float(v)
        return out

    def score(xs: list[list[float]]) -> list[float]:
        bots = [candidate_bot({"strategy": spec.strategy, "params": decode(x)}) for x in xs]
        evals = evaluate_many(spec.scorer(), bots, games=spec.evaluation.games,
                              block=spec.evaluation.block, seed=spec.evaluation.seed,
                              pool=pool)
        sign = 1.0 if spec.direction == "maximize" else -1.0
        return [sign * e.mean for e in evals]

    history: list[tuple[dict, float]] = []
    size = 8
    pop = [[rng.random() for _ in space] for _ in range(size)]
    fit = score(pop)
    history += [(decode(x), f) for x, f in zip(pop, fit, strict=True)]
    while len(history) < trials:
        n = min(size, trials - len(history))
        parents = [pop[max(rng.sample(range(size), 3), key=lambda i: fit[i])]
                   for _ in range(n + n % 2)]
        kids = []
        for a, b in zip(parents[::2], parents[1::2], strict=True):
            a, b = list(a), list(b)
            if rng.random() < 0.7:
                tools.cxBlend(a, b, 0.3)
            kids += [a, b]
        for k in kids:
            tools.mutPolynomialBounded(k, eta=20.0, low=0.0, up=1.0, indpb=1.0 / len(space))
        kids = [[min(1.0, max(0.0, u)) for u in k] for k in kids[:n]]
        kfit = score(kids)
        history += [(decode(x), f) for x, f in zip(kids, kfit, strict=True)]
        ranked = sorted(zip(pop + kids, fit + kfit, strict=True), key=lambda t: -t[1])[:size]
        pop, fit = [p for p, _ in ranked], [f for _, f in ranked]
    sign = 1.0 if spec.direction == "maximize" else -1.0
    return [(p, sign * f) for p, f in history]


def confirm(spec: Any, params: list[dict], games: int, seed: int, pool: Any) -> list[float]:
    """Each parameter set's value on the common fresh seed set."""
    from tuning.evaluation import candidate_bot, evaluate_many

    bots = [candidate_bot({"strategy": spec.strategy, "params": p}) for p in params]
    return [e.mean for e in evaluate_many(spec.scorer(), bots, games=games,
                                          block=max(500, games // 8), seed=seed, pool=pool)]


def available(optimiser: str, args: argparse.Namespace) -> str | None:
    """None when this install can run the optimiser, else why not (the sampler as the
    study layer builds it: an unknown name or a missing package says so)."""
    if optimiser == "deap-ga":
        return None
    from tuning.study._samplers import make_sampler

    try:
        make_sampler(problem_spec(args.problems[0], optimiser, 0, args))
    except InputError as exc:
        return str(exc)
    except KeyError:
        return f"no {optimiser} sampler in this version"
    return None


def repeat_file(out: Path, name: str, optimiser: str, repeat: int) -> Path:
    """Where a finished repeat's row is kept (committed with the report: the summary is
    rebuilt from these files alone, ``--summary``)."""
    return out / "repeats" / name / optimiser / f"r{repeat:02d}.json"


def run_repeat(name: str, optimiser: str, repeat: int, args: argparse.Namespace,
               pool: Any) -> dict[str, Any]:
    done = repeat_file(args.out, name, optimiser, repeat)
    if done.exists():
        return json.loads(done.read_text())
    where = args.out / "runs" / name / optimiser / f"r{repeat:02d}"  # a journal while it runs
    where.parent.mkdir(parents=True, exist_ok=True)
    done.parent.mkdir(parents=True, exist_ok=True)
    spec = problem_spec(name, optimiser, repeat, args)
    t0 = time.monotonic()
    history, recommended = ((run_ga(spec, args.seed + repeat, pool), None)
                            if optimiser == "deap-ga" else run_optuna(spec, where, pool))
    sign = 1.0 if spec.direction == "maximize" else -1.0
    incumbents = []
    for i, share in enumerate(CHECKPOINTS):
        upto = history[:max(1, int(round(share * len(history))))]
        incumbents.append(recommended[i] if recommended is not None
                          else max(upto, key=lambda t: sign * t[1])[0])
    from tuning.evaluation._evaluator import derived_seed
    values = confirm(spec, incumbents, args.confirm_games,
                     derived_seed(args.seed, f"compare-confirm:{name}"), pool)
    games = PROBLEMS[name][1]
    row = {"problem": name, "optimiser": optimiser, "repeat": repeat,
           "games_per_candidate": games, "trials": len(history),
           "search": [v for _, v in history],
           "checkpoints": [{"share": s, "games": int(round(s * len(history))) * games,
                            "params": p, "confirmed": v}
                           for s, p, v in zip(CHECKPOINTS, incumbents, values, strict=True)],
           "confirmed": values[-1], "recommended": incumbents[-1],
           "seconds": time.monotonic() - t0}
    done.write_text(json.dumps(row, indent=1, default=str) + "\n")
    where.with_suffix(".journal").unlink(missing_ok=True)  # the row holds what is needed
    return row


def table(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per problem and optimiser: median and IQR of the confirmed value, and the games to
    reach 95% and 99% of the best value any repeat confirmed (median over repeats with a
    bootstrap interval; repeats that never reach it counted apart)."""
    out: dict[str, Any] = {}
    rng = np.random.default_rng(0)
    for name in sorted({r["problem"] for r in rows}):
        mine = [r for r in rows if r["problem"] == name]
        best = max(c["confirmed"] for r in mine for c in r["checkpoints"])
        out[name] = {"best_confirmed": best, "optimisers": {}}
        for opt in OPTIMISERS:
            runs = [r for r in mine if r["optimiser"] == opt]
            if not runs:
                continue
            conf = np.array([r["confirmed"] for r in runs])
            entry = {"repeats": len(runs), "median": float(np.median(conf)),
                     "iqr": [float(np.percentile(conf, 25)), float(np.percentile(conf, 75))]}
            for level in (0.95, 0.99):
                reach = [next((c["games"] for c in r["checkpoints"]
                               if c["confirmed"] >= level * best), None) for r in runs]
                got = np.array([g for g in reach if g is not None], dtype=float)
                med = float(np.median(got)) if len(got) else None
                if len(got) >= 2:
                    boot = [np.median(rng.choice(got, len(got))) for _ in range(1000)]
                    ci = [float(np.percentile(boot, 2.5)), float(np.percentile(boot, 97.5))]
                else:
                    ci = None
                entry[f"games_to_{int(level * 100)}"] = {
                    "median": med, "ci": ci, "not_reached": sum(g is None for g in reach)}
            out[name]["optimisers"][opt] = entry
    return out


def p_greater(a: list[float], b: list[float]) -> float:
    """One-sided Mann-Whitney U p-value that ``a``'s values are higher than ``b``'s."""
    from scipy.stats import mannwhitneyu

    return float(mannwhitneyu(a, b, alternative="greater").pvalue)


def choose_sampler(values: dict[str, list[float]]) -> dict[str, Any]:
    """The default sampler one problem's repeats support: the plain sampler with the highest
    median confirmed value, if it beats the incumbent (TPE) beyond noise (one-sided
    Mann-Whitney U, p < LEVEL); else the incumbent. The test's p-value is returned too."""
    plain = {o: v for o, v in values.items() if o in PLAIN_SAMPLERS and v}
    if INCUMBENT not in plain:
        return {"sampler": INCUMBENT, "challenger": None, "p_value": None,
                "why": "no repeats of the incumbent"}
    challenger = max(plain, key=lambda o: (float(np.median(plain[o])), o == INCUMBENT))
    if challenger == INCUMBENT:
        return {"sampler": INCUMBENT, "challenger": None, "p_value": None,
                "why": f"{INCUMBENT} has the highest median"}
    p = p_greater(plain[challenger], plain[INCUMBENT])
    better = p < LEVEL
    return {"sampler": challenger if better else INCUMBENT, "challenger": challenger,
            "p_value": p,
            "why": (f"{challenger}'s median is higher and the difference is beyond noise "
                    f"(p = {p:.3f})") if better else
                   (f"{challenger}'s median is higher, but not beyond noise (p = {p:.3f} "
                    f">= {LEVEL}): {INCUMBENT} stays")}


def defaults(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per problem: the sampler its published studies should name (:func:`choose_sampler`)
    and the studies it speaks for."""
    out: dict[str, Any] = {}
    for name in sorted({r["problem"] for r in rows}):
        values = {opt: [r["confirmed"] for r in rows
                        if r["problem"] == name and r["optimiser"] == opt]
                  for opt in OPTIMISERS}
        out[name] = {**choose_sampler(values), "studies": list(STUDIES.get(name, ()))}
        if values.get("gp") and values.get(INCUMBENT):  # what the gp extra would buy
            out[name]["gp_over_incumbent"] = {
                "median_gain": float(np.median(values["gp"]) - np.median(values[INCUMBENT])),
                "p_value": p_greater(values["gp"], values[INCUMBENT])}
    return out


def write_report(out: Path, rows: list[dict[str, Any]], args: argparse.Namespace,
                 skipped: dict[str, str]) -> None:
    summary = table(rows)
    chosen = defaults(rows)
    (out / "summary.json").write_text(json.dumps({"summary": summary, "defaults": chosen,
                                                  "skipped": skipped}, indent=1) + "\n")
    counts = sorted({e["repeats"] for v in summary.values() for e in v["optimisers"].values()})
    done = (f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}") \
        if counts else "none"
    rest = " (the rest still to run: it resumes)" if not counts or counts[0] < args.repeats \
        else ""
    lines = ["# Optimisers compared at equal games", "",
             "Each optimiser tunes the same problem with the same budget of games per "
             "repeat; its recommended point is confirmed on one common fresh seed set "
             f"({args.confirm_games:,} games). Medians over repeats: {done} per optimiser "
             f"here, of the {args.repeats} the command below asks for{rest}"
             + ("; with few repeats, read the tables as a first look, not a ranking" if rest
                else "") + ". Games to a share of the best are counted at the incumbents "
             "confirmed at a quarter, half and all of the budget. The incumbent is the best "
             "search value so far, except for NTBEA, which plays points again and again: "
             f"its model's recommendation. NTBEA searches {NTBEA_GRID} values of each float "
             "(the published specs give floats no step), with its default settings.", ""]
    for name, s in summary.items():
        trials, games = PROBLEMS[name]
        lines += [f"## {name} ({trials} candidates x {games:,} games a repeat; best "
                  f"confirmed value {s['best_confirmed']:.4f})", "",
                  "| optimiser | repeats | median confirmed | IQR | games to 95% of best | "
                  "games to 99% of best |", "|---|---|---|---|---|---|"]
        for opt, e in s["optimisers"].items():
            def reach(g: dict[str, Any]) -> str:
                if g["median"] is None:
                    return f"not reached ({g['not_reached']})"
                ci = f" [{g['ci'][0]:,.0f}, {g['ci'][1]:,.0f}]" if g["ci"] else ""
                miss = f"; not reached in {g['not_reached']}" if g["not_reached"] else ""
                return f"{g['median']:,.0f}{ci}{miss}"
            lines.append(f"| {opt} | {e['repeats']} | {e['median']:.4f} | "
                         f"{e['iqr'][0]:.4f}..{e['iqr'][1]:.4f} | {reach(e['games_to_95'])} "
                         f"| {reach(e['games_to_99'])} |")
        lines += ["", f"![best so far]({name}.png)", ""]
        _plot(out, name, [r for r in rows if r["problem"] == name])
    lines += ["## The default sampler of each published study", "",
              f"A study keeps {INCUMBENT} unless the plain sampler (no optional extra: "
              f"{', '.join(PLAIN_SAMPLERS)}) with the highest median beats it beyond noise "
              f"(one-sided Mann-Whitney U over the repeats' confirmed values, p < {LEVEL}). "
              "Studies of other kinds of parameter space keep TPE: nothing here measured "
              "them. `tests/tuning/test_published_samplers.py` holds the studies to this "
              "table.", "",
              "| problem | studies | sampler | why |", "|---|---|---|---|"]
    for name, c in chosen.items():
        gp = c.get("gp_over_incumbent")
        extra = (f"; with the gp extra, GP's median is {gp['median_gain']:+.4f} against "
                 f"{INCUMBENT}'s (one-sided p = {gp['p_value']:.3f})") if gp else ""
        lines.append(f"| {name} | {', '.join(c['studies'])} | {c['sampler']} | "
                     f"{c['why']}{extra} |")
    lines.append("")
    absent = [o for o in OPTIMISERS if o not in args.optimisers]
    unrun = [o for o in args.optimisers if o not in skipped
             and not any(o in v["optimisers"] for v in summary.values())]
    absent += unrun
    if skipped or absent:
        lines += ["Not run here: " + "; ".join(
            [f"{k}: {v}" for k, v in skipped.items()]
            + [f"{o}: " + ("no repeat finished yet" if o in unrun else "not asked for in this "
                           "run") for o in absent]), ""]
    lines += ["Made by:", "", f"    python benchmarks/optimiser_comparison.py --repeats "
              f"{args.repeats} --problems {','.join(args.problems)} --optimisers "
              f"{','.join(args.optimisers)} --seed {args.seed} --confirm-games "
              f"{args.confirm_games} --jobs {args.jobs}", ""]
    (out / "README.md").write_text("\n".join(lines))
    from tuning.reporting._readme_page import render_page
    (out / "index.html").write_text(render_page(out), encoding="utf-8")


def _plot(out: Path, name: str, rows: list[dict[str, Any]]) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 3.5))
    for opt in OPTIMISERS:
        runs = [r for r in rows if r["optimiser"] == opt]
        if not runs:
            continue
        n = min(len(r["search"]) for r in runs)
        curves = np.array([np.maximum.accumulate(r["search"][:n]) for r in runs])
        games = np.arange(1, n + 1) * runs[0]["games_per_candidate"]
        ax.plot(games, np.median(curves, axis=0), label=f"{opt} ({len(runs)})")
    ax.set_xlabel("games played")
    ax.set_ylabel("best search value so far (median)")
    ax.set_title(name)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / f"{name}.png", dpi=110)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--problems", type=lambda s: s.split(","), default=list(PROBLEMS))
    ap.add_argument("--optimisers", type=lambda s: s.split(","), default=list(OPTIMISERS))
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--confirm-games", type=int, default=10_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--backend", default="loky", choices=("loky", "dask", "ray"))
    ap.add_argument("--address", default=None)
    ap.add_argument("--summary", action="store_true", help="only rewrite the report")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    try:
        unknown = [p for p in args.problems if p not in PROBLEMS] + \
            [o for o in args.optimisers if o not in OPTIMISERS]
        if unknown:
            raise InputError(f"unknown problem or optimiser {unknown[0]!r}; problems: "
                             f"{', '.join(PROBLEMS)}; optimisers: {', '.join(OPTIMISERS)}")
        skipped = {o: why for o in args.optimisers if (why := available(o, args))}
        args.out.mkdir(parents=True, exist_ok=True)
        rows: list[dict[str, Any]] = []
        from tuning.evaluation import WorkerPool
        with WorkerPool(args.jobs, args.backend, args.address) as pool:  # one for the run
            for r in range(args.repeats):
                for name in args.problems:
                    for opt in args.optimisers:
                        if opt in skipped:
                            continue
                        path = repeat_file(args.out, name, opt, r)
                        if args.summary and not path.exists():
                            continue
                        t0 = time.monotonic()
                        row = run_repeat(name, opt, r, args, pool)
                        rows.append(row)
                        if not args.summary:
                            print(f"{name} {opt} repeat {r}: confirmed {row['confirmed']:.4f} "
                                  f"({time.monotonic() - t0:.0f} s)", file=sys.stderr)
                write_report(args.out, rows, args, skipped)
        write_report(args.out, rows, args, skipped)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        print("stopped: finished repeats are kept; run the same command again to continue",
              file=sys.stderr)
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
