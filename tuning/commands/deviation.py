"""`tabletune deviation STUDY`: the one-step deviation check of a study's best
(:mod:`tuning.study._deviation`), on seeds of its own, with a table and a verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from games.errors import InputError, check_seed
from tuning import _limits as limits
from tuning._stopping import stop_signals
from tuning.commands._apps import OPTION_HELP, app, clean_errors, console, load_study, print_json


def _published_best(spec: Any) -> dict[str, Any] | None:
    """The best of the committed report (``reports/STUDY/run.json``) where this machine has
    no run of the study (a fresh clone), as ``best:`` reads it; None otherwise."""
    from tuning.study import default_location

    if Path(default_location(spec.name)).exists():
        return None
    path = Path("reports") / spec.name / "run.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {"params": dict(data["best_params"]), "trial": data.get("best_trial")}
    except (ValueError, KeyError, TypeError):
        raise InputError(f"{path}: damaged run summary; run the study again") from None


@app.command("deviation")
@clean_errors
def deviation_command(
    study: str = typer.Argument(..., help="Study name in studies/ or a spec file path."),
    games: int = typer.Option(20_000, "--games", "-n", help="games for the best and for "
                                                             "each neighbour (the same seeds)"),
    storage: str | None = typer.Option(None, "--storage", help="Journal file path or RDB URL "
                                                               "(default runs/<study>.journal)."),
    jobs: int | None = typer.Option(None, "--jobs", "-j",
                                    help="Worker processes, -1: every core (spec: "
                                         "evaluation.jobs)."),
    seed: int | None = typer.Option(None, "--seed", "-s", help="Root seed of the check's "
                                                               "games (default: derived)."),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    out_file: Path | None = typer.Option(None, "--out", help="where the check is written "
                                                             "(default "
                                                             "runs/<study>.deviation.json)"),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Is any one-step neighbour of a study's best better beyond noise? Paired games.

    The best is the local run's (its journal or --storage), else the committed report's.
    """
    from tuning._best import resolve_opponents
    from tuning.evaluation import WorkerPool, candidate_bot, derived_seed, evaluate_many
    from tuning.study import best_result, check
    from tuning.study import load_study as open_study

    limits.GAMES.check(games, "--games")
    jobs = limits.workers(jobs)
    if seed is not None:
        check_seed(seed, "--seed")
    spec = resolve_opponents(load_study(study, option, "optuna", jobs=jobs, storage=storage,
                                        say=False))
    best = _published_best(spec) if storage is None else None
    if best is None:
        best = best_result(open_study(spec, storage).study)
    if not best or not best.get("params"):
        raise InputError(f"study {spec.name} has no complete trial yet: run it first "
                         f"(tabletune run {study})")
    ev = spec.evaluation
    root = seed if seed is not None else derived_seed(ev.seed, "deviation")
    block = max(ev.block, -(-games // (8 * ev.jobs)))
    with stop_signals(), WorkerPool(ev.jobs, ev.backend, ev.address) as pool:
        def evaluate(param_sets: list[dict]) -> list:
            bots = [candidate_bot({"strategy": spec.strategy, "params": p})
                    for p in param_sets]
            return evaluate_many(spec.scorer(), bots, games=games, block=block, seed=root,
                                 pool=pool)

        out = check(spec, best["params"], evaluate, spec.direction == "maximize")
    out.update(study=spec.name, seed=root, trial=best.get("trial"))
    path = out_file or Path("runs") / f"{spec.name}.deviation.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1, default=str) + "\n", encoding="utf-8")
    if json_out:
        print_json(out)
        return
    table = Table(title=f"{spec.name}: the best (trial {best.get('trial')}, "
                        f"{out['best_mean']:.4f} on these {out['games']:,} games) and its "
                        "neighbours")
    for col in ("parameter", "move", "value", "mean", "gain", "family 95% interval"):
        table.add_column(col, justify="left" if col in ("parameter", "move") else "right")
    for r in out["neighbours"]:
        lo, hi = r["gain_ci"]
        mark = " better" if r["better"] else (" worse" if r["worse"] else "")
        table.add_row(r["parameter"], r["move"], f"{r['value']:.4g}"
                      if isinstance(r["value"], float) else str(r["value"]),
                      f"{r['mean']:.4f}", f"{r['gain']:+.4f}{mark}", f"{lo:+.4f}..{hi:+.4f}")
    console.print(table)
    console.print(f"{out['verdict']} (written to {path})", highlight=False, soft_wrap=True)
