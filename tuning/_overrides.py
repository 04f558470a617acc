"""Game options given on the command line of ``run``, ``evolve`` and ``report``.

``--option NAME=VALUE`` (repeatable) replaces one ``[game]`` option of a spec, so one spec
serves, say, any table setting of its game. The options are part of what a study *is*: a
spec run with other options becomes a study of its own, named ``STUDY.HASH`` (eight hex
digits of the changed options as the game checks them), so its trials, storage
(``runs/STUDY.HASH.journal``) and checkpoint (``runs/STUDY.HASH/``) never mix with those of
the spec's own options. The same flags read it back (``report``), and so does
``best:STUDY.HASH``, which takes the options from the stored run.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from games import registry
from games.core import InputError
from tuning._identity import option_values
from tuning._refs import PUBLISHED
from tuning._refs import SUMMARY_FILE as FILE
from tuning._resolve import FLAG
from tuning._spec import StudySpec, resolved

#: ``STUDY.HASH``: a spec's study with changed game options
_DERIVED = re.compile(r"^(?P<base>.+)\.(?P<hash>[0-9a-f]{8})$")


def parse_items(items: Iterable[str]) -> dict[str, str]:
    """``NAME=VALUE`` texts as a mapping; one InputError for a text without ``=``, an empty
    name or a name given twice."""
    out: dict[str, str] = {}
    for item in items:
        name, eq, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if not eq or not name or not value.strip():
            raise InputError(f"{FLAG} {item!r}: expected NAME=VALUE, e.g. {FLAG} cap=50")
        if name in out:
            raise InputError(f"{FLAG} {name} is given twice: give it once")
        out[name] = value.strip()
    return out


def checked_values(game: registry.Game, options: Mapping[str, Any], names: Iterable[str]
             ) -> dict[str, Any]:
    """The game's checked values of ``names`` in ``options`` (a table a stored run kept),
    as JSON-ready values."""
    return option_values(game.check_options(options), names)


def with_game_options(spec: StudySpec, overrides: Mapping[str, Any]) -> StudySpec:
    """``spec`` (a spec's own study) with ``overrides`` replacing its ``[game]`` options,
    resolved as a command line's ``--option`` items are (:mod:`tuning._resolve`): named
    ``STUDY.HASH`` when the game plays them differently from the spec's options; the spec
    itself otherwise."""
    if not overrides:
        return spec
    derived = resolved(registry.get(spec.game), spec, overrides)
    return spec if derived.name == spec.name else derived


def apply_items(spec: StudySpec, items: Iterable[str]) -> StudySpec:
    """:func:`with_game_options` of ``--option`` texts."""
    return with_game_options(spec, parse_items(items))


def split_derived(name: str) -> tuple[str, str] | None:
    """``STUDY.HASH`` as (STUDY, HASH); None for a name of another form."""
    found = _DERIVED.match(name)
    return (found["base"], found["hash"]) if found else None


def from_stored(spec: StudySpec, stored: Any, digest: str) -> StudySpec:
    """The study ``STUDY.DIGEST`` of base ``spec``, with the ``[game]`` table a run stored
    (``stored``: the spec's tables as the storage or checkpoint keeps them); InputError when
    they do not make that study."""
    wanted = f"{spec.name}.{digest}"
    table = stored.get("game") if isinstance(stored, dict) else None
    if not isinstance(table, dict):
        raise InputError(f"{wanted}: the stored run keeps no game options to rebuild it from")
    derived = with_game_options(spec, {k: v for k, v in table.items()
                                       if spec.game_options.get(k) != v})
    if derived.name != wanted:
        raise InputError(f"{wanted}: the stored run's game options make study "
                         f"{derived.name}, not {wanted}")
    return derived


def _published(base: StudySpec, wanted: str, local_first: bool = True
               ) -> tuple[Path, dict[str, Any]] | None:
    """``wanted``'s published summary (``reports/WANTED/run.json``, under the working
    folder or beside the spec's ``studies/``) and its game options, where no run of it is
    stored here (``local_first=False``: whatever is stored); None otherwise."""
    from tuning.evolution import default_checkpoint
    from tuning.study import default_location

    here = (default_checkpoint(base.replace(name=wanted)) if base.optimizer == "deap"
            else Path(default_location(wanted)))
    if local_first and here.exists():
        return None
    roots = [Path.cwd(), *([Path(base.path).resolve().parent.parent] if base.path else [])]
    for root in roots:
        path = root / "reports" / wanted / FILE
        if path.is_file():
            try:
                options = json.loads(path.read_text(encoding="utf-8")).get("game_options")
            except (OSError, ValueError, AttributeError):
                options = None
            if not isinstance(options, dict):
                raise InputError(f"{path}: keeps no game_options to rebuild {wanted} from")
            return path, options
    return None


def stored_study(base: StudySpec, digest: str, storage: str | None) -> StudySpec:
    """The study ``STUDY.DIGEST`` of spec ``base`` as a run left it: the game options are
    read from its Optuna storage (``storage``, default ``runs/STUDY.DIGEST.journal``) or
    its evolution checkpoint (default ``runs/STUDY.DIGEST/evolution.ckpt``)."""
    wanted = f"{base.name}.{digest}"
    published = (_published(base, wanted, local_first=False) if storage == PUBLISHED
                 else None if storage else _published(base, wanted))
    if storage == PUBLISHED and published is None:
        raise InputError(f"{wanted} has no published result: no reports/{wanted}/run.json "
                         f"here or beside its spec (publish one: tabletune report "
                         f"{base.name} {FLAG} NAME=VALUE ... --publish)")
    if published is not None:  # a fresh clone: the published report's summary
        path, options = published
        try:
            return from_stored(base, {"game": options}, digest)
        except InputError as exc:
            raise InputError(f"{path}: {str(exc).removeprefix(FLAG + ' ')}") from None
    if base.optimizer == "deap":
        from tuning.evolution import default_checkpoint, load_checkpoint

        path = Path(storage) if storage else default_checkpoint(base.replace(name=wanted))
        if not path.is_file():
            raise InputError(f"evolution {wanted} has no checkpoint {path}: run it first "
                             f"(tabletune evolve {base.name} {FLAG} NAME=VALUE ...)")
        return from_stored(base, load_checkpoint(path).get("spec"), digest)
    import optuna

    from tuning.study import default_location, open_storage, study_names

    try:
        opened = open_storage(storage or default_location(wanted), create=False)
    except InputError as exc:
        if storage or "does not exist" not in str(exc):
            raise
        raise InputError(f"{exc}: run it first (tabletune run {base.name} {FLAG} "
                         "NAME=VALUE ...)") from None
    if wanted not in study_names(opened):
        raise InputError(f"storage {opened.location} holds no study {wanted!r}; found: "
                         f"{', '.join(study_names(opened)) or 'none'}")
    study = optuna.load_study(study_name=wanted, storage=opened.storage)
    return from_stored(base, study.user_attrs.get("spec"), digest)


def option_flags(spec: StudySpec) -> list[str]:
    """The ``--option NAME=VALUE`` words (each quoted for a shell) that make ``spec`` from
    its spec file: none for the file's own study."""
    own = spec.own_options  # the spec file's own table, kept when the options were resolved
    if split_derived(spec.name) is None or spec.path is None or own is None:
        return []
    words: list[str] = []
    for name, value in spec.game_options.items():
        if own.get(name) != value:
            shown = ",".join(map(str, value)) if isinstance(value, list | tuple) else value
            words += [FLAG, shlex.quote(f"{name}={shown}")]
    return words


def base_name(spec: StudySpec) -> str:
    """The name of the spec ``spec`` was made from (``STUDY`` of ``STUDY.HASH``)."""
    parts = split_derived(spec.name)
    return parts[0] if parts and option_flags(spec) else spec.name


def command_words(spec: StudySpec) -> str:
    """What a command line names ``spec`` by: ``STUDY`` for a spec's own study, ``STUDY
    --option NAME=VALUE ...`` for ``STUDY.HASH`` (``run`` and ``evolve`` take the spec and
    its options, not the derived name); a spec outside ``studies/`` by its file."""
    from tuning._spec_files import STUDIES_DIR

    elsewhere = spec.path is not None and Path(spec.path).resolve().parent != STUDIES_DIR
    return " ".join([shlex.quote(str(spec.path)) if elsewhere else base_name(spec),
                     *option_flags(spec)])
