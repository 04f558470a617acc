"""The ``tabletune`` command line: a thin Typer shell over games/ and tuning/.

Command modules live in ``tuning/commands``; importing them attaches their commands to the
groups defined in ``tuning.commands._apps``. Bad input raises ``InputError``, which is shown
as one line on stderr with exit status 2, never as a traceback.

:func:`main` imports only the module of the command it runs (``tuning.commands._lazy``);
``--help`` imports none. A Ctrl-C while one loads (numba's start-up) ends like any other
Ctrl-C: one line, exit 130. ``tuning.cli.app`` gives the Typer app with every command
module imported, to code that wants it whole.
"""

from __future__ import annotations

import sys
from typing import Any


def _load_app() -> Any:
    """Import every module of ``tuning.commands`` (each attaches its own commands) and
    return the assembled app."""
    import importlib

    from tuning.commands import COMMANDS, app, command_modules

    for name in command_modules():
        importlib.import_module(f"tuning.commands.{name}")
    # in the table's order, whichever module an earlier caller imported first
    order = {name: i for i, name in enumerate(COMMANDS)}
    app.registered_commands.sort(key=lambda c: order.get(c.name or "", len(order)))
    app.registered_groups.sort(key=lambda g: order.get(g.name or "", len(order)))
    return app


def __getattr__(name: str) -> Any:
    if name == "app":
        return _load_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Console-script entry point."""
    try:
        from games import compiling
        from games.errors import InputError
        from tuning.commands import app, err_console, show_error
        compiling.enable()  # a first use that compiles kernels says so on stderr
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    try:
        app()
    except InputError as exc:
        show_error(str(exc))
        sys.exit(2)
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
