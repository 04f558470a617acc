"""The command line's commands: each public module here is one command group, imported by
name when one of its commands runs (:data:`COMMANDS` and :func:`command_modules`, in
``_lazy``); it attaches its commands to the shared :data:`app` (``_apps``, with
:func:`show_error` and :data:`err_console`). The private modules are the commands' shared
helpers (flags, output, places, progress, the help's stand-ins). Nothing below the CLI
imports this package.
"""

from typing import TYPE_CHECKING

from games.lazy_exports import lazy_exports

if TYPE_CHECKING:  # what the names are, for type checkers; loaded on first use
    from tuning.commands._apps import app, err_console, show_error
    from tuning.commands._lazy import COMMANDS, command_modules

#: each public name and the private module that defines it
_EXPORTS = {
    "app": "_apps",
    "err_console": "_apps",
    "show_error": "_apps",
    "command_modules": "_lazy",
    "COMMANDS": "_lazy",
}
__all__ = [
    "app", "command_modules", "COMMANDS", "err_console", "show_error",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
