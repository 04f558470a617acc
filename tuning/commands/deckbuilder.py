"""`tabletune solve|play|bots deckbuilder`: the exact solver and simulator of the
single-player deck-building model."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

import typer
from rich.table import Table

from games.core import Estimate, InputError, check_seed, parse_param_assignments
from games.deckbuilder import api, exact, strategies
from games.deckbuilder.budget import check_memory
from games.deckbuilder.model import CardSet, make_card_set
from tuning.commands.apps import (bots_app, console, err_console, play_app, print_json,
                                   show_error, solve_app)

CARDS_HELP = ("card set, comma-separated name:t<value>:c<cost> (treasure) or "
              "name:v<points>:c<cost> (victory); default: the thesis set "
              "copper:t1:c0,silver:t2:c3,gold:t3:c6,estate:v1:c2,duchy:v3:c5,province:v6:c8")
START_HELP = "starting deck as name=count pairs (default copper=7,estate=3)"


def _clean_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Bad input: one line on stderr and exit status 2, also under typer's test runner."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except InputError as exc:
            show_error(str(exc))
            raise typer.Exit(2) from None

    return wrapper


def _budget(size: int, cs: CardSet, what: str) -> None:
    """Refuse or warn from the memory estimate before the solver allocates anything."""
    note = check_memory(size, cs, what)
    if note:
        err_console.print(note, highlight=False, soft_wrap=True)


def _card_set(cards: str | None, start: str | None, hand: int) -> CardSet:
    return make_card_set(cards, start, hand)


def _names(text: str | None) -> list[str]:
    """Strategy names split on ','; with buy rules (which contain ','), split on ';'."""
    if text is None:
        return []
    sep = ";" if "@" in text else ","
    return [t.strip() for t in text.split(sep) if t.strip()]


@solve_app.command("deckbuilder")
@_clean_errors
def solve_deckbuilder(
    turns: int = typer.Option(31, "--turns", "-t", help="number of turns T (purchases)"),
    end_chance: float | None = typer.Option(
        None, "--end-chance", "-a", help="geometric end: the game ends after each turn with "
        "this chance, in (0, 1]; replaces --turns"),
    evaluate: str | None = typer.Option(
        None, "--evaluate", "-e", help="comma-separated strategies to value exactly, e.g. "
        "random,greedy,expensive,picky,heuristic (separate buy rules with ';')"),
    cards: str | None = typer.Option(None, "--cards", help=CARDS_HELP),
    start: str | None = typer.Option(None, "--start", help=START_HELP),
    hand: int = typer.Option(5, "--hand", help="cards per hand"),
    tol: float = typer.Option(1e-6, "--tol", help="geometric end: target error bound"),
    max_size: int = typer.Option(120, "--max-size",
                                 help="geometric end: largest number of added cards solved"),
    as_json: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """Solve the deck-building model exactly: optimal expected score, strategy values."""
    cs = _card_set(cards, start, hand)
    alpha = api.check_end_chance(end_chance)
    names = _names(evaluate)
    strats = [api.resolve(n) for n in names]
    for s in strats:
        if s.kind == "flatmc":
            raise InputError("flatmc samples by design and has no exact value; "
                             "use `tabletune play deckbuilder --strategy flatmc`")
    t0 = time.perf_counter()
    out: dict[str, Any] = {"card_set": cs.text(), "start": cs.start_text(), **cs.check()}
    if alpha is None:
        turns = exact.check_turns(turns)
        _budget(turns, cs, f"--turns {turns}")
        sol = exact.solve(turns, cs, keep_policy=False)
        out.update({"turns": turns, "optimal": sol.value})
        values = {s.name if s.kind != "rule" or s.rule_text is None else s.rule_text:
                  api.exact_value(s, turns, cs) for s in strats}
    else:
        from games.deckbuilder.geometric import geometric_values, horizon

        if max_size < 1:
            raise InputError(f"--max-size must be a whole number >= 1, got {max_size}")
        if not (0.0 < tol < 1.0):
            raise InputError(f"--tol must lie in (0, 1), got {tol}")
        size = horizon(alpha, cs.max_points, tol, max_size)
        _budget(size, cs, f"end chance {alpha:g} with --tol {tol:g} ({size} added cards)")

        # one sweep for the optimum and every strategy: hand probabilities are shared
        res, *others = geometric_values([api.resolve("optimal"), *strats], alpha, cs, tol,
                                        max_size)
        out.update({"turns": None, "end_chance": alpha, "optimal": res.value,
                    "error_bound": res.error_bound, "truncation": res.size})
        values = {s.rule_text or s.name: r.value for s, r in zip(strats, others, strict=True)}
    out["seconds"] = time.perf_counter() - t0
    if strats:
        out["strategies"] = values
    if as_json:
        print_json(out)
        return
    title = (f"deck-building model, {turns} turns" if alpha is None
             else f"deck-building model, end chance {alpha:g}")
    table = Table(title=title)
    table.add_column("strategy")
    table.add_column("expected score", justify="right")
    table.add_column("of optimum", justify="right")
    table.add_row("optimal", f"{out['optimal']:.4f}", "100.00%")
    for k, v in values.items():
        share = v / out["optimal"] if out["optimal"] else float("nan")
        table.add_row(k, f"{v:.4f}", f"{share:.2%}")
    console.print(table)
    note = f"solved in {out['seconds']:.2f} s"
    if alpha is not None:
        note += (f"; truncated at {out['truncation']} added cards, true optimum within "
                 f"+{out['error_bound']:.2g}")
    if not out["efficient"] or not out["reachable"]:
        note += f"; inefficient: {out['inefficient']}, unreachable: {out['unreachable']}"
    console.print(note)


@play_app.command("deckbuilder")
@_clean_errors
def play_deckbuilder(
    strategy: str = typer.Option("picky", "--strategy", "-s",
                                 help="strategy name or a buy rule such as "
                                      "'province@8 | gold@6 | silver@3'"),
    turns: int = typer.Option(31, "--turns", "-t", help="number of turns T"),
    games: int = typer.Option(10_000, "--games", "-n", help="number of games"),
    seed: int = typer.Option(0, "--seed", help="root seed (game i uses its own stream)"),
    end_chance: float | None = typer.Option(None, "--end-chance", "-a",
                                            help="geometric end chance in (0, 1]"),
    param: list[str] = typer.Option([], "--param", "-p", help="strategy parameter name=value"),
    cards: str | None = typer.Option(None, "--cards", help=CARDS_HELP),
    start: str | None = typer.Option(None, "--start", help=START_HELP),
    hand: int = typer.Option(5, "--hand", help="cards per hand"),
    as_json: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """Simulate games of one strategy: mean final score with its 95% interval."""
    cs = _card_set(cards, start, hand)
    if games <= 0:
        raise InputError(f"--games must be positive, got {games}")
    check_seed(seed)
    if end_chance is None:
        exact.check_turns(turns)
    strat = api.resolve(strategy, parse_param_assignments(param))
    if strat.kind == "rule":
        strat.rule(cs)  # card names checked against the card set
    api.simulate(strat, turns, min(games, 2), seed, 0, cs, end_chance=end_chance)  # compile
    t0 = time.perf_counter()
    scores = api.simulate(strat, turns, games, seed, 0, cs, end_chance=end_chance)
    secs = time.perf_counter() - t0
    est = Estimate.from_samples(scores)
    out = {"strategy": strat.rule_text or strat.name, "turns": None if end_chance else turns,
           "end_chance": end_chance, "games": games, "seed": seed, **est.to_dict(),
           "seconds": secs, "games_per_second": games / secs if secs > 0 else None}
    if strat.params is not None:
        out["params"] = {k: getattr(strat.params, k) for k in strat.params.__dataclass_fields__}
    if as_json:
        print_json(out)
        return
    what = f"{turns} turns" if end_chance is None else f"end chance {end_chance:g}"
    console.print(f"{out['strategy']}, {what}: mean score {est}")
    console.print(f"{games} games in {secs:.3f} s ({games / max(secs, 1e-9):,.0f} games/s)")


@bots_app.command("deckbuilder")
@_clean_errors
def bots_deckbuilder(as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """List the strategies of the deck-building model."""
    rows = {name: strategies.DESCRIPTIONS[name] for name in strategies.strategy_names()}
    if as_json:
        print_json(rows)
        return
    for name, text in rows.items():
        console.print(f"{name:10s} {text}", highlight=False, soft_wrap=True)
    console.print("or a buy rule: 'province@8 | duchy@5,left<=5 | gold@6 | silver@3'",
                  highlight=False)
