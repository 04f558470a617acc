"""What every command prints through: the consoles, error lines and JSON for scripts.

Kept apart from :mod:`tuning.commands._apps` (the Typer groups) so that the flag checks of
:mod:`tuning.commands._flags`, which those groups use, can print an error line without
importing the groups back.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Mapping
from typing import Any

from rich.console import Console


def _console(stderr: bool = False) -> Console:
    """A console that wraps at the terminal's width, and never cuts or wraps text that goes
    to a pipe or a file (scripts and logs read whole lines)."""
    stream = sys.stderr if stderr else sys.stdout
    piped = not stream.isatty()
    return Console(stderr=stderr, width=100_000 if piped else None, soft_wrap=piped)


console = _console()
err_console = _console(stderr=True)


def wants_json(argv: list[str] | None = None) -> bool:
    """Whether the command line asked for JSON output (errors then come as JSON too)."""
    args = sys.argv[1:] if argv is None else argv
    return "--json" in args[: args.index("--")] if "--" in args else "--json" in args


def show_error(message: str, status: int = 2) -> None:
    """One error line on stderr; with --json, a JSON object on stdout as well so that a
    script reading stdout gets {"error": ..., "exit_status": 2} instead of nothing."""
    from rich.markup import escape  # a message may contain [brackets]: show them as is
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False,
                      soft_wrap=True)
    if wants_json():
        sys.stdout.write(json.dumps({"error": message, "exit_status": status}) + "\n")
        sys.stdout.flush()


def _clean(value: Any) -> Any:
    """Make a value JSON-safe: numpy scalars to Python, NaN/inf to None, tuples to lists."""
    if isinstance(value, Mapping):  # dicts and a game's typed options
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
