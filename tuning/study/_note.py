"""The reported best where optuna-dashboard shows it: the study's note and user attributes.

The dashboard ranks trials by their search value (the common seed set every candidate
played), while ``tabletune run``, ``report`` and ``best:`` call best the candidate that
scored best on the fresh seeds of the re-evaluation, and give as its value the
confirmation on further seeds that no selection touched (:mod:`tuning.study._confirm`).
The dashboard cannot show that value as the trial's own, so it goes into the study's note
(Markdown, shown on the study page) and into flat study user attributes, each naming its
games and seeds, beside the selection and search values it differs from. A note the user
wrote is kept below the block written here.
"""

from __future__ import annotations

from typing import Any

import optuna

from tuning.study._confirm import stored_confirmation

#: the study user attribute holding the re-evaluation (written by
#: :func:`tuning.study._reevaluate.reevaluate`, shown here); kept here so that the
#: re-evaluation imports this module, not the other way round
ATTR = "reevaluation"
HEADING = "## Best after re-evaluation"
END = "*Written by tabletune from the study's re-evaluation; text below this line is kept.*"


def _num(value: Any) -> str:
    return "-" if value is None else f"{value:.4f}"


def _ci(entry: dict[str, Any]) -> str:
    lo, hi = entry["ci95"]
    return f"{lo:.4f}..{hi:.4f}"


def reevaluated_on(data: dict[str, Any]) -> str:
    """Where the re-evaluated values come from, in words (games and root seed)."""
    best = data.get("best") or {}
    if best.get("exact"):
        return "exact values (expected value over all shuffles, no sampling)"
    return f"{int(data.get('games', 0)):,} fresh games, root seed {data.get('seed')}"


def confirmed_on(confirmation: dict[str, Any]) -> str:
    """Where the confirmed value comes from, in words (games, root seed, first game)."""
    if confirmation.get("exact"):
        return "exact value (nothing to confirm)"
    start, games = int(confirmation["start"]), int(confirmation["games"])
    return (f"{games:,} further fresh games, root seed {confirmation['seed']}, games "
            f"{start:,}..{start + games - 1:,}")


def searched_on(study: optuna.Study, trial: int | None) -> str:
    """Where the trials' own (search) values come from: the best trial's games and the
    study's seed."""
    games = None
    if trial is not None:
        for t in study.get_trials(deepcopy=False):
            if t.number == trial:
                games = t.user_attrs.get("games")
    seed = study.user_attrs.get("seed")
    parts = [f"{int(games):,} games" if games else "exact" if games == 0 else None,
             f"seed {seed}" if seed is not None else None]
    return ", ".join(p for p in parts if p) or "the search's seed set"


def note_block(study: optuna.Study) -> str | None:
    """The Markdown block that states the re-evaluated best beside the search values, or
    None when the study holds no re-evaluation."""
    data = study.user_attrs.get(ATTR)
    if not data or not data.get("best"):
        return None
    best = data["best"]
    on, search = reevaluated_on(data), searched_on(study, best.get("trial"))
    confirmed = stored_confirmation(study, data)
    rows = [f"| trial {c['trial']}{' (best)' if c['trial'] == best['trial'] else ''} | "
            f"{_num(c.get('search_value'))} | {_num(c['mean'])} | {_ci(c)} |"
            for c in data.get("candidates", [])]
    rows += [f"| baseline: {b['label']} | - | {_num(b['mean'])} | {_ci(b)} |"
             for b in data.get("baselines", [])]
    rows += [f"| best, {c['label']} | - | {_num(c['mean'])} | {_ci(c)} |"
             for c in data.get("comparisons", [])]
    if confirmed is not None:
        rows.insert(0, f"| trial {best['trial']} confirmed ({confirmed_on(confirmed)}) | - | "
                       f"{_num(confirmed['mean'])} | {_ci(confirmed)} |")
        headline = [
            f"**{confirmed['mean']:.4f}** (95% CI {_ci(confirmed)}) over "
            f"{confirmed_on(confirmed)}, none of them played by the search or the selection: "
            "the value `tabletune run`, `tabletune report` and `best:` call the result.", "",
            f"Selection value (re-evaluated over {on}, where trial {best['trial']} was the "
            f"best of the top candidates): {best['mean']:.4f} (95% CI {_ci(best)}).", ""]
    else:
        headline = [
            f"**{best['mean']:.4f}** (95% CI {_ci(best)}) over {on}: the selection value, "
            "not confirmed on further seeds yet (`tabletune report` confirms it).", ""]
    return "\n".join([
        f"{HEADING}: trial {best['trial']}", "", *headline,
        f"The dashboard's *Best Trial* and every trial's value are **search values** "
        f"({search}, the seed set every candidate played); trial {best['trial']}'s is "
        f"{_num(best.get('search_value'))}.", "",
        f"| candidate | search value ({search}) | re-evaluated ({on}) | 95% CI |",
        "|---|---|---|---|", *rows, "", END, "", "---", ""])


def merged_note(block: str, current: str) -> str:
    """``block`` followed by what the user wrote (the old block, if any, replaced)."""
    kept = current
    if current.startswith(HEADING) and END in current:
        kept = current.split(END, 1)[1].lstrip("\n")
        kept = kept[3:].lstrip("\n") if kept.startswith("---") else kept
    return block + kept


def user_attrs(data: dict[str, Any], confirmed: dict[str, Any] | None = None
               ) -> dict[str, Any]:
    """Flat study user attributes for the dashboard's table (the nested ``reevaluation``
    and ``confirmation`` attributes hold the whole records): the selection (re-evaluated)
    value and, once confirmed, the confirmed value that is the study's result."""
    best = data["best"]
    out = {"reevaluated_best_trial": best["trial"],
           "reevaluated_best_value": best["mean"],
           "reevaluated_best_ci95": list(best["ci95"]),
           "reevaluated_on": reevaluated_on(data)}
    if confirmed is not None:
        out.update({"confirmed_best_value": confirmed["mean"],
                    "confirmed_best_ci95": list(confirmed["ci95"]),
                    "confirmed_on": confirmed_on(confirmed)})
    return out


def show_reevaluation(study: optuna.Study) -> bool:
    """Write the note block and the flat user attributes where they differ from what the
    storage holds; returns whether anything was written."""
    import optuna_dashboard

    block = note_block(study)
    if block is None:
        return False
    wrote = False
    data = study.user_attrs[ATTR]
    for key, value in user_attrs(data, stored_confirmation(study, data)).items():
        if study.user_attrs.get(key) != value:
            study.set_user_attr(key, value)
            wrote = True
    current = optuna_dashboard.get_note(study)
    note = merged_note(block, current)
    if note != current:
        optuna_dashboard.save_note(study, note)
        wrote = True
    return wrote


def note_reevaluations(storage: Any) -> list[str]:
    """Bring every study of a storage's note up to date (studies re-evaluated before notes
    were written); returns lines to print for those that could not be written."""
    lines = []
    for name in optuna.study.get_all_study_names(storage=storage):
        study = optuna.load_study(study_name=name, storage=storage)
        try:
            show_reevaluation(study)
        except (OSError, RuntimeError, ValueError, optuna.exceptions.OptunaError) as exc:
            # a read-only storage: serve it anyway, without the note
            lines.append(f"note: could not write study {name}'s re-evaluation note ({exc})")
    return lines
