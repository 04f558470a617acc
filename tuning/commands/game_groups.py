"""Command groups with one command per game (`play`, `bots`, `solve`), built on demand.

The groups know the games by name (:func:`games.catalog.known_names`) and build the command
of a game only when it is asked for, from that game's description: `tabletune play GAME`
imports that game alone, and `tabletune --help` imports no game at all. Listing a
group (`tabletune play --help`) builds every game's command, as it must show their help.
Importing this module attaches the three groups to the app.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.names import known_names
from tuning.commands._apps import app, new_typer
from tuning.commands._flags import CheckedGroup, _refuse


class GameGroup(CheckedGroup):
    """A group whose commands are the games; subclasses say how to build one command."""

    def offers(self, game: Any) -> bool:
        """Whether this group has a command for ``game`` (a registry description)."""
        return True

    def build(self, game: Any) -> tuple[Callable[..., Any], str | None]:
        """The command function of ``game`` and its one-line help (None: the docstring's)."""
        raise NotImplementedError

    def list_commands(self, ctx: Any) -> list[str]:
        found = set(super().list_commands(ctx))
        for name in known_names():
            if name not in found and self.get_command(ctx, name) is not None:
                found.add(name)
        return sorted(found)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        known = super().get_command(ctx, cmd_name)
        if known is not None:
            return known
        if cmd_name not in known_names():
            return None
        from games import registry  # a Ctrl-C while the engine loads: flags.OneLineStop

        game = registry.get(cmd_name)
        if not self.offers(game):
            return None
        command = _click_command(cmd_name, *self.build(game))
        self.add_command(command, cmd_name)
        return command


    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """As click's, but an unknown game is one line naming the games this group
        offers (exit status 2), not a usage box."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            offered = ", ".join(self.list_commands(ctx)) if name not in known_names() \
                else ""
            if offered:
                _refuse(f"unknown game '{name}' (choose from {offered})")
            _refuse(f"{ctx.info_name} offers nothing for the game '{name}'")
        return super().resolve_command(ctx, args)


def _click_command(name: str, func: Callable[..., Any], help: str | None) -> Any:
    """One Typer-style function as a click command, with the checks every command has."""
    import typer.main

    single = new_typer()
    single.command(name, help=help)(func)
    return typer.main.get_command(single)


class PlayGroup(GameGroup):
    """`tabletune play GAME`: a match between named bots of one game."""

    def build(self, game: Any) -> tuple[Callable[..., Any], str | None]:
        from tuning.commands._play import make_play_command

        return make_play_command(game), f"Play {game.summary}."


class BotsGroup(GameGroup):
    """`tabletune bots GAME`: a game's bots and their parameters."""

    def build(self, game: Any) -> tuple[Callable[..., Any], str | None]:
        from tuning.commands._bots import make_bots_command

        return make_bots_command(game), None


class SolveGroup(GameGroup):
    """`tabletune solve GAME`: games with an exact solver."""

    def offers(self, game: Any) -> bool:
        from games.capabilities import offers

        return offers(game, "solver")

    def build(self, game: Any) -> tuple[Callable[..., Any], str | None]:
        from tuning.commands._solve import make_solve_command

        return make_solve_command(game), None


play_app = new_typer(cls=PlayGroup, help="Simulate games between named strategies.",
                     no_args_is_help=True)
solve_app = new_typer(cls=SolveGroup, help="Solve a game exactly where that is possible.",
                      no_args_is_help=True)
bots_app = new_typer(cls=BotsGroup, help="List the strategies (bots, players) of a game.",
                     no_args_is_help=True)
app.add_typer(play_app, name="play")
app.add_typer(solve_app, name="solve")
app.add_typer(bots_app, name="bots")
