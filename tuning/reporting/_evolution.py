"""Report of a DEAP evolution: fitness per generation, hall of fame, best genome re-evaluated.

``build_evolution_report(spec, checkpoint_path, out_dir)`` reads a checkpoint (a finished or
interrupted run), re-evaluates the top of the hall of fame on a fresh seed set, plays the best
genome against each baseline on fresh seeds (or evaluates it exactly where the game allows),
and writes ``index.html`` (self-contained), ``README.md``, PNG figures and ``run.json`` (the
best genome and its figure, see :mod:`tuning.reporting._summary`).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from games.core import InputError
from tuning._overrides import base_name, option_flags
from tuning._spec import StudySpec
from tuning.evaluation import WorkerPool
from tuning.evolution import (
    best_of,
    checkpoint_result,
    default_checkpoint,
    genome_kind,
    load_checkpoint,
    run_flags,
)
from tuning.reporting._baselines import baselines_for
from tuning.reporting._page import Section, figure_png, markdown_table, write_report
from tuning.reporting._summary import evolution_summary, write_summary


def fitness_figure(rows: list[dict[str, Any]], title: str,
                   reference: tuple[str, float] | None = None) -> bytes:
    """Best, mean and spread (mean ± std, min..max) of the population per generation."""
    import matplotlib.pyplot as plt

    gen = np.array([r["gen"] for r in rows])
    mean = np.array([r["mean"] for r in rows])
    std = np.array([r["std"] for r in rows])
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    ax.fill_between(gen, [r["min"] for r in rows], [r["max"] for r in rows], color="#ddd",
                    label="population min..max")
    lo = np.maximum(mean - std, [r["min"] for r in rows])  # skewed populations: keep the
    hi = np.minimum(mean + std, [r["max"] for r in rows])  # band inside min..max
    ax.fill_between(gen, lo, hi, color="#9ecae1", label="mean ± std (within min..max)")
    ax.plot(gen, mean, color="#3182bd", label="mean")
    ax.plot(gen, [r["best"] for r in rows], color="#e6550d", lw=2, label="best so far")
    if reference is not None:
        ax.axhline(reference[1], color="#31a354", ls="--", lw=1, label=reference[0])
    ax.set_xlabel("generation")
    ax.set_ylabel("fitness")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    return figure_png(fig)


def baseline_figure(rows: list[tuple[str, float, float, float]], ylabel: str,
                    reference: float | None) -> bytes:
    """Bars with 95% intervals: the best genome against (or next to) each baseline."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    names = [r[0] for r in rows]
    means = np.array([r[1] for r in rows])
    err = np.array([[m - r[2] for m, r in zip(means, rows, strict=True)],
                    [r[3] - m for m, r in zip(means, rows, strict=True)]])
    ax.bar(names, means, yerr=err, capsize=5, color="#6baed6")
    if reference is not None:
        ax.axhline(reference, color="#e6550d", ls="--", lw=1)
    ax.set_ylabel(ylabel)
    ax.tick_params(axis="x", labelrotation=15)
    ax.grid(axis="y", alpha=0.3)
    return figure_png(fig)


def time_share_note(out_dir: Path) -> str | None:
    """The measured share of evolution time in game simulation, if it was recorded here.

    ``benchmarks/evolve_profile.py`` writes that record (under runs/): a short evolution of
    the study in one process, its wall time split by timers around the objective's worker
    tasks (and around the engine kernel); ``tabletune report --time-share FILE`` copies it
    into the report folder as time_share.json, report data kept with the report."""
    path = out_dir / "time_share.json"
    if not path.is_file():
        return None
    try:
        r = json.loads(path.read_text())
        what = "exact evaluation of the deck-building model" if r.get("exact") else \
            "game simulation"
        note = (f"Measured with `{r['command']}` (one process, best of {r['repeats']} "
                f"repeats): {r['share_in_simulation']:.1%} of the evolution's wall time went "
                f"into {what}")
        if r.get("share_in_kernel") is not None:
            note += f" ({r['share_in_kernel']:.1%} inside the numba batch kernel alone)"
        note += (f"; {r['generations']} generations, {r['evals']} evaluations, "
                 f"{r['wall']:.1f} s")
        if r.get("games"):
            note += f", {r['games']:,} games ({r['games'] / r['wall']:,.0f} games/s)"
        return note + ". The rest is the evolution itself (DEAP operators, selection, " \
            "hall of fame, checkpoints and logging)."
    except (ValueError, KeyError, TypeError, ZeroDivisionError) as exc:
        raise InputError(f"{path}: not a time-share record ({exc})") from None


def time_share_commands(study: str, out_dir: Path, evolve: str | None = None) -> str:
    """The Regenerate lines of a report that quotes a time-share record: the evolution
    (``evolve``: its command, default the plain one), the profile (written under runs/) and
    the report that takes the record in."""
    recorded = json.loads((out_dir / "time_share.json").read_text())["command"]
    record = f"runs/{study}-time-share.json"
    return (f"{evolve or f'tabletune evolve {study}'}\n{recorded} --json {record}\n"
            f"tabletune report {study} --time-share {record} --publish")


def take_time_share(record: str | Path, out_dir: Path) -> None:
    """Copy a time-share record (``benchmarks/evolve_profile.py`` output) into the report
    folder as time_share.json, after checking that it reads as one."""
    record = Path(record)
    if not record.is_file():
        raise InputError(f"--time-share {record} does not exist")
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / "time_share.json"
    if record.resolve() != target.resolve():
        shutil.copyfile(record, target)
    try:
        time_share_note(out_dir)
    except InputError:
        target.unlink()
        raise


def start_note(rows: list[dict[str, Any]], best: float, seeds: int, exact: bool) -> str:
    """Where an exact best comes from: generation 0's best (the spec's seed genomes are among
    its members) and what the generations after it added, so that a figure a seed genome
    already reached is not credited to the evolution. Empty for a noisy fitness, whose
    generation-0 value was measured on other games than the reported one."""
    if not exact or not rows:
        return ""
    first = float(rows[0]["best"])
    held = (f"which holds the spec's {seeds} seed genome{'s' if seeds != 1 else ''}"
            if seeds else "random genomes only")
    if f"{best:.4f}" == f"{first:.4f}":  # no gain at the precision the report shows
        return (f"Generation 0 ({held}) already reached this fitness, {first:.4f}, and no "
                "later generation improved on it: the figure was there before the first "
                "evolution step, so the evolution did not find it.")
    return (f"Generation 0 ({held}) started at {first:.4f}; the generations after it raised "
            f"the best to {best:.4f} ({best - first:+.4f}).")


def build_evolution_report(spec: StudySpec, checkpoint_path: str | Path | None,
                           out_dir: str | Path,
                           time_share: str | Path | None = None) -> dict[str, Any]:
    """Write the report of the evolution checkpointed at ``checkpoint_path`` into ``out_dir``.

    ``time_share``: a record of ``benchmarks/evolve_profile.py``, taken into the report (a
    time_share.json already in ``out_dir`` is quoted too)."""
    path = Path(checkpoint_path) if checkpoint_path else default_checkpoint(spec)
    payload = load_checkpoint(path)
    if payload.get("study") != spec.name:
        raise InputError(f"checkpoint {path} is of study {payload.get('study')!r}, "
                         f"not {spec.name!r}")
    out_dir = Path(out_dir)
    if time_share is not None:
        take_time_share(time_share, out_dir)
    rows = payload["logbook"]
    file_spec = spec
    spec, result = checkpoint_result(spec, payload)  # re-evaluated under the run's own seed
    adapter = baselines_for(spec.game)
    ev = spec.evaluation
    with WorkerPool(ev.jobs, ev.backend, ev.address) as pool:
        found = best_of(spec, result, pool)
        best, best_eval, chosen = found.text, found.confirmed, found.selection
        section = adapter.build(spec, best, pool)
    settings = payload["settings"]
    total_games = sum(r["games"] for r in rows)
    sim_seconds = sum(r["seconds"] for r in rows)
    summary = {
        "study": spec.name, "generations": payload["generation"], "best_genome": best,
        "best_fitness": best_eval.mean, "best_fitness_ci": list(best_eval.ci95),
        "best_fitness_games": best_eval.games, "exact": best_eval.exact,
        "best_fitness_start": None if best_eval.exact else found.start,
        "best_selection_fitness": chosen.mean, "best_selection_ci": list(chosen.ci95),
        "best_selection_games": chosen.games,
        "games": total_games, "seconds": sim_seconds, "settings": settings,
        "baselines": section.rows,
    }
    figures = {"fitness.png": fitness_figure(rows, f"{spec.name}: fitness per generation",
                                             adapter.reference(spec)),
               "baselines.png": baseline_figure(*section.figure)}
    head, base_rows, base_note = section.head, section.table, section.note
    pool_note = "Statistics of the population after each generation's selection."
    if settings.get("pool_size"):
        pool_note += (f" Fitness is the score against the opponents plus the best "
                      f"{settings['pool_size']} hall-of-fame members, a pool refreshed every "
                      f"{settings['pool_every']} generations; at a refresh everyone is re-scored "
                      "against the stronger pool, so the curves can step down.")
    gen_rows = [[r["gen"], r["evals"], r["best"], r["mean"], r["std"], r["min"], r["max"],
                 r["games"], r["seconds"]] for r in rows]
    gen_head = ["gen", "evals", "best", "mean", "std", "min", "max", "games", "seconds"]
    hof_rows = [[i + 1, t, s.mean, s.stderr] for i, (t, s) in enumerate(result.hall_of_fame)]
    options = option_flags(file_spec)  # a STUDY.HASH: its spec and --option flags
    flags = run_flags(file_spec, settings) + options
    if Path(path) != default_checkpoint(file_spec):
        flags += ["--checkpoint", str(path)]
    evolve = " ".join(["tabletune", "evolve", base_name(file_spec), *flags])
    report_flags = f" --storage {path}" if "--checkpoint" in flags else ""
    command = (f"{evolve}\ntabletune report {' '.join([base_name(file_spec), *options])}"
               f"{report_flags} --publish")
    share = time_share_note(out_dir)
    if share is not None:
        summary["time_share"] = share
        command = time_share_commands(spec.name, out_dir, evolve)
    how = ("exact" if best_eval.exact else
           f"confirmed on {best_eval.games:,} further fresh games (games {found.start:,}.."
           f"{found.start + best_eval.games - 1:,} of the re-evaluation's root seed, none "
           f"played by the evolution or the selection), 95% CI {best_eval.ci95[0]:.4f}.."
           f"{best_eval.ci95[1]:.4f}; selection value {chosen.mean:.4f}, 95% CI "
           f"{chosen.ci95[0]:.4f}..{chosen.ci95[1]:.4f} (re-evaluated on games 0.."
           f"{chosen.games - 1:,})")
    if spec.evaluation.opponents and not best_eval.exact:
        how += ("; score against " + ", ".join(spec.evaluation.opponents)
                + " in equal shares, without the hall of fame; chosen among the top "
                f"{spec.evaluation.reevaluate_top} of the hall of fame by the selection "
                "value")
    intro = (f"{spec.description.rstrip('.')}. Algorithm {settings['algorithm']}, mu = "
             f"{settings['population']}, lambda = {settings['offspring']}, "
             f"{payload['generation']} generations, seed {settings['seed']}; "
             + (f"{total_games} games simulated" if total_games else
                f"{sum(r['evals'] for r in rows)} exact evaluations")
             + f" in {sim_seconds:.1f} s of generation time.")
    start = start_note(rows, best_eval.mean, len(genome_kind(spec).seed_genomes()),
                       best_eval.exact)
    sections = [
        Section("Best genome").code(best).text(f"fitness {best_eval.mean:.4f} ({how})"),
        Section("Against each baseline").text(base_note).table(head, base_rows)
        .figure(figures["baselines.png"], "baselines.png"),
        Section("Fitness per generation").text(pool_note).figure(figures["fitness.png"],
                                                                 "fitness.png")
        .collapsed_table(f"{len(gen_rows)} generations: the table", gen_head, gen_rows),
        Section("Hall of fame").text("Fitness on the evolution's own seed set (common "
                                     "random numbers), best first.")
        .table(["rank", "genome", "fitness", "stderr"], hof_rows),
    ]
    if start:
        sections[0].text(start)
    if share is not None:
        sections.append(Section("Time in game simulation").text(share))
    sections.append(Section("Regenerate").code(command))
    readme = "\n\n".join([
        f"# Evolution report: {spec.name}", intro,
        f"## Best genome\n\n```\n{best}\n```\n\nfitness {best_eval.mean:.4f} ({how})"
        + (f"\n\n{start}" if start else ""),
        f"## Against each baseline\n\n{base_note}\n\n{markdown_table(head, base_rows)}",
        "![fitness per generation](fitness.png)\n\n![baselines](baselines.png)",
        "## Hall of fame\n\n" + markdown_table(["rank", "genome", "fitness", "stderr"],
                                               hof_rows),
        f"## Fitness per generation\n\n{pool_note}\n\n<details><summary>{len(gen_rows)} "
        f"generations: the table</summary>\n\n" + markdown_table(gen_head, gen_rows)
        + "\n\n</details>",
    ] + ([f"## Time in game simulation\n\n{share}"] if share is not None else []) + [
        f"## Regenerate\n\n```\n{command}\n```\n",
    ])
    write_report(out_dir, f"Evolution report: {spec.name}", sections, figures, readme, intro)
    summary["summary"] = str(write_summary(out_dir, evolution_summary(spec, summary, path)))
    return summary
