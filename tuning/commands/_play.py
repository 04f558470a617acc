"""`tabletune play GAME` for every registered game.

One command per game is built from its registry description when that game is asked for
(:mod:`tuning.commands.game_groups`): the common flags (bots, games, seed, jobs, parameters,
seats, JSON) plus one flag per option of the game's schema, and the old spellings each game
declares in its ``cli_aliases`` (the ``play_defaults`` capability). Nothing here imports a
game at module level.
"""

from __future__ import annotations

import inspect
import re
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table

from games.errors import InputError, check_seed, parse_param_assignments
from tuning import _limits as limits
from tuning._stopping import stop_signals
from tuning.commands._apps import clean_errors, console, err_console, print_json
from tuning.commands._flags import given
from tuning.commands._progress import MatchProgress, given_command, stop_line

if TYPE_CHECKING:
    from games import registry
    from games.core import BotSpec

_PARAM_ITEM = re.compile(r"^\s*[A-Za-z_][\w-]*\s*=|^\s*-?\d+(\.\d+)?\s*$")
_BEST_REF = re.compile(r"best:[^,;]*", re.IGNORECASE)  # best:STUDY@STORAGE: no buy list


def split_bots(text: str | None) -> list[str]:
    """Bot texts from ``--bots``: split on ``;`` when present or when the text holds a bot's
    text form (a buy list or rule: ``|`` or ``@``, whose conditions use commas), else on
    commas, keeping ``name:k=v,k=v`` parameter lists (and positional numbers) together.
    The ``@`` of ``best:STUDY@STORAGE`` does not count as a buy list's."""
    if not text or not text.strip():
        return []
    rest = _BEST_REF.sub("", text)
    if ";" in text or "|" in rest or "@" in rest:
        return [t.strip() for t in text.split(";") if t.strip()]
    out: list[str] = []
    for piece in text.split(","):
        if out and ":" in out[-1] and _PARAM_ITEM.match(piece):
            out[-1] += "," + piece.strip()
        elif piece.strip():
            out.append(piece.strip())
    return out


def line_up(game: registry.Game, bots: str | None, bot: list[str], params: list[str],
            players: int | None, options: dict[str, Any],
            found: dict[str, tuple[BotSpec, Any]] | None = None) -> list[BotSpec]:
    """The bots of a match: ``--bots`` texts, each ``--bot``, ``--param`` applied to every
    bot whose parameters have those names, a single bot repeated to fill ``players`` seats
    (``found``: ``best:`` references resolved already, by text)."""
    from games.capabilities import use
    from games.core import BotSpec

    listed = split_bots(bots)
    texts = listed + list(bot)
    if players is not None:
        check_players(game, players, options)
    specs = [_parse_listed(game, t, options, (found or {}).get(t), bots if i < len(listed)
                           else None)
             for i, t in enumerate(texts or use(game, "play_defaults").default_bots)]
    if not specs:
        raise InputError(f"name the bots: --bots {','.join(list(game.bots())[:2])} "
                         f"(see `tabletune bots {game.name}`)")
    values = parse_param_assignments(params)
    if values:
        known = game.bots()
        tunable = [i for i, s in enumerate(specs) if s.genome is None and s.name in known
                   and known[s.name].params_type is not None]
        if not tunable:
            raise InputError(f"--param {', '.join(values)}: no bot in the line-up takes "
                             f"parameters (see `tabletune bots {game.name}`)")
        takers = [i for i in tunable
                  if set(values) <= set(_fields(known[specs[i].name].params_type))] or tunable
        for i in takers:
            s = specs[i]
            specs[i] = game.check_bot(BotSpec(s.name, {**s.params, **values}, None,
                                              s.label_text))
    if players is not None:
        if len(specs) == 1:
            specs = specs * players
        elif len(specs) != players:
            raise InputError(f"{players} players need {players} bots (or one bot for a "
                             f"mirror), got {len(specs)}")
    elif len(specs) == 1:
        try:
            game.seats(1, options)
        except InputError:  # one bot of a multi-player game plays a mirror
            specs = specs * min(c for c in game.player_counts if c > 1)
    return specs


def _counts(values: list[int]) -> str:
    """``[2, 3, 4]`` as "2, 3 or 4"."""
    shown = [str(v) for v in values]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def check_players(game: registry.Game, players: int, options: dict[str, Any]) -> None:
    """Refuse a ``--players`` count the game cannot seat under these options, saying the
    counts it takes (a bot count would name the flag the user never typed)."""
    def seats(n: int) -> bool:
        try:
            game.seats(n, options)
        except InputError:
            return False
        return True

    if players >= 1 and seats(players):
        return
    fits = [c for c in game.player_counts if seats(c)] or list(game.player_counts)
    raise InputError(f"--players takes {_counts(fits)} for {game.name}, got {players} "
                     "(or leave it out: one seat per bot)")


def _parse_listed(game: registry.Game, text: str, options: dict[str, Any],
                  resolved: tuple[BotSpec, Any] | None, listed: str | None) -> BotSpec:
    """:func:`parse_bot` of one text of ``--bots`` (``listed``: the whole flag; None for a
    ``--bot``). Split on ``;`` because a bot's text holds ``|`` or ``@``, the list keeps any
    comma: a bad text with commas and no ``;`` in the flag says so."""
    try:
        return parse_bot(game, text, options, resolved)
    except InputError as exc:
        if listed is None or ";" in listed or "," not in text:
            raise
        head, _, tail = text.rpartition(",")
        raise InputError(f"{exc}; in --bots, separate bots with ';' when a bot's text holds "
                         f"'|' or '@' (its commas stay inside it): --bots "
                         f"'{head.strip()}; {tail.strip()}'") from None


def parse_bot(game: registry.Game, text: str, options: dict[str, Any],
              resolved: tuple[BotSpec, Any] | None = None) -> BotSpec:
    """A bot text, or ``best:STUDY[@STORAGE]`` (a study's or an evolution's result, said on
    stderr with where it comes from and any game option the match changes)."""
    from tuning._best import best_bot, check_genome_options, is_best, option_notes

    if not is_best(text):
        return game.parse_bot(text)
    spec, found = resolved or best_bot(game, text)
    check_genome_options(game, found, options)
    for line in (found.note, *option_notes(game, found, options)):
        err_console.print(line, highlight=False, markup=False, soft_wrap=True)
    return spec


def _fields(params_type: type) -> list[str]:
    import dataclasses
    return [f.name for f in dataclasses.fields(params_type)]


def _print_match(game: registry.Game, data: dict[str, Any]) -> None:
    from games.capabilities import use

    has_winner = use(game, "objectives").has_winner
    bots = data["bots"]
    if data["players"] > 1:
        seats = "seats rotated" if data["rotated"] else "fixed seats"
        table = Table(title=f"{game.name}, {data['games']:,} games, {data['players']} players, "
                            f"{seats}")
        for col in ("bot", "score", "95% CI", "W/T/L", "score by seat", "mean points"):
            table.add_column(col, justify="left" if col == "bot" else "right",
                             overflow="fold")
        for name, row in bots.items():
            lo, hi = row["score_ci"]
            by_seat = " ".join(f"{r['score']:.3f}" if r["games"] else "-"
                               for r in row["per_seat"])
            table.add_row(name, f"{row['score']:.4f}", f"{lo:.4f}-{hi:.4f}",
                          f"{row['wins']}/{row['ties']}/{row['losses']}", by_seat,
                          f"{row['mean_score']:.2f}")
        console.print(table)
        console.print(f"mean turns {data['mean_turns']:.2f}, tied games {data['tied_games']}, "
                      f"capped games {data['capped_games']}, {data['seconds']:.2f} s, "
                      f"{data['games_per_second']:,.0f} games/s", highlight=False)
        return
    table = Table(title=f"{game.name}, {data['games']:,} games per bot")
    cols = ["bot", "mean score", "95% CI"] + (["wins", "win rate"] if has_winner else [])
    for col in (*cols, "mean turns", "capped"):
        table.add_column(col, justify="left" if col == "bot" else "right", overflow="fold")
    for name, row in bots.items():
        lo, hi = row["mean_score_ci"]
        cells = [name, f"{row['mean_score']:.4f}", f"{lo:.4f}-{hi:.4f}"]
        if has_winner:
            wlo, whi = row["win_rate_ci"]
            cells += [str(row["wins"]), f"{100 * row['win_rate']:.2f}% "
                      f"({100 * wlo:.2f}-{100 * whi:.2f})"]
        table.add_row(*cells, f"{row['mean_turns']:.2f}", str(row["capped_games"]))
    console.print(table)
    console.print(f"{data['seconds']:.2f} s, {data['games_per_second']:,.0f} games/s",
                  highlight=False)


def option_parameter(opt: registry.Option, aliases: list[str]) -> inspect.Parameter:
    """A typer option for one entry of a game's option schema."""
    if opt.kind is bool:
        flag = opt.flag or f"{opt.cli_flag}/--no-{opt.cli_flag[2:]}"
        annotation: Any = bool
        default = typer.Option(bool(opt.default), flag, *aliases, help=opt.help)
    else:
        annotation = {int: int, float: float}.get(opt.kind, str)
        if opt.default is None:
            annotation = annotation | None
        shown = opt.default
        if opt.kind is list and isinstance(shown, tuple):
            shown = ",".join(shown)
        default = typer.Option(shown, opt.cli_flag, *aliases, help=opt.help)
    return inspect.Parameter(f"opt_{opt.name}", inspect.Parameter.KEYWORD_ONLY,
                             default=default, annotation=annotation)


def resolve_bests(game: registry.Game, texts: list[str]) -> dict[str, tuple[BotSpec, Any]]:
    """The line-up's ``best:`` references, resolved once: text -> (bot, its study's best)."""
    from tuning._best import best_bot, is_best

    return {t: best_bot(game, t) for t in dict.fromkeys(texts) if is_best(t)}


def tuned_options(game: registry.Game, found: dict[str, tuple[BotSpec, Any]]
                  ) -> dict[str, Any]:
    """The game options the line-up's studies were run with, where they all agree: a
    study's best plays the game it was tuned in (its kingdom, say) unless the command line
    types that option."""
    out: dict[str, Any] = {}
    seen: list[dict[str, Any]] = []
    for _, best in found.values():
        try:
            seen.append(dict(game.check_options(best.options)))
        except InputError:
            return {}
    for name in {o.name for o in game.options}:
        values = [opts[name] for opts in seen if name in opts]
        if values and all(v == values[0] for v in values) and len(values) == len(seen):
            out[name] = values[0]
    return out


def game_options(game: registry.Game, kw: dict[str, Any],
                 tuned: dict[str, Any] | None = None) -> dict[str, Any]:
    """The checked game options of a play or solve command line (``kw``: its parameters,
    ``ctx`` among them); options that exclude each other may not both be typed; an option
    not typed takes its ``tuned`` value (the options a best in the line-up was tuned with)
    where there is one, else its default."""
    for o in game.options:  # ``--FLAG list`` shows the option's named choices
        if o.lists is not None and str(kw[f"opt_{o.name}"]).strip().lower() == "list":
            console.print("\n".join(o.lists()), highlight=False, markup=False,
                          soft_wrap=True)
            raise typer.Exit(0)
    from games.options import check_exclusive

    typed = given(kw.get("ctx"), [f"opt_{o.name}" for o in game.options])
    check_exclusive(game.options, [o.name for o in game.options if f"opt_{o.name}" in typed],
                    spell=lambda o: o.cli_flag)
    tuned = {k: v for k, v in (tuned or {}).items() if f"opt_{k}" not in typed}
    return game.check_options({o.name: tuned.get(o.name, kw[f"opt_{o.name}"])
                               for o in game.options})


def context_parameter() -> inspect.Parameter:
    """The click context of a command built from a signature (it tells typed flags from
    defaults)."""
    return inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context)


def _common(game: registry.Game) -> list[inspect.Parameter]:
    from games.capabilities import use

    defaults = use(game, "play_defaults")
    alias = defaults.cli_aliases

    def opt(name: str, default: Any, annotation: Any, *decls: str, help: str) -> inspect.Parameter:
        extra = [a for a, target in alias.items() if target == decls[0]]
        return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
                                 default=typer.Option(default, *decls, *extra, help=help))

    names = {o.name for o in game.options}
    params = [
        context_parameter(),
        opt("bots", None, str | None, "--bots", "-b",
            help="bots, comma-separated (';' when a bot's text holds commas); "
                 "name:value or name:key=value,... sets parameters; best:STUDY[@STORAGE] "
                 "is the result of a study or an evolution"),
        opt("bot", [], list[str], "--bot", help="one more bot (repeatable): a name or a "
            "text form such as a buy list"),
        opt("games", defaults.default_games, int, "--games", "-n", help="games (per bot in a "
            "one-seat game)"),
        opt("seed", 0, int, "--seed", "-s", help="root seed; game i uses its own seed"),
        opt("jobs", 1, int, "--jobs", "-j", help="worker processes (-1: every core)"),
        opt("param", [], list[str], "--param", "-p", help="bot parameter name=value (repeatable)"),
        opt("block", 0, int, "--block", help="games per seed block (0: automatic)"),
        opt("rotate", True, bool, "--rotate/--fixed-seats",
            help="rotate seats every game (fixed: in the order given)"),
        opt("as_json", False, bool, "--json", help="print JSON instead of a table"),
    ]
    if "players" not in names:
        params.insert(2, opt("players", None, int | None, "--players",
                             help="seats at the table (default: one per bot; one bot "
                                  "plays a mirror)"))
    for o in game.options:
        extra = [a for a, target in alias.items() if target == o.cli_flag]
        params.append(option_parameter(o, extra))
    return params


def make_play_command(game: registry.Game) -> Any:
    """The ``tabletune play <game>`` command of one registered game."""

    def play(**kw: Any) -> None:
        from games.capabilities import use
        from tuning.evaluation import WorkerPool, run_match

        limits.GAMES.check(kw["games"], "--games")
        check_seed(kw["seed"], "--seed")
        limits.JOBS.check(kw["jobs"], "--jobs")
        limits.BLOCK.check(kw["block"], "--block")
        found = resolve_bests(game, split_bots(kw["bots"]) + list(kw["bot"]))
        options, notes = use(game, "settle").settle_options(
            game_options(game, kw, tuned_options(game, found)), kw["seed"])
        for line in notes:  # what the run's seed fixed (a kingdom drawn at random)
            err_console.print(line, highlight=False, markup=False, soft_wrap=True)
        specs = line_up(game, kw["bots"], kw["bot"], kw["param"], kw.get("players"), options,
                        found)
        # a compiled kernel that releases the interpreter lock is shared by threads: no fork
        backend = "threading" if use(game, "kernels").releases_gil(specs, options) else "loky"
        progress = MatchProgress(f"play {game.name}")
        try:
            with stop_signals(), WorkerPool(kw["jobs"], backend, share=True) as pool, progress:
                summary = run_match(game.name, specs, options, games=kw["games"],
                                    seed=kw["seed"], pool=pool, rotate=kw["rotate"],
                                    block=kw["block"] or None, progress=progress)
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM; the status line is gone now
            stop_line(f"stopped after {progress.done:,} of {kw['games']:,} games; a match "
                      f"keeps nothing; play it again with: {given_command()}")
        data = {**summary.to_dict(), "seed": kw["seed"], "jobs": pool.jobs,
                "options": options, **({"notes": notes} if notes else {})}
        if kw["as_json"]:
            print_json(data)
        else:
            _print_match(game, data)

    play.__signature__ = inspect.Signature(_common(game))  # type: ignore[attr-defined]
    play.__doc__ = f"Play {game.summary}: matches between named bots, per-bot results."
    return clean_errors(play)
