"""`tabletune board GAME --kingdom K`: what wins on this board (:mod:`tuning._board`).

Games offer it through their ``board`` part (:mod:`games.capabilities`); the command
searches for the budget given, confirms the winner against the board's ladder on fresh
seeds, writes the board's folder and prints the strategy with its ladder (``--json``: the
result as data on stdout; progress goes to stderr). Ctrl-C keeps the search's checkpoint:
``--resume`` continues it.
"""

from __future__ import annotations

from pathlib import Path

import typer

from games.errors import check_seed
from tuning import _limits as limits
from tuning.commands._apps import app, clean_errors, console, err_console, print_json


@app.command("board")
@clean_errors
def board_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="A game with a board "
                                                              "optimiser."),
    kingdom: str = typer.Option("", "--kingdom", "-k",
                                help="the board: ten base-set cards (comma-separated), a "
                                     "preset such as attack, or random:N"),
    minutes: float = typer.Option(5.0, "--minutes", "-m", help="time budget in minutes "
                                                               "(search, selection and "
                                                               "confirmation)"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="worker processes (-1: every core)"),
    seed: int = typer.Option(1, "--seed", "-s", help="root seed of the search and of the "
                                                     "fresh seeds that confirm it"),
    games: int = typer.Option(20_000, "--games", "-n", help="games against each ladder bot "
                                                            "in the confirmation"),
    out: Path | None = typer.Option(None, "--out", help="the board's folder (default "
                                                        "runs/boards/<board>/)"),
    resume: bool = typer.Option(False, "--resume", help="continue the board's interrupted "
                                                        "search"),
    backend: str = typer.Option("loky", "--backend", help="where games run: loky (this "
                                                          "machine), dask or ray"),
    address: str | None = typer.Option(None, "--address", help="a Dask scheduler or Ray "
                                                               "cluster (default: local)"),
    as_json: bool = typer.Option(False, "--json", help="print the result as JSON"),
) -> None:
    """What wins on this board: search, then confirm against the board's ladder."""
    from tuning._board import BoardInterrupted, BoardRequest, board_part, find, folder

    check_seed(seed, "--seed")
    jobs = limits.workers(jobs)
    req = BoardRequest(game_name, kingdom, minutes, jobs, seed, games, out, resume, backend,
                       address)
    part = board_part(game_name)
    where = folder(part, part.board(kingdom), out)
    try:
        result = find(req, progress=lambda line: err_console.print(line, highlight=False,
                                                                   markup=False))
    except BoardInterrupted as stop:
        again = f"tabletune board {game_name} --kingdom {kingdom} --resume"
        if out is not None:
            again += f" --out {out}"
        if stop.best is not None:
            score = "" if stop.score is None else f"{stop.score:.3f} against the ladder in " \
                                                  "the search: "
            err_console.print(f"best so far ({score}{stop.best})", highlight=False,
                              markup=False, soft_wrap=True)
        kept = (f"the search so far is kept in {where}/search.ckpt; continue it with: "
                f"{again}") if (where / "search.ckpt").exists() else \
            "stopped before the first generation was done: nothing to continue"
        err_console.print(f"stopped: {kept}", highlight=False, markup=False)
        raise typer.Exit(130) from None
    if as_json:
        print_json(result)
        return
    console.print(f"[bold]{result['strategy']}[/bold]", highlight=False, soft_wrap=True)
    for name, row in result["ladder"].items():
        lo, hi = row["score_ci"]
        console.print(f"  vs {name:<26} {100 * row['score']:5.1f}% [{100 * lo:.1f}, "
                      f"{100 * hi:.1f}]  ({row['games']:,} games)", highlight=False)
    console.print(f"{result['games']:,} games, {result['seconds']:.0f} s; report: "
                  f"{where}/README.md", highlight=False)

