"""Opening a spec's study on its storage: create it, or read it back as it was run.

A study is marked with the fingerprint of what makes its trial values comparable, and with
the seed and budget its command lines gave it, so that ``report`` and ``best:STUDY`` read
the study as it was run and a study of other settings is refused instead of mixed in.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

import optuna

from games import registry
from games.core import InputError
from tuning._identity import option_identity
from tuning._spec import StudySpec
from tuning.study import _storage as st
from tuning.study._samplers import make_pruner, make_sampler


def fingerprint(spec: StudySpec, game_options: Any = None) -> str:
    """What makes trial values comparable: game, strategy, objective, options, seeds, space
    (with ``best:`` opponents resolved: a stored mark never holds a reference's text). The
    options are the study's identity (:func:`tuning._identity.option_identity`): a default
    written out is the study it was. ``game_options`` replaces them (see
    :func:`_check_fingerprint`)."""
    spec.check_resolved()
    if game_options is None:
        game_options = option_identity(registry.get(spec.game), spec.checked)
    keys = {"game": spec.game, "strategy": spec.strategy, "objective": spec.objective,
            "direction": spec.direction, "game_options": game_options,
            "games": spec.evaluation.games, "block": spec.evaluation.block,
            "seed": spec.evaluation.seed, "opponents": list(spec.evaluation.opponents),
            "space": {k: [v.type, v.low, v.high, v.log, v.step, v.choices]
                      for k, v in sorted(spec.space.items())}}
    text = json.dumps(keys, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


#: study user attribute with the run settings a command line may change (``--seed``,
#: ``--trials``): what ``report`` and ``best:STUDY`` need to read the study as it was run
RUN_ATTR = "run"


def _open_location(spec: StudySpec, location: str | None, create: bool) -> st.OpenedStorage:
    given = location or spec.optuna.storage
    try:
        opened = st.open_storage(given or st.default_location(spec.name), create=create,
                                 make_folder=not given or st.in_runs_dir(given))
    except InputError as exc:
        if create or "does not exist" not in str(exc):
            raise
        from tuning._overrides import command_words
        raise InputError(f"{exc}: run the study first (tabletune run "
                         f"{command_words(spec)})") from None
    if not create and spec.name not in st.study_names(opened):
        raise InputError(f"storage {opened.location} holds no study {spec.name!r}; "
                         f"found: {', '.join(st.study_names(opened)) or 'none'}")
    return opened


def _check_fingerprint(study: optuna.Study, spec: StudySpec, opened: st.OpenedStorage) -> None:
    """Refuse a stored study of other settings. A study stored before marks held the
    options' identity holds them as its spec's ``[game]`` table spelled them: that mark
    is the same study too."""
    mark = fingerprint(spec)
    stored = study.user_attrs.get("fingerprint", mark)
    if stored != mark and stored != fingerprint(spec, spec.game_options):
        raise InputError(
            f"study {spec.name!r} in {opened.location} was made with other settings (seed, "
            "games, space or options); pass another --storage to start a separate study")


def stored_run(attrs: dict[str, Any]) -> dict[str, int]:
    """The seed and trial budget a study was run with (older studies: the seed only)."""
    run = {k: v for k, v in dict(attrs.get(RUN_ATTR) or {}).items()
           if k in ("seed", "trials") and isinstance(v, int)}
    if "seed" not in run and isinstance(attrs.get("seed"), int):
        run["seed"] = attrs["seed"]
    return run


def _record_run(study: optuna.Study, spec: StudySpec) -> None:
    """Remember the run's seed and budget (the largest any run asked for)."""
    old = stored_run(study.user_attrs)
    run = {"seed": spec.evaluation.seed,
           "trials": max(spec.optuna.trials, old.get("trials", 0))}
    if study.user_attrs.get(RUN_ATTR) != run:
        study.set_user_attr(RUN_ATTR, run)


def open_study(spec: StudySpec, location: str | None = None,
               create: bool = True) -> tuple[optuna.Study, st.OpenedStorage]:
    """Create or load the spec's study on its storage, refusing a study from another spec.

    With ``create=False`` the study must exist and is read as it was run (see
    :func:`load_study`)."""
    if not create:
        loaded = load_study(spec, location)
        return loaded.study, loaded.opened
    opened = _open_location(spec, location, create)
    study = optuna.create_study(storage=opened.storage, study_name=spec.name,
                                direction=spec.direction, sampler=make_sampler(spec),
                                pruner=make_pruner(spec), load_if_exists=True)
    if getattr(study, "metric_names", None) is None and hasattr(study, "set_metric_names"):
        import warnings

        with warnings.catch_warnings():  # experimental in Optuna, stable in use since 3.2
            warnings.simplefilter("ignore")
            study.set_metric_names([spec.objective])  # the dashboard names it, not "Objective 0"
    if "fingerprint" not in study.user_attrs:
        study.set_user_attr("fingerprint", fingerprint(spec))
        study.set_user_attr("spec", {k: v for k, v in spec.raw.items()})
        study.set_user_attr("seed", spec.evaluation.seed)
    _check_fingerprint(study, spec, opened)
    _record_run(study, spec)
    return study, opened


@dataclass
class StoredStudy:
    """An existing study opened for reading, with the spec as its runs were given it."""

    study: optuna.Study
    opened: st.OpenedStorage
    spec: StudySpec
    flags: list[str]  # the run's command-line flags beyond the spec file, e.g. --seed 7


def load_study(spec: StudySpec, location: str | None = None) -> StoredStudy:
    """Open the spec's existing study and apply the seed and budget its runs were given on
    the command line (stored with the study), so a study run with ``--seed 7`` reads back
    as that study: same fingerprint, same re-evaluation seeds."""
    opened = _open_location(spec, location, create=False)
    study = optuna.load_study(study_name=spec.name, storage=opened.storage,
                              sampler=optuna.samplers.RandomSampler(seed=0))
    run, flags = stored_run(study.user_attrs), []
    if run.get("seed") is not None and run["seed"] != spec.evaluation.seed:
        spec = spec.with_overrides(seed=run["seed"])
        flags += ["--seed", str(run["seed"])]
    if run.get("trials") is not None and run["trials"] != spec.optuna.trials:
        spec = spec.with_overrides(trials=run["trials"])
        flags += ["--trials", str(run["trials"])]
    _check_fingerprint(study, spec, opened)
    return StoredStudy(study, opened, spec, flags)
