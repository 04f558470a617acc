"""The ``tabletune`` command line: a thin Typer shell over games/ and tuning/.

Command modules live in ``tuning/commands``; importing them attaches their commands to the
groups defined in ``tuning.commands.apps``. Bad input raises ``InputError``, which is shown
as one line on stderr with exit status 2, never as a traceback.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import tuning.commands
from games.core import InputError
from tuning.commands import apps


def _load_command_modules() -> None:
    """Import every module of ``tuning.commands``: each one attaches its own commands."""
    for info in sorted(pkgutil.iter_modules(tuning.commands.__path__), key=lambda m: m.name):
        if info.name != "apps" and not info.name.startswith("_"):
            importlib.import_module(f"tuning.commands.{info.name}")


_load_command_modules()
app = apps.app


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except InputError as exc:
        apps.show_error(str(exc))
        sys.exit(2)
    except KeyboardInterrupt:
        apps.err_console.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
