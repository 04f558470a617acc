"""The top-level command group, which imports a command's module only when it runs.

``tabletune --help`` lists every command but runs none, so it imports no command module:
the listing reads each command's one-line summary from :data:`COMMANDS`. A command that
runs (or shows its own help) imports its module, which attaches its commands to
:data:`tuning.commands._apps.app` as before. This is click's lazy-group pattern; it keeps
``--help`` and ``studies`` off the imports of the commands they do not use
(``benchmarks/cli_startup.py``). ``tests/tuning/test_cli_lazy.py`` holds the table to the
modules: the same commands, the same summaries, in the order ``--help`` shows them.
"""

from __future__ import annotations

import difflib
import importlib
from typing import Any, NamedTuple

import typer
from typer.core import TyperCommand

from tuning.commands._flags import CheckedGroup


class Entry(NamedTuple):
    """Where a command lives and the first paragraph of its help (what ``--help`` lists)."""

    module: str
    summary: str


#: every top-level command in the order ``tabletune --help`` lists them
COMMANDS: dict[str, Entry] = {
    "balance": Entry("balance", "Tune a game's rules towards a balance target; report "
                                "against the printed rules."),
    "board": Entry("board", "What wins on this board: search, then confirm against the "
                            "board's ladder."),
    "deviation": Entry("deviation", "Is any one-step neighbour of a study's best better "
                                    "beyond noise? Paired games."),
    "evolve": Entry("evolve", "Evolve a genome (DEAP) as a study spec describes; checkpoints "
                              "as it goes."),
    "ladder": Entry("ladder", "A round robin of bots: score matrix, Elo-scale ratings with "
                              "intervals, Alpha-Rank."),
    "page": Entry("pages", "Write index.html from README.md for reproduction and "
                           "hand-written reports."),
    "storage-proxy": Entry("proxy", "Serve a study database to many workers over gRPC "
                                    "(Ctrl-C to stop)."),
    "reproduce": Entry("reproduce", "Reproduce a report's tables: write its data JSON and "
                                    "README.md."),
    "studies": Entry("study", "List the ready-made study specs in studies/ with one line "
                              "each."),
    "run": Entry("study", "Run (or resume) an Optuna study until it holds the requested "
                          "number of trials."),
    "report": Entry("study", "Write index.html, README.md and PNG figures for a study or an "
                             "evolution."),
    "dashboard": Entry("study", "Serve optuna-dashboard on a study storage (Ctrl-C to stop)."),
    "train": Entry("train", "Train the learned player (self-play and a pool of opponents), "
                            "checkpointing as it goes."),
    "watch": Entry("watch", "Watch one game move by move: each position and each decision "
                            "with its score."),
    "play": Entry("game_groups", "Simulate games between named strategies."),
    "solve": Entry("game_groups", "Solve a game exactly where that is possible."),
    "bots": Entry("game_groups", "List the strategies (bots, players) of a game."),
}


def command_modules() -> list[str]:
    """The public modules of ``tuning.commands`` by name (the private ones are helpers):
    importing one attaches its commands to the app (helpers attach none)."""
    import pkgutil

    import tuning.commands

    names = sorted(m.name for m in pkgutil.iter_modules(tuning.commands.__path__))
    return [n for n in names if not n.startswith("_")]


class LazyGroup(CheckedGroup):
    """A :class:`CheckedGroup` that knows its commands from :data:`COMMANDS` and imports a
    command's module on first use; while it formats its own help it lists the summaries."""

    _listing = False
    #: the Typer app whose command modules attach to it; set by :mod:`tuning.commands._apps`,
    #: which builds the app with this class (so this module need not import that one)
    typer_app: Any = None

    def list_commands(self, ctx: Any) -> list[str]:
        return [*COMMANDS, *(n for n in super().list_commands(ctx) if n not in COMMANDS)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        known = super().get_command(ctx, cmd_name)
        if known is not None:
            return known
        entry = COMMANDS.get(cmd_name)
        if self._listing:
            return None if entry is None else TyperCommand(cmd_name, help=entry.summary)
        # a name the table lacks may still be a command of a module: import them all
        modules = command_modules() if entry is None else [entry.module]
        return self._load(ctx, modules).get(cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """As Typer's, whose "Did you mean" looks only among the commands built so far: this
        one looks among them all."""
        try:
            return super().resolve_command(ctx, args)
        except typer.TyperException as exc:
            message = getattr(exc, "message", None)
            if self.suggest_commands and args and isinstance(message, str) \
                    and "Did you mean" not in message:
                close = difflib.get_close_matches(args[0], self.list_commands(ctx))
                if close:
                    names = ", ".join(repr(name) for name in close)
                    exc.message = f"{message.rstrip('.')}. Did you mean {names}?"
            raise

    def _load(self, ctx: Any, modules: list[str]) -> dict[str, Any]:
        """Import ``tuning.commands.MODULE`` for each of ``modules`` and add the commands
        they attached to the app; all commands known by now, by name."""
        import typer.main

        app = LazyGroup.typer_app
        for module in modules:
            importlib.import_module(f"tuning.commands.{module}")
        built = typer.main.get_command(app)
        for name, command in getattr(built, "commands", {}).items():
            if super().get_command(ctx, name) is None:
                self.add_command(command, name)
        return self.commands

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False
