"""The option schema of a game: what ``[game]`` in a study spec and the game's own CLI flags
accept, each option validated in one place with messages that name the key."""

from __future__ import annotations

from collections.abc import Callable
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
