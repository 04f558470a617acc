"""Report of an Optuna study: result table, best parameters, figures, Optuna's overhead.

:func:`build_study_report` re-evaluates (or reads the stored re-evaluation of) the study's
best candidates and writes ``index.html``, ``README.md`` and PNG figures through
:mod:`tuning.reporting._page`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tuning._overrides import option_flags
from tuning.reporting._page import (
    Section,
    figure_png,
    markdown_table,
    plt,
    write_report,
)
from tuning.reporting._stored import HEADERS as STORED_HEADERS
from tuning.reporting._stored import stored_evaluations, stored_note, stored_rows


def _trial_rows(study: Any) -> tuple[list[Any], list[Any], list[Any]]:
    from optuna.trial import TrialState
    trials = study.get_trials(deepcopy=False)
    done = [t for t in trials if t.state == TrialState.COMPLETE and t.value is not None]
    pruned = [t for t in trials if t.state == TrialState.PRUNED and t.intermediate_values]
    return trials, done, pruned


def value_limits(values: list[float], maximize: bool,
                 shown: tuple[float, ...] = ()) -> tuple[float, float] | None:
    """The y-range of a history plot, set by the trial values (and the ``shown`` points,
    such as the re-evaluated best) alone.

    With eight or more trials it holds the better three quarters of them: a few poor early
    trials (0.3 where the good ones lie in 0.99-1.0) would otherwise flatten the range that
    matters. A confidence band never widens it (a 2,000-game interval is wider than the
    spread of the good trials and would fill the plot)."""
    if not values:
        return None
    ordered = sorted(values)
    lo, hi = ordered[0], ordered[-1]
    if len(ordered) >= 8:
        q = ordered[len(ordered) // 4] if maximize else ordered[(3 * len(ordered)) // 4]
        lo, hi = (q, hi) if maximize else (lo, q)
    lo, hi = min((lo, *shown)), max((hi, *shown))
    pad = 0.08 * (hi - lo) if hi > lo else max(abs(hi) * 0.01, 1e-3)
    return lo - pad, hi + pad


def history_axes(study: Any, best: dict[str, Any]) -> tuple[Any, Any]:
    """The history plot (figure, axes): trial values, pruned trials' last block mean, best
    so far, and the re-evaluated best as one point at its trial with its 95% interval."""
    _, done, pruned = _trial_rows(study)
    maximize = study.direction.name == "MAXIMIZE"
    fig, ax = plt.subplots(figsize=(8, 4.2))
    if pruned:
        ax.scatter([t.number for t in pruned],
                   [sum(t.intermediate_values.values()) / len(t.intermediate_values)
                    for t in pruned],
                   marker="x", color="#bbbbbb", label="pruned (mean of blocks played)")
    if done:
        xs = [t.number for t in done]
        ys = [t.value for t in done]
        ax.scatter(xs, ys, s=14, color="#1f77b4", label="complete trial")
        run, acc = [], None
        for y in ys:
            acc = y if acc is None else (max(acc, y) if maximize else min(acc, y))
            run.append(acc)
        ax.step(xs, run, where="post", color="#d62728", label="best so far (search seeds)")
    shown: tuple[float, ...] = ()
    if best.get("reevaluated") and best.get("ci95") and best.get("trial") is not None:
        lo, hi = best["ci95"]
        mean = best["mean"]
        what = (f"best {'confirmed' if best.get('confirmed') else 're-evaluated'}: "
                f"{mean:.4f}, 95% CI {lo:.4f}..{hi:.4f} "
                f"({best['games']:,} fresh games)" if best.get("games")
                else f"best, exact value: {mean:.4f}")
        ax.errorbar([best["trial"]], [mean], yerr=[[mean - lo], [hi - mean]], fmt="D",
                    color="#2ca02c", ecolor="#2ca02c", capsize=5, markersize=7, zorder=5,
                    label=what)
        shown = (mean,)  # the point is shown; its interval may run off the axis
    if len(done) < 8:  # a short study: every point shown, pruned ones too
        shown += tuple(sum(t.intermediate_values.values()) / len(t.intermediate_values)
                       for t in pruned)
    ax.set_xlabel("trial")
    ax.set_ylabel("objective")
    limits = value_limits([t.value for t in done], maximize, shown)
    if limits is not None:
        ax.set_ylim(*limits)
        if len(done) >= 8:
            ax.set_ylabel("objective (worst quarter of trials below the axis)" if maximize
                          else "objective (worst quarter of trials above the axis)")
    ax.set_title(f"Optimisation history: {study.study_name}")
    ax.legend(loc="best", fontsize=8)  # where it hides the fewest points
    ax.grid(alpha=0.3)
    return fig, ax


def history_figure(study: Any, best: dict[str, Any]) -> bytes:
    """The history plot (:func:`history_axes`) as PNG bytes."""
    return figure_png(history_axes(study, best)[0])


IMPORTANCE_NAME = "PED-ANOVA, as optuna-dashboard computes it"


def param_importances(study: Any) -> dict[str, float]:
    """Parameter importances exactly as optuna-dashboard computes them (PED-ANOVA over the
    complete trials, the better values as its target; deterministic, no seed), so the
    report's chart and the dashboard's show the same figures."""
    import warnings

    import optuna
    from optuna.importance import PedAnovaImportanceEvaluator

    maximize = study.direction == optuna.study.StudyDirection.MAXIMIZE
    with warnings.catch_warnings():
        # Optuna warns whenever a target is given to PED-ANOVA; the dashboard silences it too
        warnings.filterwarnings("ignore", message="PedAnovaImportanceEvaluator computes")
        return optuna.importance.get_param_importances(
            study, evaluator=PedAnovaImportanceEvaluator(),
            target=(lambda t: -t.value) if maximize else (lambda t: t.value))


def importance_figure(study: Any) -> tuple[bytes, dict[str, float]]:
    """Parameter importances (:func:`param_importances`) as a horizontal bar chart."""
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * max(2, len(study.best_params or {}))))
    importances: dict[str, float] = {}
    try:
        importances = param_importances(study)
        why = "" if importances else "too few complete trials"
    except (ValueError, RuntimeError) as exc:
        why = str(exc)
    if why:
        ax.text(0.5, 0.5, f"importances unavailable: {why}", ha="center", va="center",
                wrap=True)
        ax.set_axis_off()
        return figure_png(fig), importances
    names = list(importances)[::-1]
    ax.barh(names, [importances[n] for n in names], color="#1f77b4")
    ax.set_xlabel(f"importance ({IMPORTANCE_NAME})")
    ax.set_title("Parameter importances")
    ax.grid(axis="x", alpha=0.3)
    return figure_png(fig), importances


def candidates_figure(rows: list[tuple[str, float, tuple[float, float]]], reference: float | None,
                      xlabel: str, title: str = "Best candidates vs baselines (fresh seeds, "
                      "95% CI)") -> bytes:
    """Re-evaluated candidates and baselines with their 95% intervals."""
    fig, ax = plt.subplots(figsize=(8, 0.8 + 0.45 * len(rows)))
    labels = [r[0] for r in rows][::-1]
    means = [r[1] for r in rows][::-1]
    lows = [r[1] - r[2][0] for r in rows][::-1]
    highs = [r[2][1] - r[1] for r in rows][::-1]
    ax.errorbar(means, range(len(rows)), xerr=[lows, highs], fmt="o", color="#1f77b4",
                ecolor="#333333", capsize=4)
    ax.set_yticks(range(len(rows)), labels)
    if reference is not None:
        ax.axvline(reference, color="#d62728", linestyle="--", linewidth=1)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return figure_png(fig)


def _trial_time(study: Any, timed_only: bool) -> tuple[float, float, int]:
    """Seconds covered by finished trials, their evaluation seconds and their count.

    One process's trials overlap when it claims (or streams) the next one while its workers
    play the current one, so per process the time covered is the union of its trials' spans
    (their sum would count that waiting twice); processes (resumes, parallel workers) add up.
    """
    from tuning.study import trial_owner

    spans: dict[Any, list[tuple[float, float]]] = {}
    spent = 0.0
    n = 0
    for t in study.get_trials(deepcopy=False):
        if not (t.datetime_start and t.datetime_complete):
            continue
        if timed_only and "objective_seconds" not in t.user_attrs:
            continue
        spans.setdefault(trial_owner(t), []).append(
            (t.datetime_start.timestamp(), t.datetime_complete.timestamp()))
        spent += float(t.user_attrs.get("objective_seconds", 0.0))
        n += 1
    total = 0.0
    for own in spans.values():
        end = float("-inf")
        for a, b in sorted(own):
            if b > end:
                total += b - max(a, end)
                end = b
    return total, spent, n


def overhead_share(study: Any) -> tuple[float, float]:
    """Optuna's share of trial time (1 - evaluation seconds / time covered by trials) and
    its mean seconds per trial."""
    total, spent, n = _trial_time(study, timed_only=True)
    if not n or total <= 0:
        return float("nan"), float("nan")
    return max(0.0, 1.0 - spent / total), max(0.0, total - spent) / n


def _ci(entry: dict[str, Any]) -> str:
    lo, hi = entry["ci95"]
    return f"{lo:.4f} .. {hi:.4f}"


def _search_note(spec: Any, data: dict[str, Any], exact: bool) -> str:
    ev = spec.evaluation
    n = len(data.get("candidates", []))
    if exact:
        return (f"Every candidate is scored exactly (expected value over all shuffles, no "
                f"sampling), so search values are final; the top {n} candidates and the "
                "baselines are recomputed exactly for the table, and intervals have zero width.")
    from games import registry

    solo = registry.get(spec.game).player_counts == (1,)  # one seat: nothing to rotate
    seats = "" if solo else ", seats rotated"
    return (f"Search: every candidate plays the same {ev.games:,} games (seed {ev.seed}, "
            f"blocks of {ev.block}{seats}). Re-evaluation: the top {n} candidates and "
            f"the baselines replay {data.get('games', 0):,} fresh games (root seed "
            f"{data.get('seed')}); the best is the best re-evaluated one, not the best search "
            f"value. Confirmation: that best replays {ev.confirmations:,} further games of "
            "the same root, after the re-evaluation's; their value is the result.")


def result_line(best: dict[str, Any]) -> str:
    """The report's headline: the confirmed best with its interval and seeds, its selection
    value beside it (a study confirmed before reports stated both shows what it holds)."""
    if not best:
        return "Result: no complete trial."
    head = f"Result: trial {best['trial']}, {best['mean']:.4f}"
    if best.get("exact"):
        return f"{head} (exact value)."
    lo, hi = best["ci95"]
    if not best.get("confirmed"):
        return (f"{head} (95% CI {lo:.4f} .. {hi:.4f}; re-evaluated on {best['games']:,} "
                "games: the selection value, not confirmed).")
    slo, shi = best["selection_ci95"]
    start, games = int(best["start"]), int(best["games"])
    return (f"{head} (95% CI {lo:.4f} .. {hi:.4f}), confirmed on {games:,} further fresh "
            f"games (root seed {best['seed']}, games {start:,}..{start + games - 1:,}: none "
            f"played by the search or the selection). Selection value, the re-evaluation "
            f"that picked it ({best['selection_games']:,} games, games 0..{start - 1:,} of "
            f"that root): {best['selection_value']:.4f} (95% CI {slo:.4f} .. {shi:.4f}).")


def _overhead_note(share: float, per_trial: float, wall: float, n: int) -> str:
    if share != share:
        return "Optuna overhead: not measured (no timed trials)."
    return (f"Optuna overhead: {100 * share:.1f}% of trial time ({1000 * per_trial:.1f} ms per "
            f"trial for sampling, storage writes and pruning checks; the rest is the objective "
            f"evaluation), measured over this study's {n} trials ({wall:.0f} s of trial time "
            f"in all). Isolated measurement: python benchmarks/tuning_overhead.py "
            "STUDY.")


def _search_wall(study: Any) -> tuple[float, int]:
    """Seconds of all finished trials together (resumes and parallel runs add up), and count."""
    total, _, n = _trial_time(study, timed_only=False)
    return total, n


def build_study_report(spec: Any, storage: str | None, out_dir: Path) -> dict[str, Any]:
    """Write the report of the spec's Optuna study into ``out_dir``; returns its key figures."""
    from games import registry
    from games.capabilities import use
    from tuning._spec import STUDIES_DIR
    from tuning.study import best_result, load_study, reevaluate, state_counts

    loaded = load_study(spec, storage)  # with the seed and budget the study was run with
    study, opened, spec = loaded.study, loaded.opened, loaded.spec
    data = reevaluate(study, spec)
    best = best_result(study)
    counts = state_counts(study)
    share, per_trial = overhead_share(study)
    wall, timed = _search_wall(study)
    games = sum(int(t.user_attrs.get("games", 0)) for t in study.get_trials(deepcopy=False))
    exact = bool(best.get("exact"))
    reference = {"win_rate": 0.5, "fraction_of_optimum": 1.0}.get(spec.objective)
    rows, plot_rows = [], []
    if best.get("confirmed") and not exact:
        label = f"trial {best['trial']} (best), confirmed"
        rows.append([label, None, best["mean"], _ci(best), best["games"]])
        plot_rows.append((label, best["mean"], tuple(best["ci95"])))
    for c in data.get("candidates", []):
        label = f"trial {c['trial']}" + (" (best)" if c["trial"] == best.get("trial") else "")
        rows.append([label, c["search_value"], c["mean"], _ci(c), c["games"] or "exact"])
        plot_rows.append((label, c["mean"], tuple(c["ci95"])))
    for b in data.get("baselines", []):
        rows.append([f"baseline: {b['label']}", None, b["mean"], _ci(b), b["games"] or "exact"])
        plot_rows.append((b["label"], b["mean"], tuple(b["ci95"])))
    for c in data.get("comparisons", []):
        rows.append([f"best, {c['label']}", None, c["mean"], _ci(c), c["games"] or "exact"])
        plot_rows.append((f"best, {c['label']}", c["mean"], tuple(c["ci95"])))
    headers = ["candidate", "search value", "re-evaluated" if not exact else "exact value",
               "95% CI", "games"]
    diff_rows = [[b["label"], b["best_minus_this"], "{:.4f} .. {:.4f}".format(
        *b["best_minus_this_ci95"])] for b in data.get("baselines", [])]
    importance_png, importances = importance_figure(study)
    figures = {"history.png": history_figure(study, best), "importances.png": importance_png}
    if plot_rows:
        title = ("Best candidates vs baselines (exact values)" if exact else
                 f"Best candidates vs baselines ({data.get('games', 0):,} fresh games, 95% CI)")
        figures["candidates.png"] = candidates_figure(plot_rows, reference, spec.objective,
                                                      title)
    storage_flag = f" --storage {storage}" if storage else ""
    name = spec.path.stem if spec.path.resolve().parent == STUDIES_DIR else str(spec.path)
    options = "".join(f" {word}" for word in option_flags(spec))  # a STUDY.HASH's options
    run_flags = "".join(f" {flag}" for flag in loaded.flags) + options
    commands = (f"tabletune run {name}{run_flags}{storage_flag}\n"
                f"tabletune report {name}{options}{storage_flag} --publish")
    params_rows = [[k, v] for k, v in (best.get("params") or {}).items()]
    stats = [["trials", sum(counts.values())], *[[k.lower(), v] for k, v in counts.items()],
             ["games played in the search", games if not exact else "none (exact)"],
             ["trial time in all, s", wall],
             ["Optuna overhead share of trial time", None if share != share else share],
             ["Optuna seconds per trial", None if per_trial != per_trial else per_trial]]
    search_note = _search_note(spec, data, exact)
    terms = registry.StudyTerms(spec.objective,
                                tuple(str(o) for o in spec.evaluation.opponents))
    # the game's notes state the best's figure: the confirmed one, where there is one
    shown = data if not best.get("confirmed") else {
        **data, "best": {**data["best"], **{k: best[k] for k in ("mean", "stderr", "ci95",
                                                                  "games")}}}
    notes = (list(use(registry.get(spec.game), "report").report_notes(
        spec.scorer().options, shown, terms))
             if data else [])
    overhead = _overhead_note(share, per_trial, wall, timed)
    headline = result_line(best)
    result = Section("Result").text(headline).text(search_note).table(headers, rows)
    for note in notes:
        result.text(note)
    stored = stored_evaluations(out_dir)
    stored_text = stored_note(spec.name, spec.game, stored) if stored else ""
    sections = [result]
    if stored:
        sections.append(Section("Stored evaluations of the best").text(stored_text)
                        .table(STORED_HEADERS, stored_rows(stored)))
    sections.append(Section("Best parameters").table(["parameter", "value"], params_rows))
    if diff_rows:
        sections.append(Section("Best minus baseline (paired over the same seeds)")
                        .table(["baseline", "difference", "95% CI"], diff_rows))
    figs = (Section("Figures").figure(figures["history.png"], "history.png",
                                      "Optimisation history")
            .figure(importance_png, "importances.png",
                    f"Parameter importances ({IMPORTANCE_NAME}: the same figures as its "
                    "chart)"))
    if "candidates.png" in figures:
        figs.figure(figures["candidates.png"], "candidates.png", "Best candidates vs baselines")
    sections += [
        figs,
        Section("Study").text(overhead).table(["", "value"], stats),
        Section("How this report was made").code(commands)
        .code(spec.path.read_text(encoding="utf-8") if spec.path.is_file() else ""),
    ]
    readme = "\n\n".join([
        f"# Study report: {spec.name}", spec.description or spec.game, headline, search_note,
        markdown_table(headers, rows), *notes,
        *([stored_text + "\n\n" + markdown_table(STORED_HEADERS, stored_rows(stored))]
          if stored else []),
        "Best parameters:\n\n" + markdown_table(["parameter", "value"], params_rows),
        *(["Best minus baseline (paired):\n\n" + markdown_table(
            ["baseline", "difference", "95% CI"], diff_rows)] if diff_rows else []),
        overhead, markdown_table(["", "value"], stats),
        "Figures: " + ", ".join(f"[{n}]({n})" for n in figures) + "; full page: index.html.",
        f"Regenerate (storage {opened.location}):\n\n```\n{commands}\n```\n",
        *(["Reading the result: [notes.md](notes.md) (kept beside the report; "
           "regenerating leaves it as it is)."] if (out_dir / "notes.md").is_file() else []),
    ])
    write_report(out_dir, f"Study {spec.name}", sections, figures, readme, spec.description)
    from tuning.reporting._summary import study_summary, write_summary
    run_json = write_summary(out_dir, study_summary(loaded))  # what best:STUDY reads
    return {"best": best, "counts": counts, "games": games, "optuna_overhead_share": share,
            "importances": importances, "figures": sorted(figures), "summary": str(run_json)}
