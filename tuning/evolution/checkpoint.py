"""Evolution checkpoints: one self-checking file, written atomically.

Layout: a magic line, the SHA-256 of the payload, then the pickled payload (plain data only:
genes, fitness numbers, logbook rows, RNG states, the spec). A truncated, edited or foreign
file fails the magic or the checksum and is refused with a clear message; a checkpoint of
another spec is refused by comparing spec fingerprints.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from pathlib import Path
from typing import Any

from games.atomic import atomic_open
from games.core import InputError

MAGIC = b"TABLETUNE-EVOLUTION-CHECKPOINT v1\n"


def fingerprint(data: Any) -> str:
    """A stable short hash of JSON-like data (the parts of a spec a checkpoint must match)."""
    text = json.dumps(data, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def save_checkpoint(path: str | Path, payload: dict[str, Any]) -> None:
    """Write ``payload`` to ``path`` atomically: temp file in the same folder, fsync, rename."""
    body = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    digest = hashlib.sha256(body).hexdigest().encode() + b"\n"
    with atomic_open(path) as fh:
        fh.write(MAGIC)
        fh.write(digest)
        fh.write(body)


def load_checkpoint(path: str | Path) -> dict[str, Any]:
    """Read and verify a checkpoint; refuse a missing, foreign or corrupt file (InputError)."""
    path = Path(path)
    if path.is_dir():
        raise InputError(f"checkpoint {path} is a folder, not a file")
    if not path.is_file():
        raise InputError(f"no checkpoint at {path}: start without --resume to begin a new run")
    raw = path.read_bytes()
    if not raw.startswith(MAGIC):
        raise InputError(f"{path} is not a tabletune evolution checkpoint (wrong header)")
    rest = raw[len(MAGIC):]
    digest, sep, body = rest.partition(b"\n")
    if not sep or hashlib.sha256(body).hexdigest().encode() != digest:
        raise InputError(f"checkpoint {path} is corrupt (checksum mismatch): it was truncated "
                         "or modified; delete it or restore a good copy")
    try:
        payload = pickle.loads(body)
    except Exception as exc:  # noqa: BLE001 - any unpickling failure means a bad file
        raise InputError(f"checkpoint {path} is corrupt ({exc.__class__.__name__})") from None
    if not isinstance(payload, dict) or payload.get("format") != "tabletune-evolution":
        raise InputError(f"{path} is not a tabletune evolution checkpoint")
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
