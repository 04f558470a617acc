"""The Typer groups every command module attaches to, and the output helpers they share."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import typer
from rich.console import Console

app = typer.Typer(
    name="tabletune",
    help="Find strong strategies in card games: exact solvers, fast engines, Optuna and DEAP.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
play_app = typer.Typer(help="Simulate games between named strategies.", no_args_is_help=True)
solve_app = typer.Typer(help="Solve a game exactly where that is possible.", no_args_is_help=True)
bots_app = typer.Typer(help="List the strategies (bots, players) of a game.", no_args_is_help=True)
app.add_typer(play_app, name="play")
app.add_typer(solve_app, name="solve")
app.add_typer(bots_app, name="bots")

console = Console()
err_console = Console(stderr=True)


def _clean(value: Any) -> Any:
    """Make a value JSON-safe: numpy scalars to Python, NaN/inf to None, tuples to lists."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    if hasattr(value, "item") and callable(value.item) and getattr(value, "ndim", 1) == 0:
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def print_json(data: Any) -> None:
    """Write one JSON document to stdout (for scripts)."""
    sys.stdout.write(json.dumps(_clean(data), indent=2) + "\n")
    sys.stdout.flush()
