"""A study's game options resolved once: the spec's ``[game]`` table with the command line's
``--option`` items on top, checked by the game (its typed options), settled with the run's
root seed, and the study named by them.

:func:`tuning._spec.parse_spec` calls :func:`resolve_options` once per study a command runs,
after the command line's seed is applied, and keeps what it returns in the
:class:`tuning._spec.StudySpec` (``checked``, ``options``): nothing below checks or settles
them again. Options that the game plays alike (a default written out, another spelling)
leave the study what it was (:mod:`tuning._identity`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from games.capabilities import use
from games.core import InputError
from games.options import check_exclusive
from tuning._identity import changed_digest

#: the command-line flag of a game option
FLAG = "--option"


def _unchecked(game: Any, table: Mapping[str, Any], names: set[str]) -> dict[str, Any]:
    """The values ``table`` gives options ``names``, each checked by its own rule: what the
    spec's own options were before ``--option`` replaced them (the spec file's other
    options are checked with the merged table)."""
    schema = {o.name: o for o in game.options}
    out = {}
    for name in names:
        opt = schema[name]
        try:
            out[name] = opt.validate(table.get(name, opt.default), f"game.{name}")
        except InputError:
            out[name] = table.get(name)  # a bad value the line replaces: it differs
    return out


def _blame(exc: InputError, schema: Mapping[str, Any], overrides: Mapping[str, Any],
           where: str) -> InputError:
    """A failed check of the merged options as the line or the file caused it: an option
    the line gives (or a rule of several options, once the line gave some) names
    ``--option NAME``; an option only the file gives names the file and ``game.NAME``."""
    text = str(exc)
    named = text.partition(":")[0].removeprefix("game.")
    if overrides and (named in overrides or named not in schema):
        return InputError(f"{FLAG} {text.removeprefix('game.')}")
    return InputError(f"{where}: {text}")


def resolve_options(game: Any, spec: Any, overrides: Mapping[str, Any] | None = None,
                    seed_of: Callable[[Any], int | None] | None = None) -> Any:
    """``spec`` (a :class:`tuning._spec.StudySpec` with its command line's seed) with its game
    options checked (``checked``) and settled with its seed (``options``); ``overrides``
    (``--option`` items, by name) replace options of its ``[game]`` table first, and make
    a study of its own, ``STUDY.HASH``, when the game plays them differently; ``seed_of``,
    asked with the study named, may give the seed they are settled with (a resumed run's).
    One InputError naming the flag or the file's key otherwise."""
    schema = {o.name: o for o in game.options}
    table = dict(spec.game_options)
    overrides = dict(overrides or {})
    for name in overrides:
        if name not in schema:
            raise InputError(f"{FLAG} {name}: unknown option for {spec.game}; allowed: "
                             f"{', '.join(schema) or 'none'}")
    # an overridden option drops a spec option it excludes (the line asks for this one)
    kept = {k: v for k, v in table.items()
            if k not in overrides and not any(k in schema[n].excludes for n in overrides)}
    merged = {**kept, **overrides}
    try:
        checked = game.check_options(merged)
    except InputError as exc:
        raise _blame(exc, schema, overrides, str(spec.path)) from None
    changes: dict[str, Any] = {}
    if overrides:
        check_exclusive(game.options, list(overrides), spell=lambda o: f"{FLAG} {o.name}")
        touched = set(overrides) | (set(table) - set(kept))
        before = {**checked, **_unchecked(game, table, touched)}
        hashed = changed_digest(checked, before)
        if hashed is not None:
            changes = {"name": f"{spec.name}.{hashed}", "game_options": merged,
                       "raw": {**spec.raw, "game": merged}, "own_options": table}
    spec = dataclasses.replace(spec, checked=checked, **changes)
    seed = seed_of(spec) if seed_of is not None else None
    if seed is not None:
        spec = dataclasses.replace(spec, evaluation=dataclasses.replace(spec.evaluation,
                                                                        seed=seed))
    settled = use(game, "settle").settle_options(checked, spec.evaluation.seed)[0]
    return dataclasses.replace(spec, options=settled)
