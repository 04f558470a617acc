"""`tabletune play thegame` and `tabletune bots thegame`: simulate The Game's players."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

import typer
from rich.table import Table

from games.core import InputError, param_ranges, parse_param_assignments
from games.thegame import PLAYERS, build_params, run
from tuning.commands.apps import bots_app, console, err_console, play_app, print_json


def _clean_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Bad input: one line on stderr and exit status 2, also when called without main()."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except InputError as exc:
            err_console.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
            raise typer.Exit(2) from None

    return wrapper


@play_app.command("thegame")
@_clean_errors
def play_thegame(
    player: str = typer.Option("recovery-fallback", "--player", "-p",
                               help="player (see `tabletune bots thegame`)"),
    depth: int = typer.Option(0, "--depth", "-d", help="search depth d (0 = greedy turn)"),
    games: int = typer.Option(100_000, "-n", "--games", help="number of games"),
    seed: int = typer.Option(0, "--seed", help="root seed of the games"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="worker processes (joblib)"),
    param: list[str] = typer.Option([], "--param", help="name=value, repeatable"),
    players: int = typer.Option(1, "--players", help="players at the table (1-5)"),
    expert: bool = typer.Option(False, "--expert", help="lay at least 3 cards a turn"),
    strict_end: bool = typer.Option(False, "--strict-end",
                                    help="a turn that falls short lays nothing"),
    block: int = typer.Option(2000, "--block", help="games per seed block"),
    as_json: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """Simulate games of The Game with one player family; print wins and cards left."""
    if games <= 0:
        raise InputError(f"-n must be a positive number of games, got {games}")
    if jobs == 0 or jobs < -1:
        raise InputError(f"--jobs must be a positive number (or -1 for all cores), got {jobs}")
    if block <= 0:
        raise InputError(f"--block must be positive, got {block}")
    values = parse_param_assignments(param)
    params = build_params(player, values)  # InputError on unknown / out-of-range
    result = run(player, {k: getattr(params, k) for k in values}, depth, games, seed, jobs,
                 players, expert, not strict_end, block)
    result["params"] = dataclasses.asdict(params)
    if as_json:
        print_json(result)
        return
    lo, hi = result["win_rate_ci"]
    console.print(
        f"[bold]{player}[/] d={depth} players={players}{' expert' if expert else ''}: "
        f"{result['wins']}/{result['games']} wins = {100 * result['win_rate']:.2f}% "
        f"(95% CI {100 * lo:.2f}..{100 * hi:.2f}%), "
        f"mean cards left {result['mean_cards_left']:.2f}, "
        f"under 10: {100 * result['under_10_rate']:.1f}%, "
        f"{result['games_per_second']:.0f} games/s")


@bots_app.command("thegame")
def bots_thegame(as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """List The Game's players with their tunable parameters and defaults."""
    rows = []
    for spec in PLAYERS.values():
        defaults = dataclasses.asdict(spec.params_type())
        ranges = param_ranges(spec.params_type)
        params = {
            name: {"default": defaults[name],
                   **({"choices": list(r.choices)} if r.choices else {"low": r.low,
                                                                      "high": r.high})}
            for name, r in ranges.items()}
        rows.append({"name": spec.name, "summary": spec.summary, "params": params})
    if as_json:
        print_json(rows)
        return
    table = Table(title="The Game players (tabletune play thegame --player NAME)")
    table.add_column("player")
    table.add_column("value function")
    table.add_column("parameters (default)")
    for row in rows:
        table.add_row(row["name"], row["summary"],
                      ", ".join(f"{k}={v['default']}" for k, v in row["params"].items()))
    console.print(table)
