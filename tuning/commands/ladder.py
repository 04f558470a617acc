"""`tabletune ladder GAME --bots A,B,C -n N`: a round robin of bots (:mod:`tuning.ladder`).

Every line-up of the bots at the table size plays ``-n`` games with seats rotated; the
command prints the ratings (Elo scale, 95% bootstrap intervals) and Alpha-Rank, and writes
the ladder's folder (``--json``: the result as data on stdout; progress goes to stderr).
Each finished line-up is kept: after Ctrl-C or a kill the same command continues.
"""

from __future__ import annotations

from pathlib import Path

import typer

from games.errors import InputError, check_seed
from tuning import _limits as limits
from tuning.commands._apps import app, clean_errors, console, err_console, print_json


@app.command("ladder")
@clean_errors
def ladder_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="A game of two or more "
                                                              "players."),
    bots: str = typer.Option(..., "--bots", "-b", help="the bots, comma-separated (';' when "
                                                       "a bot's text holds commas)"),
    games: int = typer.Option(1000, "--games", "-n", help="games of each line-up"),
    players: int | None = typer.Option(None, "--players",
                                       help="seats at the table (default: 2 where the game "
                                            "takes 2)"),
    option: list[str] = typer.Option([], "--option", "-o", help="a game option NAME=VALUE "
                                                                "(repeatable)"),
    seed: int = typer.Option(1, "--seed", "-s", help="root seed (each line-up's is derived "
                                                     "from it and its bots)"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="worker processes (-1: every core)"),
    backend: str = typer.Option("loky", "--backend", help="where games run: loky (this "
                                                          "machine), dask or ray"),
    address: str | None = typer.Option(None, "--address", help="a Dask scheduler or Ray "
                                                               "cluster (default: local)"),
    out: Path | None = typer.Option(None, "--out", help="the ladder's folder (default "
                                                        "runs/ladders/<game>-<hash>/)"),
    restart: bool = typer.Option(False, "--restart", help="start the ladder in the folder "
                                                          "over"),
    as_json: bool = typer.Option(False, "--json", help="print the result as JSON"),
) -> None:
    """A round robin of bots: score matrix, Elo-scale ratings with intervals, Alpha-Rank."""
    from tuning._overrides import parse_items
    from tuning._stopping import stop_signals
    from tuning.commands._play import split_bots
    from tuning.evaluation import BACKENDS
    from tuning.ladder import LadderInterrupted, LadderRequest, run_ladder

    check_seed(seed, "--seed")
    limits.GAMES.check(games, "--games")
    workers = limits.workers(jobs)
    if backend not in BACKENDS:
        raise InputError(f"--backend {backend!r} is not one of {', '.join(BACKENDS)}")
    req = LadderRequest(game_name, tuple(split_bots(bots)), games, players,
                        parse_items(option), seed, workers, backend, address, out, restart)

    def say(line: str) -> None:
        err_console.print(line, highlight=False, markup=False, soft_wrap=True)

    try:
        with stop_signals():
            result = run_ladder(req, progress=say)
    except LadderInterrupted as stop:
        say(f"stopped: {stop.done} of {stop.total} line-ups kept in {stop.folder}; the same "
            "command continues the ladder")
        raise typer.Exit(130) from None
    if as_json:
        print_json(result)
        return
    for rank, (label, row) in enumerate(result["ratings"].items(), start=1):
        lo, hi = row["rating_ci"]
        mass = (result["alpharank"] or {}).get("mass", {}).get(label)
        extra = "" if mass is None else f"  alpha-rank {mass:.3f}"
        console.print(f"{rank:>3}. {label:<28} {row['rating']:6.0f} [{lo:.0f}, {hi:.0f}]"
                      f"  {row['wins']:,} wins of {row['games']:,}{extra}", highlight=False,
                      soft_wrap=True)
    console.print(f"{result['line_ups']} line-ups, {result['seconds']:.1f} s; report: "
                  f"{result['folder']}/index.html", highlight=False, soft_wrap=True)
