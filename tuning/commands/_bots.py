"""`tabletune bots GAME [NAME ...]`: a game's bots, built from its registry description.

The listing gives each bot one row (name, description, how many parameters it takes),
so a game whose bots carry dozens of tunable parameters still lists in a screenful; the
parameter tables (default and range of each) come for the bots named, or for every bot
with ``--params``. ``--json`` gives complete rows, every parameter included: the named
bots' or, with no name, every bot's.
Nothing here imports a game at module level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from rich.table import Table

from games.errors import InputError
from tuning.commands._apps import clean_errors, console, print_json

if TYPE_CHECKING:
    from games import registry


def bot_rows(game: registry.Game) -> dict[str, dict[str, Any]]:
    """Every bot of ``game`` as JSON-ready rows: description, text form (a named bot's buy
    list, say), positional parameters and each parameter's default and range."""
    from games import registry

    return {name: {"description": info.summary,
                   **({"aliases": list(info.aliases)} if info.aliases else {}),
                   **({"text": info.detail} if info.detail else {}),
                   "positional": list(info.positional),
                   "params": registry.describe_params(info.params_type)}
            for name, info in game.bots().items()}


def chosen(rows: dict[str, dict[str, Any]], names: list[str], game: str
           ) -> dict[str, dict[str, Any]]:
    """The rows of the bots named, by name or alias (all when none is); an unknown name is
    bad input."""
    from games.bot_names import find_bot

    out = {}
    for raw in names:
        name = find_bot(raw, {n: tuple(r.get("aliases", ())) for n, r in rows.items()})
        if name is None:
            raise InputError(f"unknown bot {raw!r} for {game}; known bots: {', '.join(rows)}")
        out[name] = rows[name]
    return out or rows


def range_text(param: dict[str, Any]) -> str:
    """A parameter's allowed values as one short text: ``low .. high``, the choices, or
    ``text`` / ``any`` for one without a declared range."""
    if "choices" in param:
        return " | ".join(map(str, param["choices"]))
    if "low" in param:
        return f"{param['low']:g} .. {param['high']:g}"
    return "text" if isinstance(param["default"], str) else "any"


def listing(game: registry.Game, rows: dict[str, dict[str, Any]]) -> Table:
    """One row per bot: name, the name players use (where a bot has one), one-line
    description, rules (a named bot's text form, such as its buy list) and parameter
    count."""
    table = Table(title=f"{game.name} bots (tabletune play {game.name} --bots NAME)",
                  caption=f"each bot's parameters, defaults and ranges: tabletune bots "
                          f"{game.name} NAME, or --params for every bot")
    called = any(row.get("aliases") for row in rows.values())
    rules = any(row.get("text") for row in rows.values())
    table.add_column("name", no_wrap=True)
    if called:
        table.add_column("players call it", no_wrap=True)
    table.add_column("description", overflow="fold")
    if rules:
        table.add_column("rules", overflow="fold")
    table.add_column("parameters", justify="right")
    for name, row in rows.items():
        cells = [name, *([(row.get("aliases") or [""])[0]] if called else []),
                 row["description"], *([row.get("text", "")] if rules else [])]
        table.add_row(*map(escape, cells), str(len(row["params"])))
    return table


def parameter_table(name: str, row: dict[str, Any], game: str) -> Table:
    """One bot's parameters: default and range of each, with how to set them."""
    usage = f"tabletune play {game} --bots {name}:PARAM=VALUE,..."
    if row["positional"]:
        usage += f" (by position: {name}:{','.join(row['positional']).upper()})"
    title = [f"{name}: {len(row['params'])} parameters", row["description"],
             *([f"also called: {', '.join(row['aliases'])}"] if row.get("aliases") else []),
             *([row["text"]] if row.get("text") else [])]
    table = Table(title=escape("\n".join(title)), caption=escape(usage), title_justify="left")
    table.add_column("parameter", no_wrap=True)
    table.add_column("default", justify="right")
    table.add_column("range")
    for pname, param in row["params"].items():
        default = param["default"]
        table.add_row(pname, escape('""' if default == "" else str(default)),
                      escape(range_text(param)))
    return table


def make_bots_command(game: registry.Game) -> Any:
    """The ``tabletune bots <game>`` command: the listing, or the named bots' parameters."""

    def bots(names: list[str] | None = typer.Argument(
                 None, metavar="NAME", show_default=False,
                 help="show these bots with every parameter's default and range"),
             params: bool = typer.Option(False, "--params",
                                         help="show every bot's parameter table"),
             as_json: bool = typer.Option(False, "--json",
                                          help="print JSON (always with every parameter)")
             ) -> None:
        rows = chosen(bot_rows(game), names or [], game.name)
        if as_json:
            print_json(rows)
        elif names or params:
            for name, row in rows.items():
                if row["params"]:
                    console.print(parameter_table(name, row, game.name))
                else:
                    console.print(escape(f"{name}: {row['description']} (no parameters)"))
        else:
            console.print(listing(game, rows))

    bots.__doc__ = (f"List the bots of {game.name}; with NAME (or --params) their "
                    "parameters, defaults and ranges.")
    return clean_errors(bots)
