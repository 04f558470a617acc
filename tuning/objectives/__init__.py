"""Registry of objective adapters: one module per game that turns a candidate into game scores.

An adapter module exposes plain top-level functions with picklable arguments, so joblib
workers (loky, Ray, Dask) can import and call them by reference:

- ``run_block(candidate, options, seed, start, count) -> np.ndarray`` of per-game scores for
  games ``start .. start+count-1`` of the seed set with root ``seed`` (required);
- ``exact(candidate, options) -> float | None`` where the game has an exact value (optional);
- ``strategies() -> dict[str, type | None]``: tunable strategies and their params dataclass;
- ``OBJECTIVES``: the objective names the adapter scores (e.g. ``("win_rate",)``);
- ``check_options(options) -> None``: raise InputError for bad [game]/[evaluation] options;
- ``baselines(options) -> dict[str, dict]``: named reference candidates for reports (optional);
- ``comparisons(options) -> dict[str, dict]``: option overrides (e.g. another opponent) under
  which the best candidate is also re-evaluated (optional);
- ``report_notes(options, reevaluation) -> list[str]``: sentences that put a study's result in
  the game's own terms, for reports (optional).

``candidate`` is plain data: ``{"strategy": name, "params": {...}}`` or ``{"genome": text}``.
Adapters are referenced by a module path (``tuning.objectives.dominion``) or a file path, so
workers load them without any registration step. Extra adapters can be added with
:func:`register` or the ``TABLETUNE_OBJECTIVES`` environment variable
(``name=module.path`` or ``name=/path/to/file.py``, comma separated).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from games.core import InputError

_BUILTIN: dict[str, str] = {
    "deckbuilder": "tuning.objectives.deckbuilder",
    "dominion": "tuning.objectives.dominion",
    "thegame": "tuning.objectives.thegame",
}
_EXTRA: dict[str, str] = {}
_LOADED: dict[str, ModuleType] = {}


def register(game: str, reference: str) -> None:
    """Register an adapter for ``game`` by module path or by ``.py`` file path."""
    _EXTRA[game] = str(Path(reference).resolve()) if reference.endswith(".py") else reference


def _from_env() -> dict[str, str]:
    out: dict[str, str] = {}
    for item in os.environ.get("TABLETUNE_OBJECTIVES", "").split(","):
        name, sep, ref = item.partition("=")
        if sep and name.strip() and ref.strip():
            out[name.strip()] = ref.strip()
    return out


def references() -> dict[str, str]:
    """Every known game name and the reference of its adapter."""
    return {**_BUILTIN, **_from_env(), **_EXTRA}


def games() -> list[str]:
    """Names of games with an adapter that can actually be imported."""
    names = []
    for name, ref in references().items():
        try:
            load(ref)
        except (ImportError, InputError):
            continue
        names.append(name)
    return sorted(names)


def reference(game: str) -> str:
    """The adapter reference of ``game``; InputError naming the known games otherwise."""
    refs = references()
    if game not in refs:
        raise InputError(f"unknown game {game!r}; known games: {', '.join(sorted(refs))}")
    return refs[game]


def load(ref: str) -> ModuleType:
    """Import an adapter by module path or file path (cached per process)."""
    if ref in _LOADED:
        return _LOADED[ref]
    if ref.endswith(".py"):
        path = Path(ref).resolve()
        if not path.is_file():
            raise InputError(f"objective file {ref} does not exist")
        name = "tabletune_objective_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise InputError(f"cannot load objective file {ref}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(ref)
    if not callable(getattr(module, "run_block", None)) and not callable(
            getattr(module, "exact", None)):
        raise InputError(f"objective {ref} defines neither run_block nor exact")
    _LOADED[ref] = module
    return module


def get(game: str) -> ModuleType:
    """The adapter module of ``game`` (InputError if unknown or not importable)."""
    ref = reference(game)
    try:
        return load(ref)
    except ModuleNotFoundError as exc:
        raise InputError(f"game {game!r} is not available here ({exc})") from None


def strategies(game: str) -> dict[str, type | None]:
    """Tunable strategies of ``game`` with their params dataclass (None: no parameters)."""
    module = get(game)
    fn = getattr(module, "strategies", None)
    return dict(fn()) if callable(fn) else {}


def objectives(game: str) -> tuple[str, ...]:
    """Objective names that the adapter of ``game`` can score."""
    return tuple(getattr(get(game), "OBJECTIVES", ("win_rate",)))


def run_block(ref: str, candidate: dict[str, Any], options: dict[str, Any], seed: int,
              start: int, count: int) -> np.ndarray:
    """Worker entry point: score games ``start..start+count-1`` of candidate (by reference)."""
    scores = load(ref).run_block(candidate, options, seed, start, count)
    arr = np.asarray(scores, dtype=float)
    if arr.shape != (count,):
        raise ValueError(f"objective {ref} returned {arr.shape} scores for {count} games")
    return arr


def exact(ref: str, candidate: dict[str, Any], options: dict[str, Any]) -> float | None:
    """Exact objective value of the candidate, or None where the game has none."""
    fn = getattr(load(ref), "exact", None)
    if not callable(fn):
        return None
    value = fn(candidate, options)
    return None if value is None else float(value)
