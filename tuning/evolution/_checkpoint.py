"""Evolution checkpoints: one self-checking file, written atomically.

The file format is the one of every checkpoint (:mod:`games.checkpoint`): a magic line, the
SHA-256 of the payload, then the pickled payload (plain data only: genes, fitness numbers,
logbook rows, RNG states, the spec). A truncated, edited or foreign file fails the magic or
the checksum and is refused with a clear message; a checkpoint of another spec is refused by
comparing spec fingerprints.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from games.checkpoint import load_checked, save_checked
from games.core import InputError

MAGIC = b"TABLETUNE-EVOLUTION-CHECKPOINT v1\n"
KIND = "tabletune evolution checkpoint"


def fingerprint(data: Any) -> str:
    """A stable short hash of JSON-like data (the parts of a spec a checkpoint must match)."""
    text = json.dumps(data, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def save_checkpoint(path: str | Path, payload: dict[str, Any]) -> None:
    """Write ``payload`` to ``path`` atomically: temp file in the same folder, fsync, rename."""
    save_checked(path, payload, MAGIC)


def load_checkpoint(path: str | Path) -> dict[str, Any]:
    """Read and verify a checkpoint; refuse a missing, foreign or corrupt file (InputError)."""
    payload = load_checked(path, MAGIC, KIND)
    if not isinstance(payload, dict) or payload.get("format") != "tabletune-evolution":
        raise InputError(f"{path} is not a {KIND}")
    return payload


def _flat(data: Any, prefix: str = "") -> dict[str, Any]:
    """Nested dicts as one level with dotted keys (``settings.population``)."""
    if not isinstance(data, dict):
        return {prefix: data}
    out: dict[str, Any] = {}
    for key, value in data.items():
        out.update(_flat(value, f"{prefix}.{key}" if prefix else str(key)))
    return out


def _setting_name(key: str) -> str:
    """A user's name for an identity key: ``settings.population`` -> ``population``."""
    for head in ("settings.", "evaluation."):
        if key.startswith(head):
            return key[len(head):]
    return key


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """``name: checkpoint X, now Y`` for every setting that differs between two identities."""
    a, b = _flat(old), _flat(new)
    out, seen = [], set()
    for key in sorted(set(a) | set(b)):
        if a.get(key, "(unset)") == b.get(key, "(unset)"):
            continue
        name = _setting_name(key)
        if name in seen:  # the seed is both a setting and the evaluation's root seed
            continue
        seen.add(name)
        out.append(f"{name}: checkpoint {a.get(key, '(unset)')!r}, now {b.get(key, '(unset)')!r}")
    return out


def check_matches(path: str | Path, payload: dict[str, Any], expected: str, study: str,
                  identity: dict[str, Any] | None = None) -> None:
    """Refuse to resume from a checkpoint whose spec fingerprint differs from ``expected``.

    Where the checkpoint holds the settings its fingerprint was made of, the message names
    each setting that differs, with the checkpoint's value and this run's.
    """
    found = payload.get("fingerprint")
    if found == expected:
        return
    other = payload.get("study", "?")
    stored = payload.get("identity")
    if isinstance(stored, dict) and identity is not None:
        diff = differences(stored, identity)
        if diff:
            raise InputError(
                f"checkpoint {path} was made with other settings than this run of study "
                f"{study!r}: {'; '.join(diff[:5])}{' ...' if len(diff) > 5 else ''}; resume "
                "without the flags that change them, or use another --checkpoint")
    raise InputError(
        f"checkpoint {path} belongs to another spec (study {other!r}, fingerprint {found}) "
        f"than study {study!r} (fingerprint {expected}): the game, evaluation, genome, "
        "operators, population or seed differ; use another --checkpoint or the same spec")
