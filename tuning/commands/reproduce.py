"""`tabletune reproduce GAME`: regenerate a committed reproduction report (or a smaller one)."""

from __future__ import annotations

from pathlib import Path

import typer

from tuning import _limits as limits
from tuning._stopping import stop_signals
from tuning.commands import _places as places
from tuning.commands._apps import app, console, print_json
from tuning.commands._progress import given_command, stop_line


@app.command("reproduce")
def reproduce_command(
    game: str = typer.Argument(..., help="The reproduction, by name (a game's name or one "
                                         "of its reproductions); an unknown name lists them "
                                         "all."),
    out: Path | None = typer.Option(None, "--out",
                                    help="Report folder (default: the committed one under "
                                         "reports/)."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes, -1: every core "
                                                     "(same figures for any number)."),
    seed: int | None = typer.Option(None, "--seed", "-s",
                                    help="Root seed (default: the report's)."),
    from_json: bool = typer.Option(False, "--from-json",
                                   help="Only rewrite README.md from the data files there."),
    scale: float = typer.Option(1.0, "--scale", help="Multiply every default game count."),
    size: list[str] = typer.Option([], "--size",
                                   help="NAME=N: one size (e.g. d2-games=2000); repeatable."),
    parts: str | None = typer.Option(None, "--parts", help="Comma-separated parts to play."),
    param: list[str] = typer.Option([], "--param", "-p",
                                    help="NAME=VALUE: a strategy parameter; repeatable."),
    benchmark: Path | None = typer.Option(None, "--benchmark",
                                          help="A benchmark's JSON output to include "
                                               "(copied into the report as benchmark.json)."),
    json_out: bool = typer.Option(False, "--json", help="Print the files written as JSON."),
) -> None:
    """Reproduce a report's tables: write its data JSON and README.md.

    Full sizes take minutes to tens of minutes; `--scale 0.01` or `--size` make a quick
    run, `--from-json` rebuilds the README from committed data in seconds.
    """
    from games.errors import check_seed, parse_param_assignments
    from tuning.reproduce import game_module, parse_sizes, reproduce_game

    workers = limits.workers(jobs)
    if seed is not None:
        check_seed(seed, "--seed")
    limits.check_scale(scale)
    sizes = parse_sizes(size)
    for name, value in sizes.items():
        kind = limits.GAMES if name.endswith("games") else limits.GAME_INDEX
        kind.check(value, f"--size {name}")
    places.output_folder(out or game_module(game).FOLDER, "--out")
    if benchmark is not None:
        places.input_file(benchmark, "--benchmark")
    try:
        with stop_signals():
            written = reproduce_game(
                game, out, jobs=workers, seed=seed, from_json=from_json, scale=scale,
                sizes=sizes, parts=parts.split(",") if parts else None,
                params=parse_param_assignments(param), benchmark=benchmark)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM
        stop_line(f"stopped; {out or game_module(game).FOLDER} keeps what was written before "
                  "the stop (data files are saved as their rows finish); a reproduction has "
                  f"no resume: run it again with: {given_command()}")
    if json_out:
        print_json({"game": game, "written": [str(p) for p in written]})
        return
    for path in written:
        console.print(f"wrote {path}", highlight=False, soft_wrap=True)
    if not written:
        console.print("nothing written", highlight=False)
