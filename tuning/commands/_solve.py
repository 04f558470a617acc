"""`tabletune solve GAME` for every registered game with an exact solver.

The command is built when its game is asked for (:mod:`tuning.commands.game_groups`),
from the game's option schema and its ``solve_options``; the game's ``solve`` hook does the
work and returns the optimum and the exact value of each strategy.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table

from tuning.commands._apps import clean_errors, console, err_console, print_json
from tuning.commands._play import context_parameter, game_options, option_parameter, split_bots

if TYPE_CHECKING:
    from games import registry


def _print(game: registry.Game, out: dict[str, Any]) -> None:
    title = (f"{game.name}, {out['turns']} turns" if out.get("turns") is not None
             else f"{game.name}, end chance {out.get('end_chance', 0):g}")
    table = Table(title=title)
    for col in ("strategy", "expected score", "of optimum"):
        table.add_column(col, justify="left" if col == "strategy" else "right",
                         overflow="fold")
    table.add_row("optimal", f"{out['optimal']:.4f}", "100.00%")
    for name, value in (out.get("strategies") or {}).items():
        share = value / out["optimal"] if out["optimal"] else float("nan")
        table.add_row(name, f"{value:.4f}", f"{share:.2%}")
    console.print(table)
    note = f"solved in {out['seconds']:.2f} s"
    if out.get("error_bound") is not None:
        note += (f"; truncated at {out['truncation']} added cards, true optimum within "
                 f"+{out['error_bound']:.2g}")
    if out.get("efficient") is False or out.get("reachable") is False:
        note += f"; inefficient: {out['inefficient']}, unreachable: {out['unreachable']}"
    console.print(note, highlight=False)


def make_solve_command(game: registry.Game) -> Any:
    """The ``tabletune solve <game>`` command of one game with an exact solver."""
    from games.capabilities import use


    def solve(**kw: Any) -> None:
        options = game_options(game, kw)
        extra = {o.name: o.validate(kw[f"opt_{o.name}"], o.cli_flag)
                 for o in game.solve_options}
        extra["notify"] = lambda note: err_console.print(note, highlight=False)
        out = game.solve(options, split_bots(kw["evaluate"]), extra)
        if kw["as_json"]:
            print_json(out)
        else:
            _print(game, out)

    alias = use(game, "play_defaults").cli_aliases
    params = [
        context_parameter(),
        inspect.Parameter("evaluate", inspect.Parameter.KEYWORD_ONLY, annotation=str | None,
                          default=typer.Option(None, "--evaluate", "-e",
                                               help="strategies to value exactly, "
                                                    "comma-separated (';' between buy rules)")),
        inspect.Parameter("as_json", inspect.Parameter.KEYWORD_ONLY, annotation=bool,
                          default=typer.Option(False, "--json", help="print JSON")),
    ]
    for o in (*game.options, *game.solve_options):
        params.append(option_parameter(o, [a for a, t in alias.items() if t == o.cli_flag]))
    solve.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    solve.__doc__ = f"Solve {game.name} exactly: the optimal expected score, strategy values."
    return clean_errors(solve)
