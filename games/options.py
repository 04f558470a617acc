"""The option schema of a game: what ``[game]`` in a study spec and the game's own CLI flags
accept, each option validated in one place with messages that name the key, and the typed
options a game's check returns (:class:`GameOptions`, declared once per game)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from games.core import InputError


@dataclass(frozen=True)
class Option:
    """One ``[game]`` option: its type, default, allowed values and the CLI flag it becomes.

    ``kind`` is ``int``, ``float``, ``bool``, ``str``, ``list`` (a comma-separated text on
    the command line) or ``object`` (any value, left to ``check``). ``low``/``high`` bound
    numbers; ``choices`` lists allowed texts; ``check`` may normalise a value or raise
    InputError/ValueError with a reason.
    """

    name: str
    kind: type
    default: Any
    help: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None
    check: Callable[[Any], Any] | None = None
    flag: str | None = None  # CLI spelling, default --name-with-dashes
    excludes: tuple[str, ...] = ()  # options that may not be given together with this one
    #: the choices ``--FLAG list`` prints, one line each (e.g. a game's named presets)
    lists: Callable[[], list[str]] | None = None
    #: a rule of the game a balance study may tune (``[space.NAME]`` of a spec with a
    #: ``[balance]`` table, :mod:`tuning.balance`)
    rule: bool = False

    @property
    def cli_flag(self) -> str:
        return self.flag or "--" + self.name.replace("_", "-")

    def validate(self, value: Any, where: str) -> Any:
        """The checked value; InputError naming ``where`` (e.g. ``game.turns``) otherwise."""
        if value is None:
            if self.default is None:
                return None
            raise InputError(f"{where}: a value is needed")
        value = self._typed(value, where)
        if self.choices is not None and value not in self.choices:
            raise InputError(f"{where}: {value!r} is not one of {', '.join(self.choices)}")
        if isinstance(value, int | float) and not isinstance(value, bool):
            if self.low is not None and value < self.low:
                raise InputError(f"{where}: {value} is below the minimum {self.low:g}")
            if self.high is not None and value > self.high:
                raise InputError(f"{where}: {value} is above the maximum {self.high:g}")
        if self.check is not None:
            try:
                checked = self.check(value)
            except (ValueError, TypeError) as exc:
                raise InputError(f"{where}: {exc}") from None
            except InputError as exc:
                raise InputError(f"{where}: {exc}") from None
            value = value if checked is None else checked
        return value

    def _typed(self, value: Any, where: str) -> Any:
        kind = self.kind
        if kind is object:  # any TOML value; ``check`` decides
            return value
        if kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no"):
                return value.lower() in ("true", "yes")
            raise InputError(f"{where}: expected true or false, got {value!r}")
        if kind is int:
            if isinstance(value, bool):
                raise InputError(f"{where}: expected an integer, got {value!r}")
            try:
                number = float(value)
            except (TypeError, ValueError):
                raise InputError(f"{where}: expected an integer, got {value!r}") from None
            if number != int(number):
                raise InputError(f"{where}: expected an integer, got {value!r}")
            return int(number)
        if kind is float:
            if isinstance(value, bool):
                raise InputError(f"{where}: expected a number, got {value!r}")
            try:
                return float(value)
            except (TypeError, ValueError):
                raise InputError(f"{where}: expected a number, got {value!r}") from None
        if kind is list:
            if isinstance(value, str):
                return tuple(v.strip() for v in value.split(",") if v.strip())
            if isinstance(value, list | tuple):
                return tuple(str(v) for v in value)
            raise InputError(f"{where}: expected a list or comma-separated text, got {value!r}")
        if not isinstance(value, str):
            raise InputError(f"{where}: expected text, got {value!r}")
        return value


# --------------------------------------------------------------------------- typed options


class GameOptions(Mapping[str, Any]):
    """Base of a game's typed options: each game declares one frozen dataclass, beside the
    game, whose fields are its options with their defaults, written once (each field made
    by :func:`option`, which also carries the help text, bounds and CLI flag of its
    :class:`Option`). ``Game.check_options`` returns an instance; game code reads its
    attributes (``options.turns``). It is also a read-only mapping of the same names, so
    the generic layer reads any game's options alike (``options["cap"]``,
    ``dict(options)``, ``{**options, "cap": 50}`` for a changed copy to check again) and
    JSON gets :meth:`as_dict`. Equal to any mapping with the same items."""

    def __getitem__(self, name: str) -> Any:
        if name not in self._names():
            raise KeyError(name)
        return getattr(self, name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def __hash__(self) -> int:
        return hash(tuple(self.items()))

    def __repr__(self) -> str:
        items = ", ".join(f"{k}={v!r}" for k, v in self.items())
        return f"{type(self).__name__}({items})"

    def _names(self) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(self))  # type: ignore[arg-type]

    def as_dict(self) -> dict[str, Any]:
        """The options as a plain dict (JSON, spec tables)."""
        return dict(self.items())


def option(default: Any, help: str = "", *, kind: type | None = None, **schema: Any) -> Any:
    """A field of a game's options dataclass that is also an entry of its option schema:
    ``default`` is the one default; ``kind`` (default: the default's type, ``list`` for a
    tuple) and ``schema`` (``low``, ``high``, ``choices``, ``check``, ``flag``,
    ``excludes``, ``lists``, ``rule``) are :class:`Option`'s."""
    if kind is None:
        if default is None:
            raise TypeError("an option whose default is None needs its kind")
        kind = list if isinstance(default, tuple) else type(default)
    return dataclasses.field(default=default,
                             metadata={"option": {"kind": kind, "help": help, **schema}})


def options_schema(options_type: type[GameOptions]) -> tuple[Option, ...]:
    """The option schema a typed-options dataclass declares (one :class:`Option` per
    field, in field order): what `tabletune play` turns into flags and specs may set."""
    out = []
    for f in dataclasses.fields(options_type):  # type: ignore[arg-type]
        spec = dict(f.metadata.get("option") or {})
        if not spec:
            raise TypeError(f"{options_type.__name__}.{f.name}: declare it with option()")
        kind = spec.pop("kind")
        out.append(Option(f.name, kind, f.default, **spec))
    return tuple(out)


def own_keys(options_type: type[Any], given: Mapping[str, Any]) -> Any:
    """An instance of the frozen dataclass ``options_type`` (a genome kind's own ``[genome]``
    keys, say, whose defaults it declares once) from the keys of ``given`` that name its
    fields; other keys (the game's options beside them) are not its own. A value is read as
    its field's default is typed: a whole number by ``int``, a list as a tuple."""
    values: dict[str, Any] = {}
    for f in dataclasses.fields(options_type):
        if f.name not in given:
            continue
        value = given[f.name]
        if isinstance(f.default, int) and not isinstance(f.default, bool):
            value = int(value)
        elif isinstance(f.default, tuple):
            value = tuple(value)
        values[f.name] = value
    return options_type(**values)


class FrozenOptions(GameOptions):
    """Checked options of a game that declares no options type (a plug-in or test game
    with only a schema): the same read-only mapping, its names also read as attributes."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_values", dict(values))

    def __getattr__(self, name: str) -> Any:
        values = self.__dict__.get("_values", {})
        if name in values:
            return values[name]
        raise AttributeError(name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenOptions, (self._values,))

    def _names(self) -> tuple[str, ...]:
        return tuple(self._values)


def check_exclusive(schema: Iterable[Option], given: Iterable[str],
                    spell: Callable[[Option], str] | None = None) -> None:
    """Refuse options given together that exclude each other (``Option.excludes``), such as a
    fixed number of turns and an end chance: one of them would be dropped silently. ``schema``
    is a game's ``options``; ``given`` names the options set explicitly (not their defaults);
    ``spell`` writes an option as the caller knows it (default ``game.NAME``)."""
    by_name = {o.name: o for o in schema}
    names = [n for n in given if n in by_name]
    word = spell or (lambda o: f"game.{o.name}")
    for name in names:
        clash = next((n for n in by_name[name].excludes if n in names), None)
        if clash is not None:
            raise InputError(f"{word(by_name[name])} and {word(by_name[clash])} exclude "
                             "each other: give one of them")
