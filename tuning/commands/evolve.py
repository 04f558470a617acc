"""`tabletune evolve STUDY`: run or resume a DEAP evolution of a study spec."""

from __future__ import annotations

import math
import shlex
import time
from collections.abc import Sequence
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
    legacy_value,
    load_study,
    print_json,
)
from tuning.commands._progress import Reporter, duration, stop_line


def resume_command(study: str, spec: Any, evo: Any, checkpoint: Path | None,
                   jobs: int | None, backend: str | None, address: str | None,
                   options: Sequence[str] = ()) -> str:
    """The full command that continues ``evo``: every setting that differs from the spec
    (``spec``: the run's, its ``--option`` game options applied)."""
    from tuning.evolution import RUN_SETTINGS, default_checkpoint, run_flags

    words = ["tabletune", "evolve", study, "--resume"]
    for item in options:
        words += ["--option", item]
    words += run_flags(spec, {name: getattr(evo.settings, name) for name in RUN_SETTINGS})
    if checkpoint is not None and Path(checkpoint) != default_checkpoint(spec):
        words += ["--checkpoint", str(checkpoint)]
    for flag, value in (("-j", jobs), ("--backend", backend), ("--address", address)):
        if value is not None:
            words += [flag, str(value)]
    return shlex.join(words)


class EvolutionProgress(Reporter):
    """Generation lines, throttled: a finished generation's row while it is fresh, else
    which generation is running, for how long, the best so far and the time left; the
    first and the last generation always show (every row is in the log file)."""

    def __init__(self, console: Any, every: float | None = None,
                 clock: Any = time.monotonic) -> None:
        super().__init__(console, every, clock)
        self.row: dict[str, Any] | None = None
        self.phase: str | None = None  # after the generations: the re-evaluation
        self.resuming = False  # a resumed run starts with the checkpoint's next generation

    def describe(self) -> str:
        from tuning.evolution import format_row

        now = self.clock()
        spent = duration(now - self.since)
        if self.phase is not None:
            return f"{self.phase}, {spent}"
        if self.row is None and self.resuming:
            return f"resumed from the checkpoint: its next generation is running, {spent}"
        if self.row is None:
            return f"gen   0: evaluating the first population, {spent}"
        row, total = self.row, self.row["generations"]
        eta = row["eta_seconds"]
        if now - self.since < self.throttle.every or row["gen"] >= total:
            return format_row(row, total, eta)
        left = eta - (now - self.since) if math.isfinite(eta) else None
        return (f"gen {row['gen'] + 1:>3}/{total} running for {spent} | best "
                f"{row['best']:.4f} after gen {row['gen']} | {duration(left)} left")

    def __call__(self, row: dict[str, Any]) -> None:
        self.row, self.since = row, self.clock()
        self.throttle.poke(force=row["gen"] == 0 or row["gen"] >= row["generations"])

    def finishing(self, text: str) -> None:
        """The generations are done; ``text`` says what runs now."""
        self.phase, self.since = text, self.clock()


@app.command("evolve")
def evolve_command(
    study: str = typer.Argument(..., help="Study name in studies/ or a spec file path."),
    generations: int | None = typer.Option(None, "--generations", "-g",
                                           help="Generations in total (spec: deap.generations; "
                                                "with --resume: the checkpoint's run)."),
    population: int | None = typer.Option(None, "--population", "-P",
                                          help="Population size mu (spec: deap.population)."),
    population_old: int | None = typer.Option(None, "-p", hidden=True,
                                              help="Old spelling of --population."),
    jobs: int | None = typer.Option(None, "--jobs", "-j",
                                    help="Worker processes, -1: every core (spec: "
                                         "evaluation.jobs)."),
    seed: int | None = typer.Option(None, "--seed", "-s",
                                    help="Root seed (spec: evaluation.seed)."),
    checkpoint: Path | None = typer.Option(None, "--checkpoint",
                                           help="Checkpoint file (default runs/<study>/"
                                                "evolution.ckpt; the log sits beside it)."),
    resume: bool = typer.Option(False, "--resume", help="Continue from the checkpoint with the "
                                "generations, population and seed it was started with."),
    restart: bool = typer.Option(False, "--restart",
                                 help="Start over, replacing an existing checkpoint."),
    backend: str | None = typer.Option(None, "--backend",
                                       help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help="Ray/Dask cluster address."),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Evolve a genome (DEAP) as a study spec describes; checkpoints as it goes.

    Ctrl-C or SIGTERM writes a checkpoint of the last finished generation; `--resume`
    continues exactly where it stopped (same hall of fame as an uninterrupted run), with the
    settings the run was started with; `--resume -g N` extends it to N generations.
    Game options given with --option make an evolution of their own (STUDY.HASH).
    """
    from tuning._best import resolve_opponents
    from tuning.evaluation import WorkerPool
    from tuning.evolution import (
        EvolutionInterrupted,
        best_of,
        build_evolution,
        checkpoint_seed,
        default_checkpoint,
    )

    if resume and restart:
        raise InputError("--resume and --restart exclude each other")
    population = legacy_value("--population", population, "-p", population_old)
    limits.GENERATIONS.check_optional(generations, "--generations")
    limits.POPULATION.check_optional(population, "--population")
    workers = limits.workers(jobs)
    if seed is not None:
        check_seed(seed, "--seed")
    # a --seed is the study's from the start (its options settled once, with it); a resumed
    # run without one takes its checkpoint's, read as soon as the study is named, so its
    # options are settled once, with the seed the run was started with
    seed_of = (lambda named: checkpoint_seed(checkpoint or default_checkpoint(named))) \
        if resume else None
    spec = load_study(study, option, "deap", jobs=workers, backend=backend, address=address,
                      seed=seed, seed_of=seed_of)
    given_spec = spec
    places.output_file(checkpoint or default_checkpoint(spec), "--checkpoint")
    spec = resolve_opponents(spec)  # best: opponents, now that the run starts
    out = err_console  # progress and status: stdout carries only the result
    progress = EvolutionProgress(out)
    progress.resuming = resume
    ev = spec.evaluation
    with stop_signals(), WorkerPool(ev.jobs, ev.backend, ev.address) as pool, progress:
        evo = build_evolution(spec, pool, generations=generations, population=population,
                              seed=seed, checkpoint=checkpoint, resume=resume, progress=progress)
        spec = spec.with_overrides(seed=evo.settings.seed)
        if not resume and not restart and evo.checkpoint is not None and evo.checkpoint.exists():
            raise InputError(f"checkpoint {evo.checkpoint} exists: continue it with --resume, "
                             "start over with --restart, or give another --checkpoint")
        out.print(f"evolving {spec.name}: {evo.settings.algorithm}, mu={evo.settings.population}, "
                  f"lambda={evo.settings.offspring}, generations={evo.settings.generations}, "
                  f"seed={evo.settings.seed}, jobs={spec.evaluation.jobs}, "
                  f"checkpoint {evo.checkpoint}" + (" (resuming)" if resume else ""),
                  highlight=False, soft_wrap=True)
        if evo.loaded is not None and int(evo.loaded["generation"]) >= evo.settings.generations:
            out.print(f"checkpoint {evo.checkpoint} is already at generation "
                      f"{evo.loaded['generation']} of {evo.settings.generations}: nothing left to "
                      f"evolve (give -g with a larger total to continue)", highlight=False,
                      soft_wrap=True)
        started = time.perf_counter()
        try:
            result = evo.run(resume=resume)
        except EvolutionInterrupted as stop:  # the line comes once the status line is gone
            if stop.path is None:
                stop_line("stopped during generation 0, before the first checkpoint: nothing "
                          "to resume; run the same command again to start over", progress)
            command = resume_command(study, given_spec, evo, checkpoint, jobs, backend,
                                     address, option)
            stop_line(f"stopped after generation {stop.generation}; checkpoint {stop.path}; "
                      f"continue with: {command}", progress)
        wall = time.perf_counter() - started
        top = max(1, spec.evaluation.reevaluate_top)
        progress.finishing(f"re-evaluating the top {top} of the hall of fame on "
                           f"{spec.evaluation.reevaluate_games:,} fresh games, then "
                           f"confirming the best on {spec.evaluation.confirmations:,} "
                           "further ones (exact where the game allows)")
        try:
            found = best_of(spec, result, pool)
            best, evaluation, chosen = found.text, found.confirmed, found.selection
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the evolution itself is checkpointed
            command = resume_command(study, given_spec, evo, checkpoint, jobs, backend,
                                     address, option)
            stop_line(f"stopped while re-evaluating the hall of fame (generation "
                      f"{result.generation} is checkpointed in {evo.checkpoint}); the "
                      f"re-evaluation starts over with: {command}", progress)
    lo, hi = evaluation.ci95
    games = sum(r["games"] for r in result.logbook)
    data = {
        "study": spec.name,
        "generations": result.generation,
        "best_genome": best,
        "best_fitness": evaluation.mean,
        "best_fitness_stderr": evaluation.stderr,
        "best_fitness_ci": [lo, hi],
        "best_fitness_games": evaluation.games,
        "best_fitness_exact": evaluation.exact,
        "best_confirmed": not evaluation.exact,
        "best_selection_fitness": chosen.mean,
        "best_selection_ci": list(chosen.ci95),
        "best_selection_games": chosen.games,
        "hall_of_fame": [{"genome": t, "fitness": s.mean, "stderr": s.stderr}
                         for t, s in result.hall_of_fame],
        "checkpoint": str(evo.checkpoint),
        "log": str(evo.log_path),
        "seconds": wall,
        "games": games,
        "games_per_second": games / result.seconds if result.seconds > 0 else None,
    }
    if json_out:
        print_json(data)
        return
    how = "exact" if evaluation.exact else (
        f"confirmed on {evaluation.games:,} further fresh games, 95% CI {lo:.4f}..{hi:.4f}; "
        f"selection value {chosen.mean:.4f}, re-evaluated on {chosen.games:,} games")
    console.print(f"best after {result.generation} generations: {best}", highlight=False)
    console.print(f"fitness {evaluation.mean:.4f} ({how}); {games} games in {wall:.1f} s",
                  highlight=False)
