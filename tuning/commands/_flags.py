"""Flags that contradict themselves or say nothing, refused before a command runs.

Click keeps the last of ``--rotate --fixed-seats`` and turns ``--out ''`` into the current
folder, so a command would quietly do something other than what its line asks. Every
``tabletune`` command is a :class:`CheckedCommand`: both spellings of one on/off flag, or
an empty value, stop it with one line and exit status 2 before any work. Options of a game
that exclude each other (``Option.excludes``) are checked by the command with
:func:`given`, which tells a flag typed on the line from a default.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

from games.errors import InputError


def _value_options(command: Any) -> set[str]:
    """Every spelling of the command's options that take a value."""
    out: set[str] = set()
    for param in command.params:
        if getattr(param, "param_type_name", "") == "option" and not param.is_flag:
            out.update(param.opts)
    return out


def check_line(command: Any, args: list[str]) -> None:
    """Refuse an on/off flag given in both forms, and an option or argument given an
    empty (or blank) value; InputError naming the flag."""
    takes_value = _value_options(command)
    seen: list[str] = []
    i = 0
    while i < len(args):
        token = args[i]
        if token == "--":
            break
        name, eq, value = token.partition("=")
        if token.startswith("--") and eq and name in takes_value:
            if not value.strip():
                raise InputError(f"{name} is empty: give a value or leave the flag out")
        elif token in takes_value:
            if i + 1 < len(args) and not args[i + 1].strip():
                raise InputError(f"{token} is empty: give a value or leave the flag out")
            i += 1  # the value is not a flag of its own
        elif not token.strip():
            raise InputError("an empty argument was given: name what is meant or leave "
                             "it out")
        else:
            seen.append(token)
        i += 1
    for param in command.params:
        secondary = getattr(param, "secondary_opts", None)
        if not secondary:
            continue
        on = [t for t in seen if t in param.opts]
        off = [t for t in seen if t in secondary]
        if on and off:
            raise InputError(f"{on[0]} and {off[0]} exclude each other: give one of them")


def _refuse(message: str) -> NoReturn:
    """One error line (see :func:`tuning.commands._output.show_error`), exit status 2."""
    from tuning.commands._output import show_error
    show_error(" ".join(message.split()))
    raise typer.Exit(2)


class QuickHelp:
    """Gives ``--help`` the default False (Typer leaves it None). Typer 0.29 checks a None
    flag value through pydantic, whose import costs more than the rest of a short command's
    start-up; a bool value skips that check, with the same meaning. Help pages are drawn
    without the imports they do not use (:mod:`tuning.commands._rich_help`)."""

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None and option.default is None:
            option.default = False
        return option

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from tuning.commands import _rich_help as rich_help
        rich_help.load()
        super().format_help(ctx, formatter)  # type: ignore[misc]


class OneLineStop:
    """A Ctrl-C that the command does not handle itself (one that lands while a group or a
    command still imports what it needs, such as a game's engine) ends in one line and exit
    status 130, as :func:`tuning.cli.main` ends one; Typer would exit 130 silently."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)  # type: ignore[misc]
        except KeyboardInterrupt:  # reading a value may import its checker first
            _interrupted()

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)  # type: ignore[misc]
        except KeyboardInterrupt:
            _interrupted()


def _interrupted() -> NoReturn:
    from tuning.commands._output import err_console
    err_console.print("interrupted")
    raise typer.Exit(130)


def no_such_option(command: Any, ctx: Any, name: str) -> str:
    """The line for an option the command lacks: the command has no such option, and the
    options it has (click's own guess picks any near spelling, ``--turns`` → ``--bots``);
    a close spelling is offered only when it is one."""
    import difflib

    longs = [next((o for o in p.opts if o.startswith("--")), p.opts[0])
             for p in command.params
             if getattr(p, "param_type_name", "") == "option" and not getattr(p, "hidden", False)
             and p.opts]
    close = difflib.get_close_matches(name, longs, n=1, cutoff=0.75)
    guess = f"; did you mean {close[0]}?" if close else ""
    where = getattr(ctx, "command_path", "") or "this command"
    return (f"{where} has no {name} option{guess} (its options: {', '.join(longs)}; "
            f"{where} --help says what each does)")


class CheckedGroup(QuickHelp, OneLineStop, TyperGroup):
    """A Typer group with :class:`QuickHelp` and :class:`OneLineStop`."""


class CheckedCommand(QuickHelp, OneLineStop, TyperCommand):
    """A Typer command that runs :func:`check_line` on its arguments (after ``--help``,
    which still answers) and refuses a bad line in one line with exit status 2, as it
    does a value click cannot read (``--turns abc``) instead of a usage box."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        line = list(args)  # click's parser consumes the list it is given
        try:
            rest = super().parse_args(ctx, args)
        except typer.TyperException as exc:  # click's usage errors
            usage = getattr(exc, "exit_code", None) == 2 and hasattr(exc, "format_message")
            if not usage or type(exc).__name__ == "NoArgsIsHelpError":
                raise
            if type(exc).__name__ == "NoSuchOption":
                _refuse(no_such_option(self, ctx, getattr(exc, "option_name", "")))
            _refuse(exc.format_message())
        try:
            check_line(self, line)
        except InputError as exc:
            _refuse(str(exc))
        return rest


def given(ctx: Any, names: Iterable[str]) -> set[str]:
    """Those of the command's parameters ``names`` whose value was typed on the command
    line (or set by an environment variable), not left at its default. Without a context
    (a direct call) every name counts as given."""
    names = list(names)
    if ctx is None or not hasattr(ctx, "get_parameter_source"):
        return set(names)
    out = set()
    for name in names:
        source = ctx.get_parameter_source(name)
        if source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT"):
            out.add(name)
    return out
