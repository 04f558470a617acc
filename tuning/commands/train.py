"""`tabletune train STUDY`: train a game's learned player from a spec's [train] table, with
the trainer the study's game provides."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import typer

from games.errors import InputError, check_seed
from tuning import _limits as limits
from tuning._stopping import stop_signals
from tuning.commands import _places as places
from tuning.commands._apps import (
    app,
    clean_errors,
    console,
    err_console,
    print_json,
    require_optimizer,
)
from tuning.commands._progress import Reporter, duration, given_command, stop_line


def _interval(est: dict[str, Any]) -> str:
    lo, hi = est["ci95"]
    return f"{est['mean']:.4f} ({lo:.4f}..{hi:.4f}, n={est['n']:,})"


class TrainProgress(Reporter):
    """Training progress, throttled: games, exploration, the latest probe scores with
    intervals, games/s and time left; during a long round, how long it runs."""

    def __init__(self, every: float | None = None, clock: Any = time.monotonic) -> None:
        super().__init__(err_console, every, clock)
        self.event: dict[str, Any] | None = None

    def describe(self) -> str:
        since = self.clock() - self.since
        e = self.event
        if e is None:
            return f"train: first round running, {duration(since)}"
        probe = ""
        if e["score_vs"]:
            probe = ", " + ", ".join(f"vs {k} {_interval(v)}" for k, v in e["score_vs"].items())
        left = e["seconds_left"]
        left = None if left is None else max(0.0, left - since)
        stale = (f", round {e['round'] + 1} running for {duration(since)}"
                 if since >= self.throttle.every and e["round"] < e["rounds"] else "")
        return (f"train: {e['games']:,}/{e['total']:,} games, eps {e['eps']:.3f}{probe}, "
                f"{e['games_per_s']:,.0f} games/s{stale}, {duration(left)} left")

    def __call__(self, e: dict[str, Any]) -> None:
        self.event, self.since = e, self.clock()
        self.throttle.poke(force=e["round"] >= e["rounds"])


@app.command("train")
@clean_errors
def train_command(
    study: str = typer.Argument(..., help="Study name in studies/ or a spec file path."),
    games: int | None = typer.Option(None, "--games", "-n",
                                     help="Training games (spec: train.games)."),
    jobs: int | None = typer.Option(None, "--jobs", "-j",
                                    help="Worker processes, -1: every core (spec: "
                                         "train.jobs)."),
    seed: int | None = typer.Option(None, "--seed", "-s",
                                    help="Root seed (spec: train.seed)."),
    model: str | None = typer.Option(None, "--model", help="Model file (spec: train.model)."),
    checkpoint: str | None = typer.Option(None, "--checkpoint",
                                          help="Checkpoint file (spec: train.checkpoint)."),
    resume: bool = typer.Option(False, "--resume", help="Continue from the checkpoint."),
    restart: bool = typer.Option(False, "--restart",
                                 help="Start over, replacing an existing checkpoint."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Train the learned player (self-play and a pool of opponents), checkpointing as it goes."""
    from games import registry
    from games.capabilities import use
    from tuning._best import train_bot
    from tuning._spec import load_spec
    from tuning.evaluation import WorkerPool, resolve_jobs
    from tuning.train import (
        SELF,
        SNAPSHOT,
        TrainSpec,
        load_checkpoint,
        model_of,
        new_state,
        parse_train,
        train,
        train_spec,
    )

    if resume and restart:
        raise InputError("--resume and --restart exclude each other")
    limits.GAMES.check_optional(games, "--games")
    limits.JOBS.check_optional(jobs, "--jobs")
    if seed is not None:
        check_seed(seed, "--seed")
    spec = load_spec(study)
    require_optimizer(spec, study, "train")
    tr: TrainSpec = spec.train
    changes = {k: v for k, v in {"games": games, "jobs": jobs, "seed": seed, "model": model,
                                 "checkpoint": checkpoint}.items() if v is not None}
    tr = parse_train(f"{spec.path}: command line", {**_overridable(tr), **changes}, spec.game)
    places.output_file(tr.model, "--model" if model is not None else "train.model")
    places.output_file(tr.checkpoint,
                       "--checkpoint" if checkpoint is not None else "train.checkpoint")
    game = registry.get(spec.game)
    trainer = use(game, "trainer").trainer()
    setup = trainer.setup(spec.checked_options())
    if resume:
        state = load_checkpoint(tr.checkpoint, spec.name, trainer)
        saved = train_spec(spec.game, state.spec)
        _same_run(saved, games, seed)
        # a run resumes with its own settings; only where files go may change
        tr = dataclasses.replace(saved, jobs=tr.jobs, model=tr.model, checkpoint=tr.checkpoint)
    else:
        from pathlib import Path
        if Path(tr.checkpoint).exists() and not restart:
            raise InputError(f"checkpoint {tr.checkpoint!r} exists: continue it with --resume "
                             "or start over with --restart")
        state = new_state(spec.name, tr, setup)
    names = {n for n in (*tr.opponents, *tr.probe) if n not in (SELF, SNAPSHOT)}
    opponents = {n: train_bot(game, n) for n in names}
    try:
        with stop_signals(), WorkerPool(resolve_jobs(tr.jobs)) as pool, \
                TrainProgress() as progress:
            state = train(state, tr, opponents, pool, progress=progress)
    except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM; the status line is gone now
        stop_line(_stopped(stop, tr))
    last = state.curve[-1]["score_vs"] if state.curve else {}
    data = {"study": spec.name, "games_trained": state.games, "model": tr.model,
            "checkpoint": tr.checkpoint, **trainer.summary(tr.options),
            "seconds": round(state.seconds, 1), "score_vs": last, "curve": state.curve,
            "meta": model_of(state, tr).meta}
    if json_out:
        print_json(data)
        return
    console.print(f"{spec.name}: {state.games:,} games trained in {state.seconds:,.0f} s; "
                  f"model {tr.model}", highlight=False)
    for name, est in last.items():
        console.print(f"  vs {name}: {_interval(est)}", highlight=False)


def _stopped(stop: KeyboardInterrupt, tr: Any) -> str:
    """The line a stopped ``train`` leaves: what was kept and the command that continues."""
    from tuning.train import TrainingStopped

    if not isinstance(stop, TrainingStopped):
        return f"stopped before training started (nothing changed); run it with: {given_command()}"
    if stop.checkpoint is None:
        return ("stopped during the first round: nothing to keep; start again with: "
                + given_command())
    return (f"stopped after {stop.games:,} of {stop.total:,} games; kept in {stop.checkpoint} "
            f"(model {tr.model}); continue with: "
            + given_command(drop=("--restart",), add=("--resume",)))


def _same_run(saved: Any, games: int | None, seed: int | None) -> None:
    """``--resume`` continues the checkpoint's run with its own games and seed: a different
    ``-n`` or ``--seed`` beside it would be ignored, so it is refused."""
    for flag, given, kept in (("--games", games, saved.games), ("--seed", seed, saved.seed)):
        if given is not None and given != kept:
            raise InputError(f"{flag} {given}: the checkpoint's run has {flag} {kept} and "
                             f"--resume continues it as it was; drop {flag} or start over "
                             "with --restart")


def _overridable(tr: Any) -> dict[str, Any]:
    """The spec's train table as TOML-like values (tuples as lists) for re-validation."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in tr.to_dict().items()}
