"""The Typer groups every command module attaches to.

The output helpers they share live in :mod:`tuning.commands._output`; they are re-exported
here for the command modules that import them from this one."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import typer

from games.errors import InputError
from tuning.commands._flags import CheckedCommand
from tuning.commands._lazy import LazyGroup
from tuning.commands._output import console as console
from tuning.commands._output import err_console as err_console
from tuning.commands._output import print_json as print_json
from tuning.commands._output import show_error as show_error
from tuning.commands._output import wants_json as wants_json

BACKEND_HELP = ("Where evaluations run: loky (worker processes), threading (threads; only "
                "kernels that release the GIL gain), ray or dask (a cluster, --address); "
                "spec: evaluation.backend.")
OPTION_HELP = ("Game option NAME=VALUE replacing the spec's [game] one (repeatable); other "
               "options make a study of their own, STUDY.HASH, with its own storage and "
               "checkpoint.")


def _flags_without_type() -> None:
    """Show flags as flags in --help. Typer 0.29 renders its own options and prints every
    option's type, so `--json` appeared as `--json <bool>` (also `--help <bool>`); a flag
    takes no value, so it gets no type column. Older Typer (click's options) is unaffected."""
    try:
        from typer.core import TyperOption
    except ImportError:  # pragma: no cover - very old Typer
        return
    shown = getattr(TyperOption, "display_type_rich", None)
    if shown is None or getattr(shown, "_flags_checked", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        if getattr(self, "is_flag", False) and not getattr(self, "count", False):
            return None
        return shown(self, ctx)

    display_type_rich._flags_checked = True  # type: ignore[attr-defined]
    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_flags_without_type()

class _Typer(typer.Typer):
    """A Typer group whose commands refuse contradictory and empty flags before they run
    (:class:`tuning.commands._flags.CheckedCommand`)."""

    def command(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["cls"] = kwargs.get("cls") or CheckedCommand
        return super().command(*args, **kwargs)


def new_typer(**kwargs: Any) -> typer.Typer:
    """A Typer app whose commands get the checks of every command here."""
    return _Typer(add_completion=False, **kwargs)


app = _Typer(
    cls=LazyGroup,
    name="tabletune",
    help="Find strong strategies in card games: exact solvers, fast engines, Optuna and DEAP.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
LazyGroup.typer_app = app


@app.callback()
def _no_setup() -> None:
    # Keeps the app a group while no command module is imported yet (tuning.commands._lazy);
    # the group's help is the app's own.
    pass


#: Short flags that mean one thing across all commands, and the old spellings kept working
#: (hidden from --help) because earlier docs and printed resume commands used them:
#: ``(command, short flag) -> long option`` (tests/tuning/test_short_flags.py checks both).
LEGACY_SHORT_FLAGS: dict[tuple[str, str], str] = {("evolve", "-p"): "--population"}


#: the command that runs a study of each optimizer (spec key study.optimizer)
RUNS_WITH = {"optuna": "run", "deap": "evolve", "train": "train", "balance": "balance"}


def require_optimizer(spec: Any, study: str, optimizer: str) -> None:
    """Refuse a study of another optimizer, naming the command that runs it."""
    if spec.optimizer != optimizer:
        command = RUNS_WITH.get(spec.optimizer, "run")
        raise InputError(f"{spec.path}: study.optimizer is {spec.optimizer!r}; run it with: "
                         f"tabletune {command} {study}")


def load_study(study: str, items: list[str], optimizer: str | None = None, say: bool = True,
               **run: Any) -> Any:
    """The study a command runs, resolved once (:func:`tuning._spec.load_spec`): the spec
    ``study`` with the ``--option`` items and the run settings ``run`` (``trials``,
    ``jobs``, ``seed``, ``backend``, ``address``, ``storage``; numbers as the command
    checked them); refused when it is not a study of ``optimizer``. A study of other
    options (its own name, storage and checkpoint) is said on stderr (``say=False``: left
    to :func:`say_options`, so a command that only reads it can end in one error line)."""
    from tuning._overrides import parse_items
    from tuning._spec import Flags, load_spec

    spec = load_spec(study, Flags(options=parse_items(items), **run))
    if optimizer is not None:
        require_optimizer(spec, study, optimizer)
    if say:
        say_options(spec, items)
    return spec


def say_options(spec: Any, items: list[str]) -> None:
    """Say on stderr that ``--option`` items made ``spec`` a study of its own."""
    if spec.name != spec.spec_name:
        err_console.print(f"game options {', '.join(items)}: study {spec.name} (its own "
                          "storage and checkpoint; report it with the same --option flags, "
                          f"play it as best:{spec.name})", highlight=False, markup=False,
                          soft_wrap=True)


def legacy_value(flag: str, value: Any, old: str, old_value: Any) -> Any:
    """The value of ``flag`` given either as itself or by its old spelling ``old``."""
    if old_value is None:
        return value
    if value is not None and value != old_value:
        raise InputError(f"{flag} {value} and {old} {old_value} (its old spelling) disagree; "
                         f"give {flag} once")
    return old_value


def clean_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Bad input: one line on stderr and exit status 2, also when called without main()."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except InputError as exc:
            show_error(str(exc))
            raise typer.Exit(2) from None

    return wrapper
