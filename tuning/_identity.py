"""A study's identity in its game options: one rule for every mark that tells two runs of a
study apart from two studies.

Three things name or mark a study by its ``[game]`` options: the name ``STUDY.HASH`` of a
spec run with ``--option`` (:mod:`tuning._overrides`), the fingerprint an Optuna study keeps
(:mod:`tuning.study._opening`) and the one an evolution's checkpoint keeps
(:mod:`tuning.evolution._runner`). All three read the options here, as the game checked them
(typed, defaults filled in), never as a spec's table spells them: writing a default value
into ``[game]``, or giving a value in another spelling, leaves the study what it was.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any


def json_value(value: Any) -> Any:
    """A checked option value as JSON keeps it (a tuple as a list)."""
    return list(value) if isinstance(value, tuple) else value


def option_values(options: Mapping[str, Any], names: Iterable[str] | None = None
                  ) -> dict[str, Any]:
    """Checked options (``names`` of them; default all) as JSON-ready values, by name."""
    chosen = sorted(options if names is None else names)
    return {n: json_value(options[n]) for n in chosen}


def option_identity(game: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """What a study's fingerprint holds of its checked ``options``: the values that differ
    from the game's declared defaults (checked as the game checks any value), JSON-ready,
    so an omitted option and its default written out are one study."""
    schema = {o.name: o for o in game.options}
    values = option_values(options)
    out = {}
    for name, value in values.items():
        opt = schema.get(name)
        if opt is not None and json_value(opt.validate(opt.default, f"game.{name}")) == value:
            continue
        out[name] = value
    return out


def digest(values: Mapping[str, Any]) -> str:
    """Eight hex digits of JSON-ready ``values`` (the HASH of ``STUDY.HASH``)."""
    text = json.dumps(values, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def changed_digest(now: Mapping[str, Any], before: Mapping[str, Any]) -> str | None:
    """The HASH of a study whose checked options ``now`` differ from its spec's ``before``
    (the changed values), or None when the game plays them alike."""
    a, b = option_values(now), option_values(before)
    changed = {n: v for n, v in a.items() if v != b.get(n)}
    return digest(changed) if changed else None
