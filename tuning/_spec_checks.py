"""Checks of study-spec values: each names the file and the key and says what is allowed, as
one InputError (the CLI shows one line, never a traceback)."""

from __future__ import annotations

import math
from typing import Any

from games.core import InputError, check_seed
from tuning._limits import JOBS
from tuning.evaluation import resolve_jobs


def fail(where: str, key: str, message: str) -> InputError:
    return InputError(f"{where}: {key}: {message}")


def check_int(where: str, key: str, value: Any, low: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(where, key, f"expected an integer, got {value!r}")
    if low is not None and value < low:
        raise fail(where, key, f"must be >= {low}, got {value}")
    return value


def check_positive_int(where: str, key: str, value: Any) -> int:
    return check_int(where, key, value, low=1)


def check_jobs(where: str, key: str, value: Any) -> int:
    """A worker count by the rule of ``-j/--jobs`` in every command
    (:data:`tuning._limits.JOBS`): 1 .. 1,024, or -1 for one worker per core, which
    is resolved here to the number of cores as the command line resolves it."""
    return resolve_jobs(JOBS.check(value, f"{where}: {key}"))


def check_number(where: str, key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise fail(where, key, f"expected a number, got {value!r}")
    if not math.isfinite(value):
        raise fail(where, key, f"must be finite, got {value!r}")
    return float(value)


def check_str(where: str, key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise fail(where, key, f"expected a non-empty string, got {value!r}")
    return value.strip()


def check_bool(where: str, key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise fail(where, key, f"expected true or false, got {value!r}")
    return value


def check_choice(where: str, key: str, value: Any, allowed: tuple[str, ...]) -> str:
    text = check_str(where, key, value)
    if text not in allowed:
        raise fail(where, key, f"{text!r} is not one of {', '.join(allowed)}")
    return text


def check_table(where: str, key: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise fail(where, key, f"expected a table [{key}], got {type(value).__name__}")
    return value


def check_known_keys(where: str, section: str, table: dict[str, Any],
                     allowed: tuple[str, ...]) -> None:
    for key in table:
        if key not in allowed:
            raise fail(where, f"{section}.{key}",
                        f"unknown key; allowed keys: {', '.join(allowed)}")


def check_seed_at(where: str, key: str, value: Any) -> int:
    """A root seed by the one rule of every command (games.core.check_seed)."""
    try:
        return check_seed(value, key)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
