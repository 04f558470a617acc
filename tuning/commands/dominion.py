"""`tabletune play dominion` and `tabletune bots dominion`: matches between Dominion bots."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

import typer
from rich.table import Table

from games.core import InputError, param_ranges, parse_param_assignments
from games.dominion import (
    BotSpec,
    GameConfig,
    bot_names,
    build_bot,
    parse_kingdom,
    play_many,
    spec_from_text,
    to_match_result,
)
from games.dominion.bots import NAMED, HeuristicParams
from games.dominion.match import labels_for
from tuning.commands.apps import bots_app, console, err_console, play_app, print_json


def _clean_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Bad input: one line on stderr and exit status 2, also when called without main()."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except InputError as exc:
            err_console.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
            raise typer.Exit(2) from None

    return wrapper


def _line_up(bots: str | None, bot: list[str], params: list[str]) -> list[BotSpec]:
    """Bots from --bots (names, comma-separated) then each --bot (a name or a buy list)."""
    specs = [spec_from_text(t, allow_buylist=False) for t in (bots or "").split(",") if t.strip()]
    specs += [spec_from_text(t) for t in bot]
    if not specs:
        raise InputError("name the bots: --bots big-money,smithy-big-money "
                         "or --bot 'province | gold | silver' (see `tabletune bots dominion`)")
    values = parse_param_assignments(params)
    if values:
        if not any(s.name == "heuristic" and s.buylist is None for s in specs):
            raise InputError("--param applies to the heuristic bot, which is not in the line-up")
        specs = [BotSpec(s.name, values) if s.name == "heuristic" and s.buylist is None else s
                 for s in specs]
    for s in specs:
        build_bot(s)  # unknown parameters or values out of range fail here
    return specs


def _print_match(result: Any, players: int, rotate: bool) -> None:
    seats = "seats rotated" if rotate else "fixed seats"
    table = Table(title=f"Dominion, {result.games} games, {players} players, {seats}")
    table.add_column("bot", overflow="fold")
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("95% CI", justify="right")
    table.add_column("W/T/L", justify="right")
    table.add_column("score by seat", justify="right")
    for name in result.bots:
        rec = result.per_bot[name]
        lo, hi = rec.score_ci
        seats = " ".join(f"{r.score:.3f}" if r.games else "-" for r in result.per_seat[name])
        table.add_row(name, f"{rec.score:.4f}", f"{lo:.4f}-{hi:.4f}",
                      f"{rec.wins}/{rec.ties}/{rec.losses}", seats)
    console.print(table)
    console.print(f"mean turns {result.mean_turns:.2f}, tied games {result.extra['tied_games']}, "
                  f"capped games {result.capped_games}, {result.seconds:.2f} s, "
                  f"{result.games_per_second:,.0f} games/s")


def _solo(specs: list[BotSpec], games: int, seed: int, jobs: int, config: GameConfig,
          as_json: bool) -> None:
    out: dict[str, Any] = {"games": games, "solo_provinces": config.solo_provinces, "bots": {}}
    total_seconds = 0.0
    for label, spec in zip(labels_for(specs), specs, strict=True):
        res = play_many([spec], games, seed, jobs, players=1, config=config)
        m = to_match_result([spec], res)
        total_seconds += res.seconds
        out["bots"][label] = {"mean_turns": m.extra["turns"]["mean"],
                              "turns_ci": m.extra["turns"]["ci95"],
                              "capped_games": m.capped_games}
    out["seconds"] = total_seconds
    out["games_per_second"] = games * len(specs) / total_seconds if total_seconds else None
    if as_json:
        print_json(out)
        return
    table = Table(title=f"Dominion solo: turns to {config.solo_provinces} Province(s), "
                        f"{games} games each")
    for col in ("bot", "mean turns", "95% CI", "capped"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for label, row in out["bots"].items():
        lo, hi = row["turns_ci"]
        table.add_row(label, f"{row['mean_turns']:.2f}", f"{lo:.2f}-{hi:.2f}",
                      str(row["capped_games"]))
    console.print(table)


@play_app.command("dominion")
@_clean_errors
def play_dominion(
    bots: str = typer.Option(None, "--bots", "-b",
                             help="comma-separated bot names, one per seat"),
    bot: list[str] = typer.Option([], "--bot",
                                  help="one more bot: a name or a buy list in quotes "
                                       "(repeatable), e.g. --bot 'province | gold | silver'"),
    games: int = typer.Option(10_000, "--games", "-n", help="number of games"),
    players: int = typer.Option(None, "--players", "-p",
                                help="players per game, 2-4 (default: number of bots; "
                                     "one bot plays a mirror)"),
    kingdom: str = typer.Option("default", "--kingdom", "-k",
                                help="comma-separated kingdom cards, or default (seed 001), "
                                     "blog (seed 004: smithy,steward), none"),
    seed: int = typer.Option(0, "--seed", "-s", help="root seed; game i uses its own seed"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="worker processes"),
    param: list[str] = typer.Option([], "--param", help="heuristic bot parameter name=value"),
    end_rule: str = typer.Option("standard", "--end-rule",
                                 help="standard (Provinces or 3 piles) or provinces"),
    tiebreak: bool = typer.Option(True, "--tiebreak/--no-tiebreak",
                                  help="a VP tie goes to the player with fewer turns"),
    rotate: bool = typer.Option(True, "--rotate/--fixed-seats",
                                help="rotate seats every game (fixed: in the order given)"),
    cap: int = typer.Option(100, "--cap", help="stop a game after this many rounds"),
    solo: int = typer.Option(0, "--solo",
                             help="solo mode: each bot alone, turns to this many Provinces"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of a table"),
) -> None:
    """Play N games of Dominion between bots, seats rotated; score = wins + ties / 2."""
    specs = _line_up(bots, bot, param)
    if games < 1:
        raise InputError("--games must be at least 1")
    if jobs < 1:
        raise InputError("--jobs must be at least 1")
    config = GameConfig(parse_kingdom(kingdom), end_rule, tiebreak, cap, solo).checked()
    if solo:
        if players is not None:
            raise InputError("--solo plays each bot alone; leave out --players")
        _solo(specs, games, seed, jobs, config, as_json)
        return
    if players is None:
        players = 2 if len(specs) == 1 else len(specs)
    if not 2 <= players <= 4:
        raise InputError(f"--players must be 2-4 (use --solo N for one player), got {players}")
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise InputError(f"{players} players need {players} bots (or one bot for a mirror), "
                         f"got {len(specs)}")
    res = play_many(specs, games, seed, jobs, players=players, rotate=rotate, config=config)
    result = to_match_result(specs, res)
    if as_json:
        print_json({**result.to_dict(), "players": players, "seed": seed,
                    "kingdom": list(config.kingdom), "end_rule": end_rule,
                    "tiebreak": tiebreak, "rotated": rotate, "jobs": jobs})
    else:
        _print_match(result, players, rotate)


@bots_app.command("dominion")
@_clean_errors
def list_dominion_bots(
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of a table"),
) -> None:
    """List the Dominion bots (kebab-case names) with one-line descriptions."""
    names = bot_names()
    rows = {name: {"description": desc, "buy_list": NAMED[name][0] if name in NAMED else None}
            for name, desc in names.items()}
    ranges = param_ranges(HeuristicParams)
    rows["heuristic"]["params"] = {
        f.name: {"default": f.default, "low": ranges[f.name].low, "high": ranges[f.name].high}
        for f in dataclasses.fields(HeuristicParams)}
    if as_json:
        print_json(rows)
        return
    table = Table(title="Dominion bots (any buy list works too: --bot 'province | gold | "
                        "smithy:1 | silver')")
    table.add_column("name")
    table.add_column("description")
    table.add_column("buy list")
    for name, row in rows.items():
        table.add_row(name, row["description"], row["buy_list"] or "")
    console.print(table)
    console.print("heuristic parameters (--param name=value; ranges: --json): "
                  + ", ".join(rows["heuristic"]["params"]), highlight=False)
