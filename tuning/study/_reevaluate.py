"""Re-evaluate a study's top candidates on a fresh, larger seed set before calling one "best".

The search compares candidates on one common seed set, so the trial that looks best is
partly lucky on those seeds. Here the k best distinct candidates, the objective's baseline
candidates and the best candidate under extra comparison settings (e.g. another opponent)
are all played on the same fresh seed set (a root seed derived from the study seed), and the
results are stored as the study user attribute ``reevaluation``. Differences against
baselines are paired over those common seeds. The best so selected is then confirmed on
further games no selection played (:mod:`tuning.study._confirm`): that figure is the
study's result, the re-evaluated one its selection value.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import optuna
from optuna.trial import TrialState

from games import registry
from games.capabilities import use
from games.core import BotSpec
from tuning._spec import StudySpec
from tuning.evaluation import (
    Evaluation,
    Scorer,
    WorkerPool,
    candidate_bot,
    derived_seed,
    evaluate,
    paired_difference,
)
from tuning.study._confirm import confirm, stored_confirmation
from tuning.study._note import ATTR, show_reevaluation


def top_trials(study: optuna.Study, k: int) -> list[optuna.trial.FrozenTrial]:
    """The k best complete trials with distinct parameters, best first."""
    done = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
            if t.value is not None]
    sign = -1.0 if study.direction == optuna.study.StudyDirection.MAXIMIZE else 1.0
    done.sort(key=lambda t: (sign * t.value, t.number))
    out, seen = [], set()
    for t in done:
        key = json.dumps(t.params, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            out.append(t)
        if len(out) >= k:
            break
    return out


def _with_recommendation(study: optuna.Study, spec: StudySpec,
                         top: list[optuna.trial.FrozenTrial]) -> list[optuna.trial.FrozenTrial]:
    """For an NTBEA study, the point its model recommends (the best mean over the tuples of
    every trial, :meth:`tuning.study._ntbea.NTBEASampler.recommend`) among the candidates, in
    place of the last one: NTBEA plays points again and again, so one lucky trial is not its
    answer."""
    if spec.optuna.sampler != "ntbea":
        return top
    from tuning.study._ntbea import NTBEASampler
    from tuning.study._samplers import ntbea_space

    space, grids = ntbea_space(spec)
    recommended = NTBEASampler(space, spec.optuna.ntbea, grids=grids).recommend(study)
    if recommended is None or any(t.params == recommended for t in top):
        return top
    matching = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
                if t.params == recommended and t.value is not None]
    if not matching:
        return top
    sign = 1.0 if study.direction == optuna.study.StudyDirection.MAXIMIZE else -1.0
    chosen = max(matching, key=lambda t: (sign * t.value, -t.number))
    return [*top[:max(0, len(top) - 1)], chosen]


def _plain(bot: BotSpec) -> dict[str, Any]:
    """A bot as the JSON a study stores (its strategy and parameters, or its genome)."""
    if bot.genome is not None:
        return {"genome": bot.genome}
    return {"strategy": bot.name, "params": dict(bot.params)}


def _entry(ev: Evaluation, **extra: Any) -> dict[str, Any]:
    data = ev.to_dict()
    data.pop("block_means", None)
    data.pop("stopped_early", None)
    if ev.exact:
        data["ci95"] = [ev.mean, ev.mean]
    return {**extra, **data}


def reevaluate(study: optuna.Study, spec: StudySpec, force: bool = False,
               progress: Callable[[dict[str, Any]], None] | None = None,
               pool: WorkerPool | None = None) -> dict[str, Any]:
    """Re-evaluate the top candidates (once per top set; ``force`` to redo), confirm the
    best so selected on further fresh games (once per selection), store both and show
    them in the dashboard's note; returns the re-evaluation."""
    data = _select(study, spec, force, progress, pool)
    if data:
        confirm(study, spec, data, force=force, pool=pool, progress=progress)
        show_reevaluation(study)  # the confirmed value, with its seeds, in the note
    return data


def _select(study: optuna.Study, spec: StudySpec, force: bool,
            progress: Callable[[dict[str, Any]], None] | None,
            pool: WorkerPool | None) -> dict[str, Any]:
    """The re-evaluation of the top candidates, stored (or the stored one, unchanged)."""
    top = top_trials(study, max(1, spec.evaluation.reevaluate_top))
    if not top:
        return {}
    top = _with_recommendation(study, spec, top)
    ev_spec = spec.evaluation
    seed = derived_seed(ev_spec.seed, "reevaluate")
    games = ev_spec.reevaluate_games
    key = {"trials": [t.number for t in top], "games": games, "seed": seed}
    old = study.user_attrs.get(ATTR)
    if old and old.get("key") == key and not force:
        return old
    scorer = spec.scorer()
    block = max(ev_spec.block, -(-games // (4 * ev_spec.jobs)))
    game = registry.get(spec.game)
    terms = registry.StudyTerms(spec.objective, tuple(str(o) for o in ev_spec.opponents))
    report = use(game, "report")
    baseline_bots = report.baselines(scorer.options, terms)
    comparison_options = report.comparisons(scorer.options, terms)
    total = len(top) + len(baseline_bots) + len(comparison_options)
    blocks = -(-games // block)
    started = [0]

    def run(bot: BotSpec, using: Scorer = scorer) -> Evaluation:
        index = started[0]
        started[0] += 1
        where = {"index": index, "total": total, "games": games, "blocks": blocks}
        if progress is None:
            return evaluate(using, bot, games=games, seed=seed, block=block, pool=pool)
        progress({"event": "reevaluate", "candidate": _plain(bot), **where})

        def on_block(i: int, mean: float) -> bool:
            progress({"event": "reevaluate-block", "block": i + 1, **where})
            return False

        return evaluate(using, bot, games=games, seed=seed, block=block, pool=pool,
                        on_block=on_block, stoppable=False)

    sign = 1.0 if spec.direction == "maximize" else -1.0
    results = []
    for t in top:
        bot = candidate_bot({"strategy": spec.strategy, "params": dict(t.params)})
        results.append((t, bot, run(bot)))
    t_best, b_best, ev_best = max(results, key=lambda r: (sign * r[2].mean, -r[0].number))
    baselines = []
    for label, bot in baseline_bots.items():
        ev = run(bot)
        diff = paired_difference(ev_best, ev)
        baselines.append(_entry(ev, label=label, candidate=_plain(bot),
                                best_minus_this=diff.mean,
                                best_minus_this_ci95=list(diff.ci95)))
    comparisons = []
    for label, override in comparison_options.items():
        ev = run(b_best, spec.scorer(override.get("opponents")))
        comparisons.append(_entry(ev, label=label, options=override))
    data = {
        "key": key, "seed": seed, "games": games,
        "candidates": [_entry(ev, trial=t.number, params=dict(t.params), search_value=t.value)
                       for t, _, ev in results],
        "best": _entry(ev_best, trial=t_best.number, params=dict(t_best.params),
                       search_value=t_best.value),
        "baselines": baselines,
        "comparisons": comparisons,
    }
    study.set_user_attr(ATTR, data)
    # the best after re-evaluation, marked where the dashboard shows the study's user
    # attributes: its "Best Trial" ranks by search value, which can disagree
    study.set_user_attr("reevaluated_best_trial", t_best.number)
    return data


def best_result(study: optuna.Study) -> dict[str, Any]:
    """The reported best: the re-evaluated best with its confirmed figure (``mean``,
    ``ci95``, ``games``, ``seed``, ``start``; the re-evaluated figure as ``selection_*``),
    the re-evaluated figure alone where no confirmation is stored (``confirmed`` False: a
    study from before confirmations), else the best trial (flagged)."""
    data = study.user_attrs.get(ATTR)
    if data and data.get("best"):
        best = {**data["best"], "seed": data.get("seed"), "reevaluated": True,
                "confirmed": False}
        confirmed = stored_confirmation(study, data)
        if confirmed is None:
            return best
        return {**best, "selection_value": best["mean"], "selection_ci95": best["ci95"],
                "selection_stderr": best.get("stderr"), "selection_games": best["games"],
                "selection_seed": data.get("seed"),
                **{k: confirmed[k] for k in ("mean", "stderr", "ci95", "games", "seed",
                                             "start")},
                "confirmed": True}
    try:
        t = study.best_trial
    except ValueError:
        return {}
    ci = t.user_attrs.get("ci95", [t.value, t.value])
    return {"trial": t.number, "params": dict(t.params), "mean": t.value, "ci95": ci,
            "stderr": t.user_attrs.get("stderr"), "games": t.user_attrs.get("games"),
            "search_value": t.value, "reevaluated": False, "confirmed": False}
