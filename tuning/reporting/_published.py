"""Confirm a published best from its ``run.json`` alone, where no journal or checkpoint is.

A report published before confirmations existed states the selection value: the best of
the top candidates re-evaluated on fresh seeds. Its search history may be gone (``runs/``
is not committed), but its summary names the bot and the seeds it was selected on, which
is all a confirmation needs: the selected best replays ``evaluation.confirm_games`` games
of the same root after the selection's (games ``R .. R+C-1`` where the selection played
``0 .. R-1``; see :mod:`tuning.study._confirm`). The summary then gives the confirmed figure
as the result, the selection value beside it, and the report's pages state both.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from games.core import InputError
from tuning.evaluation import WorkerPool, candidate_bot, evaluate
from tuning.reporting._summary import FILE, read_summary, write_summary

#: where a study's page opens its result, its stored evaluations and its parameters
#: (tuning.reporting._study)
RESULT_HEADING = "<h2>Result</h2>"
STORED_TITLE = "Stored evaluations of the best"
PARAMS_HEADING = "<h2>Best parameters</h2>"
FIGURES_HEADING = "<h2>Figures</h2>"
#: around the README's own sections on a study's page (restate_readme_sections)
NOTES_START = "<!-- README.md sections -->"
NOTES_END = "<!-- end of README.md sections -->"
#: the run.json keys of the reported figure and of its selection value, by optimizer
KEYS = {"optuna": ("best_value", "best_selection_value", "best_exact"),
        "deap": ("best_fitness", "best_selection_fitness", "best_fitness_exact")}


def confirm_published(spec: Any, folder: Path) -> dict[str, Any]:
    """Confirm the best that ``folder/run.json`` publishes (once: a confirmed or exact one
    is left as it is), rewrite that summary and state the figures in the report's pages;
    returns the summary."""
    path = Path(folder) / FILE
    if not path.is_file():
        raise InputError(f"no published summary {path} to confirm")
    run = read_summary(path, spec.optimizer)
    value, selection, exact = KEYS[spec.optimizer]
    restate_stored(Path(folder), spec)
    if spec.optimizer == "optuna":
        restate_readme_sections(Path(folder))
    if run.get(exact):
        return run
    if run.get("best_confirmed"):  # confirmed before: only make sure the pages state it
        if run.get(f"{value}_start") is not None and run.get("best_selection_ci"):
            _restate(Path(folder), float(run[selection]), run, value)
        return run
    seed, start = run.get(f"{value}_seed"), run.get(f"{value}_games")
    if seed is None or not start:
        raise InputError(f"{path}: its best was not re-evaluated on fresh seeds "
                         f"({value}_seed, {value}_games), so there is no selection to confirm")
    games = spec.evaluation.confirmations
    bot = candidate_bot({"genome": run["best_genome"]} if spec.optimizer == "deap" else
                        {"strategy": spec.strategy, "params": dict(run["best_params"])})
    ev = spec.evaluation
    block = max(ev.block, -(-games // (4 * ev.jobs)))
    with WorkerPool(ev.jobs, ev.backend, ev.address) as pool:
        result = evaluate(spec.scorer(), bot, games=games, seed=int(seed), block=block,
                          pool=pool, start=int(start))
    old = {k: run.get(f"{value}{k}") for k in ("", "_ci", "_games")}
    out = {**run, value: result.mean, f"{value}_ci": list(result.ci95),
           f"{value}_games": result.games, f"{value}_start": int(start),
           "best_confirmed": True, selection: old[""], "best_selection_ci": old["_ci"],
           "best_selection_games": old["_games"]}
    write_summary(folder, out)
    _restate(Path(folder), old[""], out, value)
    return out


def confirmed_text(run: dict[str, Any], value: str) -> str:
    """The confirmed figure and its selection value, in words."""
    lo, hi = run[f"{value}_ci"]
    slo, shi = run["best_selection_ci"]
    start, games = int(run[f"{value}_start"]), int(run[f"{value}_games"])
    return (f"confirmed on {games:,} further fresh games (root seed {run[f'{value}_seed']}, "
            f"games {start:,}..{start + games - 1:,}: none played by the search or the "
            f"selection), 95% CI {lo:.4f}..{hi:.4f}; selection value "
            f"{run['best_selection_' + value.split('_')[1]]:.4f}, 95% CI {slo:.4f}..{shi:.4f} "
            f"(re-evaluated on games 0..{start - 1:,}), confirmed from the published summary")


def _kept(stated: str) -> str:
    """What an evolution's fitness line said after its figure (the opponents it is scored
    against, how it was chosen), kept beside the confirmed one."""
    _, sep, rest = stated.partition("; score against")
    return f"; score against{rest.replace('by this value', 'by the selection value')}" \
        if sep else ""


def states_both(text: str, run: dict[str, Any], value: str) -> bool:
    """True when a page or README already gives the confirmed figure and its selection
    value, in whatever words (a page built from the study, or restated before)."""
    selected = run["best_selection_" + value.split("_")[1]]
    return (f"{run[value]:.4f}" in text and f"{float(selected):.4f}" in text
            and "confirmed" in text)


def _restate(folder: Path, selected: float, run: dict[str, Any], value: str) -> None:
    """Put the confirmed figure where the pages state the published best: an evolution's
    ``fitness X (...)`` line, else a result line at the top of the README and of the
    page's Result section (each left as it is where it states both figures already)."""
    figure = f"{run[value]:.4f} ({confirmed_text(run, value)}"
    readme = folder / "README.md"
    if readme.is_file() and not states_both(readme.read_text(encoding="utf-8"), run, value):
        text = readme.read_text(encoding="utf-8")
        pattern = re.compile(rf"^fitness {selected:.4f} \((.*)\)$", re.M)
        found = pattern.search(text)
        if found:
            line = f"fitness {figure}{_kept(found.group(1))})"
            text = pattern.sub(lambda _: line, text, count=1)
        else:
            head, _, rest = text.partition("\n\n")
            text = f"{head}\n\nResult: {figure}).\n\n{rest}"
        readme.write_text(text, encoding="utf-8")
    page = folder / "index.html"
    if page.is_file() and not states_both(page.read_text(encoding="utf-8"), run, value):
        text = page.read_text(encoding="utf-8")
        pattern = re.compile(rf"fitness {selected:.4f} \(([^<]*)\)")
        found = pattern.search(text)
        if found:
            line = f"fitness {figure}{_kept(html.unescape(found.group(1)))})"
            text = pattern.sub(lambda _: html.escape(line, quote=False), text, count=1)
        elif RESULT_HEADING in text:  # a study's page: the figure opens its Result section
            line = f"<p>{html.escape(f'Result: {figure}).', quote=False)}</p>"
            text = text.replace(RESULT_HEADING, RESULT_HEADING + line, 1)
        else:
            return
        page.write_text(text, encoding="utf-8")


def restate_stored(folder: Path, spec: Any) -> None:
    """Rewrite the page's "Stored evaluations of the best" section from the records in the
    folder (:mod:`tuning.reporting._stored`): a published study's page is not rebuilt without
    its journal, so this section alone follows the records kept beside it."""
    from tuning.reporting._page import Section
    from tuning.reporting._stored import HEADERS, stored_evaluations, stored_note, stored_rows

    page = Path(folder) / "index.html"
    evals = stored_evaluations(folder)
    if not evals or not page.is_file():
        return
    section = (Section(STORED_TITLE).text(stored_note(spec.name, spec.game, evals))
               .table(HEADERS, stored_rows(evals)))
    block = f"<h2>{STORED_TITLE}</h2>" + "".join(section.blocks)
    text = page.read_text(encoding="utf-8")
    heading = f"<h2>{STORED_TITLE}</h2>"
    if heading in text:
        start = text.index(heading)
        end = text.find("<h2>", start + len(heading))
        text = text[:start] + block + (text[end:] if end >= 0 else "")
    elif PARAMS_HEADING in text:
        text = text.replace(PARAMS_HEADING, block + PARAMS_HEADING, 1)
    else:
        return
    page.write_text(text, encoding="utf-8")


def restate_readme_sections(folder: Path) -> None:
    """Put a study README's own sections on its page: a study's README has no ``## ``
    heading of its generator's, so each one (a fresh-seed check, a reading of the result,
    added beside the published report) is rendered in a marked block before the figures,
    replacing the block a previous run put there."""
    from tuning.reporting._readme_page import render_body

    readme, page = Path(folder) / "README.md", Path(folder) / "index.html"
    if not readme.is_file() or not page.is_file():
        return
    text = readme.read_text(encoding="utf-8")
    at = text.find("\n## ")
    html_text = page.read_text(encoding="utf-8")
    if NOTES_START in html_text:
        head, _, rest = html_text.partition(NOTES_START)
        html_text = head + rest.partition(NOTES_END)[2]
    if at >= 0 and FIGURES_HEADING in html_text:
        body, _ = render_body(Path(folder), text[at + 1:])
        html_text = html_text.replace(FIGURES_HEADING,
                                      NOTES_START + body + NOTES_END + FIGURES_HEADING, 1)
    page.write_text(html_text, encoding="utf-8")


def published_only(spec: Any, folder: Path) -> bool:
    """True when ``folder`` holds a published summary and the study's own record (its
    default journal or checkpoint) is not here: a fresh clone, or a record long gone."""
    if not (Path(folder) / FILE).is_file():
        return False
    if spec.optimizer == "deap":
        from tuning.evolution import default_checkpoint
        return not default_checkpoint(spec).exists()
    from tuning.study import default_location
    given = spec.optuna.storage
    if given and "://" in given:
        return False
    return not Path(given or default_location(spec.name)).exists()


def describe_published(spec: Any, run: dict[str, Any]) -> str:
    """A published summary's figure in one line: confirmed (with its selection value) or
    exact."""
    value, _, exact = KEYS[spec.optimizer]
    if run.get(exact):
        return f"{float(run[value]):.4f} (exact: nothing to confirm)"
    if not run.get("best_confirmed"):
        return f"{float(run[value]):.4f} (the selection value, not confirmed)"
    return f"{float(run[value]):.4f} ({confirmed_text(run, value)})"
