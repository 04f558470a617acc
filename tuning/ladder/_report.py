"""A ladder's folder: ``ladder.json`` (the result), ``README.md`` (ratings, Alpha-Rank, the
score matrix with intervals), ``ratings.png`` (ratings with their intervals) and
``index.html`` (the README rendered, :mod:`tuning.reporting._readme_page`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.atomic import write_atomic

__all__ = ["RESULT", "markdown", "write_report"]

#: the ladder's result in its folder
RESULT = "ladder.json"


def write_report(where: Path, result: dict[str, Any]) -> None:
    from tuning.reporting import write_readme_page

    write_atomic(where / RESULT, json.dumps(result, indent=1, default=str) + "\n")
    _plot(where / "ratings.png", result)
    write_atomic(where / "README.md", markdown(result))
    write_readme_page(where)


def _plot(path: Path, result: dict[str, Any]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ratings = result["ratings"]
    labels = list(ratings)[::-1]
    values = [ratings[b]["rating"] for b in labels]
    low = [ratings[b]["rating"] - ratings[b]["rating_ci"][0] for b in labels]
    high = [ratings[b]["rating_ci"][1] - ratings[b]["rating"] for b in labels]
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(labels) + 1.4))
    ax.errorbar(values, range(len(labels)), xerr=[low, high], fmt="o", capsize=4)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("rating (Elo scale, mean 1500) with 95% bootstrap interval")
    ax.set_title(f"{result['game']}: {result['players']}-player ladder, "
                 f"{result['games_per_line_up']:,} games a line-up")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)


def markdown(result: dict[str, Any]) -> str:
    """The ladder's README: what was played, the ratings, Alpha-Rank and the matrix."""
    bots = result["bots"]
    lines = [f"# Ladder: {result['game']}, {len(bots)} bots", "",
             f"A round robin of {result['line_ups']} line-ups of {result['players']} "
             f"bots, {result['games_per_line_up']:,} games each with seats rotated, root seed "
             f"{result['seed']} (each line-up's seed is derived from it and its bots), "
             f"{_games(result):,} games in {result.get('play_seconds', 0.0):.1f} s of play."
             " Made with:", "",
             "```", command(result), "```", "",
             "## Ratings", "",
             f"{result['rating_model']}.", "",
             "| rank | bot | rating | 95% interval | wins | ties | losses | games |",
             "|---|---|---|---|---|---|---|---|"]
    for rank, (label, row) in enumerate(result["ratings"].items(), start=1):
        lo, hi = row["rating_ci"]
        lines.append(f"| {rank} | {label} | {row['rating']:.0f} | [{lo:.0f}, {hi:.0f}] | "
                     f"{row['wins']:,} | {row['ties']:,} | {row['losses']:,} | "
                     f"{row['games']:,} |")
    lines += ["", "![ratings](ratings.png)", "", "## Alpha-Rank", ""]
    ar = result.get("alpharank")
    if ar:
        lines += [f"{result['alpharank_note']}: the share of time the evolutionary process "
                  "spends on each bot.", "", "| bot | mass |", "|---|---|"]
        lines += [f"| {label} | {ar['mass'][label]:.3f} |" for label in ar["ranking"]]
    else:
        lines.append(f"None: {result['alpharank_note']}.")
    what = ("the row bot's score against the column bot (a win 1, a tie 1/2)"
            if result["players"] == 2 else
            "the row bot's score (a win 1, a tie 1/2) at the tables it shared with the column "
            "bot")
    labels = list(bots)
    lines += ["", "## Score matrix", "",
              f"Each cell is {what}, with its 95% interval (as `tabletune play` gives a "
              "score's).", "", "| | " + " | ".join(labels) + " |", "|---" * (len(labels) + 1) + "|"]
    for row in labels:
        cells = []
        for col in labels:
            cell = result["matrix"].get(row, {}).get(col)
            cells.append("" if cell is None else
                         f"{cell['score']:.3f} [{cell['score_ci'][0]:.3f}, "
                         f"{cell['score_ci'][1]:.3f}]")
        lines.append(f"| **{row}** | " + " | ".join(cells) + " |")
    lines += ["", "## Bots", "", "| bot | text |", "|---|---|"]
    lines += [f"| {label} | `{text}` |" for label, text in bots.items()]
    lines.append("")
    return "\n".join(lines)


def _games(result: dict[str, Any]) -> int:
    return result["line_ups"] * result["games_per_line_up"]


def command(result: dict[str, Any]) -> str:
    """The command line that makes (or continues) this ladder."""
    bots = list(result["bots"].values())
    sep = ";" if any("," in b or "|" in b for b in bots) else ","
    words = [f"tabletune ladder {result['game']}", f"--bots '{sep.join(bots)}'",
             f"-n {result['games_per_line_up']}", f"--players {result['players']}",
             f"--seed {result['seed']}"]
    words += [f"--option {k}={v}" for k, v in result.get("given_options", {}).items()]
    return " ".join(words)
