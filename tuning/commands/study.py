"""`tabletune studies | run | report | dashboard`: Optuna studies from the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from games.core import InputError
from tuning.commands.apps import app, console, err_console, print_json


def _fmt(value: Any, digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


@app.command("studies")
def studies_command(json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """List the ready-made study specs in studies/ with one line each."""
    from tuning.spec import list_specs, load_spec

    rows = []
    for path in list_specs():
        try:
            spec = load_spec(path)
            rows.append({"name": spec.name, "game": spec.game, "optimizer": spec.optimizer,
                         "strategy": spec.strategy, "description": spec.description,
                         "path": str(path), "valid": True})
        except InputError as exc:
            rows.append({"name": path.stem, "path": str(path), "valid": False,
                         "error": str(exc)})
    if json_out:
        print_json(rows)
        return
    if not rows:
        console.print("no study specs in studies/")
    width = max((len(r["name"]) for r in rows), default=0)
    for r in rows:
        if r["valid"]:
            console.print(f"{r['name']:<{width}}  {r['game']:<11} {r['optimizer']:<6} "
                          f"{r['description']}", highlight=False, soft_wrap=True)
        else:
            console.print(f"{r['name']:<{width}}  [red]invalid:[/] {r['error']}",
                          highlight=False, soft_wrap=True)


class _ProgressLine:
    """A live one-line status: trial, state, best so far, games per second."""

    def __init__(self, target: int) -> None:
        from rich.status import Status
        self.target = target
        self.status = Status("starting", console=err_console)
        self.best: float | None = None
        self.line = "starting"

    def __enter__(self) -> _ProgressLine:
        self.status.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.status.stop()

    def __call__(self, event: dict[str, Any]) -> None:
        kind = event["event"]
        if kind == "stale":
            err_console.print(f"marked stale running trial(s) {event['trials']} as failed "
                              "(their process is gone); their parameters are queued again",
                              highlight=False, soft_wrap=True)
        elif kind == "trial":
            self.best = event["best"]
            speed = (f"{event['games'] / event['seconds']:,.0f} games/s"
                     if event["games"] and event["seconds"] > 0 else "exact evaluation")
            self.line = (f"trial {event['trial']} {event['state'].lower()} "
                         f"value {_fmt(event['value'])} | best {_fmt(self.best)} | "
                         f"{event['done']}/{event['target']} trials | {speed}")
            err_console.print(self.line, highlight=False, soft_wrap=True)
        elif kind == "block":
            self.status.update(f"{self.line} | trial {event['trial']} block {event['block']}")
        elif kind == "reevaluate":
            self.status.update(f"re-evaluating {event['candidate'].get('params')} on "
                               f"{event['games']:,} fresh games")


@app.command("run")
def run_command(
    study: str = typer.Argument(..., help="Study name in studies/ or a spec file path."),
    trials: int | None = typer.Option(None, "--trials",
                                      help="Trials in total for the study (spec: optuna.trials)."),
    storage: str | None = typer.Option(None, "--storage",
                                       help="Journal file path or RDB URL "
                                            "(default runs/<study>.journal)."),
    jobs: int | None = typer.Option(None, "--jobs", "-j",
                                    help="Worker processes (spec: evaluation.jobs)."),
    seed: int | None = typer.Option(None, "--seed", "-s",
                                    help="Root seed (spec: evaluation.seed)."),
    backend: str | None = typer.Option(None, "--backend",
                                       help="joblib backend: loky, threading, ray, dask."),
    address: str | None = typer.Option(None, "--address", help="Ray/Dask cluster address."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Run (or resume) an Optuna study until it holds the requested number of trials.

    Several processes may run the same command on one storage: they share the budget.
    """
    from tuning.spec import load_spec
    from tuning.study.runner import run_study

    spec = load_spec(study)
    if spec.optimizer != "optuna":
        raise InputError(f"{spec.path}: study.optimizer is {spec.optimizer!r}; "
                         f"run it with: tabletune evolve {study}")
    spec = spec.with_overrides(trials=trials, jobs=jobs, seed=seed, backend=backend,
                               address=address, storage=storage)
    from tuning.evaluation import WorkerPool
    ev = spec.evaluation
    with WorkerPool(ev.jobs, ev.backend, ev.address) as pool, \
            _ProgressLine(spec.optuna.trials) as progress:
        summary = run_study(spec, progress=progress, pool=pool)
    data = summary.to_dict()
    if json_out:
        print_json(data)
        return
    best = summary.best
    if summary.trials_run_here == 0:
        total = data["trials_completed"] + data["trials_pruned"] + data["trials_failed"]
        console.print(f"study {spec.name} on {summary.storage} is complete: it holds {total} "
                      f"of {spec.optuna.trials} trials; to extend it: tabletune run {study} "
                      f"--trials {max(total, spec.optuna.trials) * 2}"
                      + (f" --seed {seed}" if seed is not None else "")
                      + (f" --storage {storage}" if storage else ""), highlight=False,
                      soft_wrap=True)
    else:
        console.print(f"study {spec.name} on {summary.storage}: "
                      f"{data['trials_completed']} complete, "
                      f"{data['trials_pruned']} pruned, {data['trials_failed']} failed "
                      f"({summary.trials_run_here} run here in {summary.seconds:.1f}s, Optuna "
                      f"overhead {100 * summary.optuna_share:.1f}%)", highlight=False,
                      soft_wrap=True)
    if best:
        lo, hi = best["ci95"]
        how = (f"re-evaluated on {best['games']:,} fresh games" if best.get("reevaluated")
               and best.get("games") else "exact" if best.get("exact") else "search value")
        console.print(f"best (trial {best['trial']}): {best['mean']:.4f}, 95% CI "
                      f"{lo:.4f}..{hi:.4f} ({how})", highlight=False, soft_wrap=True)
        console.print(f"params: {best['params']}", highlight=False, soft_wrap=True)


@app.command("report")
def report_command(
    study: str = typer.Argument(..., help="Study name in studies/ or a spec file path."),
    storage: str | None = typer.Option(None, "--storage",
                                       help="Journal file or RDB URL (for DEAP: checkpoint)."),
    out: Path | None = typer.Option(None, "--out", help="Output folder (default "
                                    "runs/reports/STUDY; reports/STUDY with --publish)."),
    publish: bool = typer.Option(False, "--publish",
                                 help="Write to the committed reports/STUDY/ folder."),
    time_share: Path | None = typer.Option(None, "--time-share",
                                           help="Evolutions: a benchmarks/evolve_profile.py "
                                                "record to quote (kept as time_share.json)."),
    json_out: bool = typer.Option(False, "--json", help="Print a JSON summary."),
) -> None:
    """Write index.html, README.md and PNG figures for a study or an evolution."""
    from tuning.spec import load_spec

    spec = load_spec(study)
    if out is not None and publish:
        raise InputError("--out and --publish exclude each other: --publish writes to "
                         f"reports/{spec.name}/")
    # by default a scratch folder: a report run in the repository must not overwrite the
    # committed reports/STUDY/ unless asked
    out_dir = out or (Path("reports") if publish else Path("runs") / "reports") / spec.name
    if spec.optimizer == "deap":
        from tuning.evolution.runner import default_checkpoint
        from tuning.reporting.evolution import build_evolution_report
        path = Path(storage) if storage else default_checkpoint(spec)
        result = build_evolution_report(spec, path, out_dir, time_share)
    else:
        if time_share is not None:
            raise InputError("--time-share applies to evolutions (study.optimizer = deap)")
        from tuning.reporting.study import build_study_report
        result = build_study_report(spec, storage, out_dir)
    index = out_dir / "index.html"
    if json_out:
        print_json({"study": spec.name, "out": str(out_dir), "index": str(index),
                    "result": result if isinstance(result, dict) else str(result)})
    else:
        console.print(f"report written to {index}", highlight=False, soft_wrap=True)


def resolve_dashboard_storage(storage: str | None) -> str:
    """The storage to serve: the given one, or the only journal under runs/."""
    if storage:
        if "://" not in storage and not Path(storage).is_file():
            raise InputError(f"storage {storage} does not exist")
        return storage
    journals = sorted(Path("runs").glob("*.journal"))
    if len(journals) == 1:
        return str(journals[0])
    found = ", ".join(str(p) for p in journals) or "none"
    raise InputError(f"give --storage (journal files under runs/: {found})")


@app.command("dashboard")
def dashboard_command(
    storage: str | None = typer.Option(None, "--storage",
                                       help="Journal file or RDB URL (default: the only "
                                            "journal under runs/)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8080, "--port", help="Port to listen on."),
) -> None:
    """Serve optuna-dashboard on a study storage (Ctrl-C to stop)."""
    import optuna_dashboard

    from tuning.study.storage import open_storage

    location = resolve_dashboard_storage(storage)
    if not 0 < port < 65536:
        raise InputError(f"--port must be 1..65535, got {port}")
    opened = open_storage(location, create=False)
    console.print(f"optuna-dashboard on http://{host}:{port}/ serving {opened.location}",
                  highlight=False, soft_wrap=True)
    optuna_dashboard.run_server(opened.storage, host=host, port=port)
