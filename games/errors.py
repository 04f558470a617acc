"""User-input errors and the input checks every command shares, in plain Python.

Kept apart from :mod:`games.core` (numpy, numba) so that the command line can refuse bad
input, and print its help, without importing any engine. :mod:`games.core` re-exports
everything here.
"""

from __future__ import annotations

from collections.abc import Sequence


class InputError(ValueError):
    """Bad input from a user (CLI flag, spec file, parameter). The CLI prints only the message."""


MAX_SEED = 2**64 - 1  # game seeds mix the root as 64 bits: larger roots would alias


def check_seed(value: object, name: str = "--seed") -> int:
    """The one rule for root seeds in every command and spec: a whole number in
    0 .. 2**64-1 (a larger or negative root would silently repeat another seed's games)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{name} must be a whole number, got {value!r}")
    if not 0 <= value <= MAX_SEED:
        raise InputError(f"{name} must lie in 0 .. 2**64-1, got {value}")
    return value


def parse_param_assignments(items: Sequence[str]) -> dict[str, str]:
    """Parse CLI ``name=value`` pairs, refusing anything else with a clear message."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise InputError(f"--param expects name=value, got {item!r}")
        out[name.strip()] = value.strip()
    return out
