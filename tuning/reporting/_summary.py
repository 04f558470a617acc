"""``run.json``: the published summary of a study's or an evolution's best, beside its report.

``tabletune report`` writes it into the report folder (``--publish``: the committed
``reports/STUDY/``), so that ``best:STUDY`` plays the result on a fresh clone, where no
``runs/`` journal or checkpoint exists. It holds what the bot needs and where its figure
comes from:

- an Optuna study: ``best_params`` of the reported best (the re-evaluated best trial),
  ``best_value`` with ``best_value_ci``, ``best_value_games``, ``best_value_seed`` (the
  fresh seed set's root) and ``best_value_start`` (its first game), confirmed on games no
  selection played (``best_confirmed``), the selection value beside it
  (``best_selection_value``, ``_ci``, ``_games``: the re-evaluation that picked it),
  ``best_exact``, the study's ``seed`` and trial counts; a summary from before
  confirmations has no ``best_confirmed``, and its ``best_value`` is the selection value;
- an evolution: ``best_genome`` (the top of the hall of fame re-evaluated on fresh seeds),
  ``best_fitness`` with ``best_fitness_ci``, ``best_fitness_games``,
  ``best_fitness_seed``, ``best_fitness_start``, ``best_fitness_exact`` (confirmed on
  further seeds, ``best_confirmed``), the selection value ``best_selection_fitness`` with
  ``_ci`` and ``_games``, and the run's ``seed``, ``generations``.

Both keep the spec's ``[game]`` options (``game_options``), from which
``best:STUDY.HASH`` rebuilds a study run with other options (:mod:`tuning._overrides`).

:func:`read_summary` checks that a file holds the bot and its figure (:data:`REQUIRED`; a
``tabletune run --json`` record reads too); anything else is a one-line InputError.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from games.core import InputError
from tuning._refs import SUMMARY_FILE as FILE

#: The keys ``best:`` needs, by optimizer: the bot and its figure.
REQUIRED = {"optuna": ("best_params", "best_value", "best_trial"),
            "deap": ("best_genome", "best_fitness")}
#: What a published summary also states: the figure's interval, sample and seeds.
STATED = {"optuna": ("best_value_ci", "best_value_games", "best_value_seed", "seed"),
          "deap": ("best_fitness_ci", "best_fitness_games", "best_fitness_seed", "seed",
                   "generations")}


def study_summary(loaded: Any) -> dict[str, Any]:
    """The summary of an Optuna study opened by :func:`tuning.study._runner.load_study` (its
    spec carries the seed the study's runs were given)."""
    from tuning.evaluation import derived_seed
    from tuning.study import ATTR, best_result, state_counts

    study, spec = loaded.study, loaded.spec
    best = best_result(study)
    counts = state_counts(study)
    stored = study.user_attrs.get(ATTR) or {}
    exact = bool(best.get("exact"))
    reseed = best.get("seed", stored.get("seed",
                                         derived_seed(spec.evaluation.seed, "reevaluate")))
    return {
        "study": spec.name, "optimizer": "optuna", "game": spec.game,
        "game_options": dict(spec.game_options),
        "strategy": spec.strategy, "storage": loaded.opened.location,
        "seed": spec.evaluation.seed, "trials_requested": spec.optuna.trials,
        "trials_completed": counts.get("COMPLETE", 0),
        "trials_pruned": counts.get("PRUNED", 0), "trials_failed": counts.get("FAIL", 0),
        "best_trial": best.get("trial"), "best_params": best.get("params"),
        "best_value": best.get("mean"), "best_value_ci": best.get("ci95"),
        "best_value_games": 0 if exact else best.get("games"),
        "best_value_seed": None if exact or not best.get("reevaluated") else reseed,
        "best_value_start": None if exact else best.get("start"),
        "best_reevaluated": bool(best.get("reevaluated")), "best_exact": exact,
        "best_confirmed": bool(best.get("confirmed")),
        "best_selection_value": best.get("selection_value"),
        "best_selection_ci": best.get("selection_ci95"),
        "best_selection_games": 0 if exact else best.get("selection_games"),
        "games": sum(int(t.user_attrs.get("games", 0))
                     for t in study.get_trials(deepcopy=False)),
    }


def evolution_summary(spec: Any, report: dict[str, Any], checkpoint: Path) -> dict[str, Any]:
    """The summary of an evolution from what its report found (``report``: the dict
    :func:`tuning.reporting.build_evolution_report` returns)."""
    from tuning.evaluation import derived_seed

    settings = report["settings"]
    exact = bool(report["exact"])
    return {
        "study": spec.name, "optimizer": "deap", "game": spec.game,
        "game_options": dict(spec.game_options),
        "checkpoint": str(checkpoint), "seed": settings["seed"],
        "generations": report["generations"], "algorithm": settings.get("algorithm"),
        "population": settings.get("population"), "offspring": settings.get("offspring"),
        "best_genome": report["best_genome"], "best_fitness": report["best_fitness"],
        "best_fitness_ci": list(report["best_fitness_ci"]),
        "best_fitness_games": 0 if exact else report["best_fitness_games"],
        "best_fitness_seed": None if exact else derived_seed(settings["seed"], "reevaluate"),
        "best_fitness_start": report.get("best_fitness_start"),
        "best_fitness_exact": exact, "best_confirmed": "best_selection_fitness" in report,
        "best_selection_fitness": report.get("best_selection_fitness"),
        "best_selection_ci": report.get("best_selection_ci"),
        "best_selection_games": 0 if exact else report.get("best_selection_games"),
        "games": report["games"],
    }


def write_summary(out_dir: Path | str, data: dict[str, Any]) -> Path:
    """Write ``data`` as ``run.json`` in ``out_dir``; returns its path."""
    path = Path(out_dir) / FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(_plain(data), indent=2) + "\n", encoding="utf-8")
    return path


def _plain(value: Any) -> Any:
    """JSON-safe: numpy scalars as Python numbers, tuples as lists, NaN and inf as null."""
    if isinstance(value, Mapping):  # dicts and a game's typed options
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "item") and getattr(value, "ndim", 1) == 0:
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def read_summary(path: Path, optimizer: str) -> dict[str, Any]:
    """A published summary of an ``optimizer`` ("optuna" or "deap") run, checked for the
    keys ``best:`` reads."""
    keys = REQUIRED[optimizer]
    what = "study" if optimizer == "optuna" else "evolution"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        missing = [k for k in keys if k not in data] if isinstance(data, dict) else keys
        if missing:
            raise ValueError(f"missing {', '.join(missing)}")
        if optimizer == "optuna" and not isinstance(data["best_params"], dict):
            raise ValueError("best_params is not a table")
        if optimizer == "deap" and not isinstance(data["best_genome"], str):
            raise ValueError("best_genome is not a text")
        float(data["best_value" if optimizer == "optuna" else "best_fitness"])
    except (OSError, ValueError, TypeError) as exc:
        raise InputError(f"{path}: not a published {what} summary with "
                         f"{', '.join(keys)} ({exc})") from None
    return data
