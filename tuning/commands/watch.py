"""`tabletune watch GAME`: one game move by move, for people who want to see what a bot does.

Game ``--game I`` of the run with root ``--seed S`` is the very game that `tabletune play`
plays at that index (same deal, seats rotated the same way), shown through the
game's ``watch`` hook (the ``watch`` capability of :mod:`games.capabilities`).
A game without the hook says so in one line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from games.errors import InputError, check_seed
from tuning import _limits as limits
from tuning.commands._apps import app, clean_errors, console, err_console
from tuning.commands._play import line_up

if TYPE_CHECKING:
    from games import registry


def _options(game: registry.Game, items: list[str]) -> dict[str, Any]:
    """``--option name=value`` items as the game's checked options."""
    values: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise InputError(f"--option expects name=value, got {item!r}")
        values[name.strip().replace("-", "_")] = value.strip()
    from games.options import check_exclusive

    check_exclusive(game.options, values, spell=lambda o: f"--option {o.name}")
    return game.check_options(values)


@app.command("watch")
@clean_errors
def watch_command(
    game_name: str = typer.Argument(..., metavar="GAME", help="A registered game."),
    bots: str | None = typer.Option(None, "--bots", "-b",
                                    help="bots in seat order of game 0, comma-separated; "
                                         "name:value sets parameters (minimax:3)"),
    seed: int = typer.Option(0, "--seed", "-s", help="root seed of the run"),
    index: int = typer.Option(0, "--game", "-i", help="which game of the run (0, 1, ...)"),
    option: list[str] = typer.Option([], "--option", "-o",
                                     help="a game option name=value (repeatable), e.g. "
                                          "cap=50"),
    players: int | None = typer.Option(None, "--players",
                                       help="seats (one bot given: it fills them all)"),
) -> None:
    """Watch one game move by move: each position and each decision with its score."""
    from games import registry
    from games.capabilities import offers, use

    game = registry.get(game_name)
    if not offers(game, "watch"):
        raise InputError(f"{game.name} has no move-by-move view (no watch hook)")
    check_seed(seed, "--seed")
    limits.GAME_INDEX.check(index, "--game")
    options, notes = use(game, "settle").settle_options(_options(game, option), seed)
    for line in notes:
        err_console.print(line, highlight=False, markup=False, soft_wrap=True)
    specs = line_up(game, bots, [], [], players, options)
    game.seats(len(specs), options)
    text = game.watch(specs, options, seed, index)
    console.print(text, highlight=False, markup=False, soft_wrap=True)
