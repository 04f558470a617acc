"""`tabletune balance STUDY`: tune a game's rules towards a balance target
(:mod:`tuning.balance`).

The study's ``[balance]`` table names the bots and the target (the first seat's score, or a
matrix of scores between bots); its ``[space.RULE]`` tables the rules tuned. Trials are
kept in the study's storage: Ctrl-C or a kill, then the same command, continues. The
report (``--out``, default ``runs/reports/STUDY/``) compares the tuned rules with the
printed ones on fresh seeds and says what the change costs elsewhere.
"""

from __future__ import annotations

from pathlib import Path

import typer

from games.errors import check_seed
from tuning import _limits as limits
from tuning.commands._apps import (
    app,
    clean_errors,
    console,
    err_console,
    load_study,
    print_json,
)


@app.command("balance")
@clean_errors
def balance_command(
    study: str = typer.Argument(..., metavar="STUDY", help="A balance study: a spec name in "
                                                           "studies/ or a .toml path."),
    trials: int | None = typer.Option(None, "--trials", help="trials the study should hold "
                                                             "(default: the spec's)"),
    jobs: int | None = typer.Option(None, "--jobs", "-j", help="worker processes (-1: every "
                                                               "core)"),
    seed: int | None = typer.Option(None, "--seed", "-s", help="root seed (default: the "
                                                               "spec's)"),
    storage: str | None = typer.Option(None, "--storage", help="where the trials are kept "
                                                               "(default runs/STUDY.journal)"),
    option: list[str] = typer.Option([], "--option", "-o", help="a game option NAME=VALUE "
                                                                "(repeatable)"),
    out: Path | None = typer.Option(None, "--out", help="the report's folder (default "
                                                        "runs/reports/STUDY/)"),
    as_json: bool = typer.Option(False, "--json", help="print the result as JSON"),
) -> None:
    """Tune a game's rules towards a balance target; report against the printed rules."""
    from tuning._stopping import stop_signals
    from tuning.balance import BalanceInterrupted, run_balance, write_report
    from tuning.commands._progress import given_command

    limits.TRIALS.check_optional(trials, "--trials")
    workers = None if jobs is None else limits.workers(jobs)
    if seed is not None:
        check_seed(seed, "--seed")
    spec = load_study(study, option, "balance", trials=trials, jobs=workers, seed=seed,
                      storage=storage)

    def say(line: str) -> None:
        err_console.print(line, highlight=False, markup=False, soft_wrap=True)

    try:
        with stop_signals():
            result = run_balance(spec, storage, progress=say)
    except BalanceInterrupted as stop:
        say(f"stopped after trial {stop.done} of {stop.total}; kept in {stop.location}; "
            f"continue with: {given_command()}")
        raise typer.Exit(130) from None
    where = out or Path("runs") / "reports" / spec.name
    page = write_report(where, result, given_command())
    if as_json:
        print_json(result)
        return
    conf = result["confirmation"]
    console.print(f"tuned rules: {', '.join(f'{k}={v}' for k, v in result['best'].items())}",
                  highlight=False, soft_wrap=True)
    console.print(f"distance from the target on {conf['games']:,} fresh games: tuned "
                  f"{conf['tuned']['value']:.4f}, printed rules {conf['printed']['value']:.4f}"
                  f"; report: {page}", highlight=False, soft_wrap=True)
