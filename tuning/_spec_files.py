"""Where study specs live, and what a listing shows of one, without importing any game.

:mod:`tuning._spec` validates a spec against its game's description, which loads the game's
engine; listing the specs (``tabletune studies``) needs only what the file states, so it
reads the ``[study]`` table here and checks that it names a known game
(:func:`games.names.known_names`): the listing starts in a fraction of a second. Full validation is
:func:`tuning._spec.load_spec` (``tabletune studies --check``, and every run).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from games.errors import InputError


def _studies_dir() -> Path:
    """The folder of the ready-made specs, in a checkout and in an installed package.

    ``tuning/studies`` is a link to the top-level ``studies/`` (the source of truth) in a
    checkout and the copy that the wheel ships once installed; a checkout without links
    (the link is then a small file) falls back to ``studies/`` itself.
    """
    here = Path(__file__).resolve().parent
    for candidate in (here / "studies", here.parent / "studies"):
        if candidate.is_dir():
            return candidate.resolve()
    return here / "studies"


STUDIES_DIR = _studies_dir()


def resolve_path(study: str | Path) -> Path:
    """A spec path from a name in ``studies/`` or a file path (InputError if none exists)."""
    text = str(study)
    candidates = [Path(text)]
    if not text.endswith(".toml"):
        candidates.append(STUDIES_DIR / f"{text}.toml")
    candidates.append(STUDIES_DIR / text)
    for path in candidates:
        if path.is_file():
            return path
    base, dot, digest = text.rpartition(".")
    hashed = dot and len(digest) == 8 and all(c in "0123456789abcdef" for c in digest)
    if hashed and ((STUDIES_DIR / f"{base}.toml").is_file() or Path(base).is_file()):
        # STUDY.HASH (tuning._overrides) names a run, not a spec: the spec and its options do
        raise InputError(f"{text!r} is study {base} run with other game options, not a spec "
                         f"file: name the spec and the options (tabletune run {base} "
                         f"--option NAME=VALUE ..., report the same); best:{text} plays it")
    known = ", ".join(sorted(p.stem for p in STUDIES_DIR.glob("*.toml"))) or "none"
    raise InputError(f"no study spec {text!r}: give a file path or one of: {known}")


def list_specs(directory: Path = STUDIES_DIR) -> list[Path]:
    """Every ``*.toml`` spec in the studies directory, by name."""
    return sorted(directory.glob("*.toml"))


def summary(path: Path) -> dict[str, Any]:
    """What a listing shows of one spec file: name, game, optimizer, strategy, description
    as the file states them. InputError when the file is not TOML, has no ``[study]``
    table or names no known game; nothing else is checked (see the module's note)."""
    from games.names import known_names

    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    study = raw.get("study")
    if not isinstance(study, dict):
        raise InputError(f"{path}: study: missing or not a table")
    game = study.get("game")
    known = known_names()
    if game not in known:
        raise InputError(f"{path}: study.game: {game!r} is not a known game; known games: "
                         f"{', '.join(known)}")
    return {"name": str(study.get("name", path.stem)), "game": game,
            "optimizer": str(study.get("optimizer", "optuna")),
            "strategy": study.get("strategy"), "description": str(study.get("description", ""))}
