"""`tabletune studies | run | report | dashboard`: Optuna studies from the command line."""

from __future__ import annotations

import shlex
import time
from pathlib import Path
from typing import Any

import typer

from games.errors import InputError, check_seed
from tuning import _limits as limits
from tuning._stopping import stop_signals
from tuning.commands import _places as places
from tuning.commands._apps import (
    BACKEND_HELP,
    OPTION_HELP,
    app,
    console,
    err_console,
    load_study,
    print_json,
    say_options,
)
from tuning.commands._progress import Reporter, duration, given_command, stop_line


def _fmt(value: Any, digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


@app.command("studies")
def studies_command(json_out: bool = typer.Option(False, "--json", help="Print JSON."),
                    check: bool = typer.Option(False, "--check",
                                               help="Validate every spec fully against its "
                                                    "game (imports the games' engines).")
                    ) -> None:
    """List the ready-made study specs in studies/ with one line each.

    A listing reads what each file states and checks that it names a known game, without
    importing any game; ``--check`` validates each spec as a run would.
    """
    from tuning import _spec_files as spec_files

    rows = []
    for path in spec_files.list_specs():
        try:
            if check:
                from tuning._spec import load_spec

                spec = load_spec(path)
                row = {"name": spec.name, "game": spec.game, "optimizer": spec.optimizer,
                       "strategy": spec.strategy, "description": spec.description}
            else:
                row = spec_files.summary(path)
            rows.append({**row, "path": str(path), "valid": True})
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


class StudyProgress(Reporter):
    """Progress of ``tabletune run`` from the runner's events, throttled:
    the last trial, the best so far, trials done, games/s and time left; inside a long
    trial its block; during the re-evaluation the candidate and its block."""

    def __init__(self, target: int, blocks: int, console: Any = None,
                 every: float | None = None, clock: Any = time.monotonic) -> None:
        super().__init__(console, every, clock)
        self.target, self.blocks = target, blocks
        self.done = 0            # trials the study holds (all processes)
        self.here = 0            # trials finished by this process
        self.best: float | None = None
        self.last = ""           # the last finished trial, as text
        self.speed = ""
        self.current: tuple[int, int] | None = None  # (trial, blocks done) of a running trial
        self.reeval: dict[str, Any] | None = None  # the latest re-evaluation event
        # self.since: when the running trial, or the re-evaluation, started

    def _trials_left(self, now: float) -> float | None:
        running = self.current[1] / self.blocks if self.current and self.blocks else 0.0
        finished = self.here + running
        if finished <= 0:
            return None
        per_trial = (now - self.started) / finished
        return max(0.0, self.target - self.done - running) * per_trial

    def describe(self) -> str:
        now = self.clock()
        if self.reeval is not None:
            r = self.reeval
            part = (r["index"] + r.get("block", 0) / max(1, r["blocks"])) / max(1, r["total"])
            spent = now - self.since
            left = spent / part - spent if part > 0 else None
            cand = r["candidate"]
            label = cand.get("genome") or " ".join(
                str(x) for x in (cand.get("strategy"), cand.get("params") or "") if x)
            verb, fresh = ("confirming", "further fresh") if r.get("confirm") else (
                "re-evaluating", "fresh")
            return (f"{verb} {r['index'] + 1}/{r['total']} {label} on {r['games']:,} "
                    f"{fresh} games: block {r.get('block', 0)}/{r['blocks']} | {duration(spent)} "
                    f"elapsed, {duration(left)} left")
        parts = []
        if self.current is not None:
            trial, done = self.current
            parts.append(f"trial {trial} running: block {done}/{self.blocks}, "
                         f"{duration(now - self.since)}")
        elif self.last:
            parts.append(self.last)
        else:
            parts.append(f"starting, {duration(now - self.started)} elapsed")
        parts.append(f"best {_fmt(self.best)}")
        parts.append(f"{self.done}/{self.target} trials")
        if self.speed:
            parts.append(self.speed)
        parts.append(f"{duration(self._trials_left(now))} left")
        return " | ".join(parts)

    def __call__(self, event: dict[str, Any]) -> None:
        kind = event["event"]
        if kind == "stale":
            self.throttle.say(f"marked stale running trial(s) {event['trials']} as failed "
                              "(their process is gone); their parameters are queued again")
            return
        if kind == "overtaken":
            self.throttle.say(f"trial {event['trial']} was marked failed by another worker "
                              "(no heartbeat within the grace period); its result is dropped "
                              "and its retry counts instead")
            return
        if kind == "trial":
            self.best, self.done = event["best"], event["done"]
            self.here += 1
            self.current = None
            self.since = self.clock()
            self.speed = (f"{event['games'] / event['seconds']:,.0f} games/s"
                          if event["games"] and event["seconds"] > 0 else "exact evaluation")
            self.last = (f"trial {event['trial']} {event['state'].lower()} value "
                         f"{_fmt(event['value'])}")
            self.throttle.poke(force=self.here == 1 or event["done"] >= event["target"])
            return
        if kind == "block":
            self.current = (event["trial"], event["block"] + 1)
        elif kind in ("reevaluate", "reevaluate-block"):
            if self.reeval is None or event.get("confirm", False) != self.reeval.get(
                    "confirm", False):  # the confirmation is timed on its own
                self.since = self.clock()
            self.current = None
            self.reeval = {**(self.reeval or {}), **event}
            if kind == "reevaluate":
                self.reeval["block"] = 0
        self.throttle.poke()


def _stopped(stop: KeyboardInterrupt) -> str:
    """The line a stopped ``run`` leaves: what the storage keeps, and how to go on."""
    from tuning.study import StudyStopped

    again = given_command()
    if not isinstance(stop, StudyStopped):
        return f"stopped while opening the study (nothing changed); run it with: {again}"
    if stop.reevaluating:
        return (f"stopped while re-evaluating the best candidates (all {stop.done} trials "
                f"done); kept in {stop.storage}; the re-evaluation starts over with: {again}")
    done = (f"after trial {stop.done} of {stop.target}" if stop.done
            else f"before the first of {stop.target} trials finished")
    return (f"stopped {done}; kept in {stop.storage} (a trial cut short is queued again); "
            f"continue with: {again}")


@app.command("run")
def run_command(
    study: str = typer.Argument(..., help="Study name in studies/ or a spec file path."),
    trials: int | None = typer.Option(None, "--trials",
                                      help="Trials in total for the study (spec: optuna.trials)."),
    storage: str | None = typer.Option(None, "--storage",
                                       help="Journal file path or RDB URL "
                                            "(default runs/<study>.journal)."),
    jobs: int | None = typer.Option(None, "--jobs", "-j",
                                    help="Worker processes, -1: every core (spec: "
                                         "evaluation.jobs)."),
    seed: int | None = typer.Option(None, "--seed", "-s",
                                    help="Root seed (spec: evaluation.seed)."),
    backend: str | None = typer.Option(None, "--backend",
                                       help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help="Ray/Dask cluster address."),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Run (or resume) an Optuna study until it holds the requested number of trials.

    Several processes may run the same command on one storage: they share the budget.
    Game options given with --option make a study of their own (STUDY.HASH).
    """
    from tuning._best import resolve_opponents
    from tuning.study import run_study

    limits.TRIALS.check_optional(trials, "--trials")
    jobs = limits.workers(jobs)
    if seed is not None:
        check_seed(seed, "--seed")
    places.journal_file(storage)
    spec = resolve_opponents(load_study(study, option, "optuna", trials=trials, jobs=jobs,
                                        seed=seed, backend=backend, address=address,
                                        storage=storage))
    from tuning.evaluation import WorkerPool
    ev = spec.evaluation
    blocks = -(-ev.games // ev.block)
    try:
        with stop_signals(), WorkerPool(ev.jobs, ev.backend, ev.address) as pool, \
                StudyProgress(spec.optuna.trials, blocks) as progress:
            summary = run_study(spec, progress=progress, pool=pool)
    except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM; the status line is gone now
        stop_line(_stopped(stop))
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
                      + "".join(f" --option {shlex.quote(o)}" for o in option)
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
        from tuning.study import describe

        lo, hi = best["ci95"]
        how = describe(best)
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
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    json_out: bool = typer.Option(False, "--json", help="Print a JSON summary."),
) -> None:
    """Write index.html, README.md and PNG figures for a study or an evolution."""
    from tuning._best import resolve_opponents
    from tuning.reporting import describe_published

    spec = load_study(study, option, say=False)  # said once the report is written
    if out is not None and publish:
        raise InputError("--out and --publish exclude each other: --publish writes to "
                         f"reports/{spec.name}/")
    # by default a scratch folder: a report run in the repository must not overwrite the
    # committed reports/STUDY/ unless asked
    out_dir = out or (Path("reports") if publish else Path("runs") / "reports") / spec.name
    places.output_folder(out_dir, "--out")
    if time_share is not None:
        places.input_file(time_share, "--time-share")
    spec = resolve_opponents(spec)  # best: opponents, as the run resolved them
    from tuning.reporting import confirm_published, published_only
    if publish and storage is None and published_only(spec, out_dir):
        # no journal or checkpoint here: confirm the published best from its run.json
        run = confirm_published(spec, out_dir)
        if json_out:
            print_json({"study": spec.name, "out": str(out_dir), "result": run})
        else:
            console.print(f"{spec.name}: no journal or checkpoint here; the published best "
                          f"in {out_dir} is confirmed: {describe_published(spec, run)}",
                          highlight=False, soft_wrap=True)
        return
    if spec.optimizer == "deap":
        from tuning.evolution import default_checkpoint
        from tuning.reporting import build_evolution_report
        path = Path(storage) if storage else default_checkpoint(spec)
        if not path.exists():
            flags = "".join(f" --option {shlex.quote(o)}" for o in option)
            raise InputError(f"no checkpoint at {path}: run the evolution first (tabletune "
                             f"evolve {study}{flags}) or give its checkpoint with --storage")
        places.input_file(path, "--storage" if storage else "checkpoint")
        result = build_evolution_report(spec, path, out_dir, time_share)
    else:
        if time_share is not None:
            raise InputError("--time-share applies to evolutions (study.optimizer = deap)")
        from tuning.reporting import build_study_report
        result = build_study_report(spec, storage, out_dir)
    index = out_dir / "index.html"
    say_options(spec, option)
    if json_out:
        print_json({"study": spec.name, "out": str(out_dir), "index": str(index),
                    "result": result if isinstance(result, dict) else str(result)})
    else:
        console.print(f"report written to {index}", highlight=False, soft_wrap=True)


def resolve_dashboard_storage(storage: str | None) -> str:
    """The storage to serve: the given one, or the only journal under runs/."""
    if storage:
        if "://" not in storage:
            places.input_file(storage, "--storage")
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

    from tuning.study import note_reevaluations, open_storage

    location = resolve_dashboard_storage(storage)
    limits.PORT.check(port, "--port")
    places.listen_address(host, port)
    opened = open_storage(location, create=False)
    for line in note_reevaluations(opened.storage):  # the re-evaluated best, in each note
        err_console.print(line, highlight=False, soft_wrap=True)
    err_console.print(f"optuna-dashboard on http://{host}:{port}/ serving {opened.location}",
                      highlight=False, soft_wrap=True)
    optuna_dashboard.run_server(opened.storage, host=host, port=port)
