"""Evaluations kept with a report: ``tabletune play --json`` records saved as ``eval-*.json``.

A study's re-evaluation plays the best against the study's own opponents on one fresh seed
set; further figures quoted elsewhere (the project README, other reports) come from such
records, played on seeds of their own. The report shows them as they are stored, each with
its games and seed, so every figure quoted has one source and the page shows it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from games.core import InputError

PATTERN = "eval-*.json"


@dataclass(frozen=True)
class StoredEvaluation:
    """One record: the first bot of a ``play --json`` match against the others."""

    file: str
    bot: str
    against: str
    games: int
    seed: int
    score: float
    ci95: tuple[float, float]


def read_stored(path: Path) -> StoredEvaluation:
    """One ``play --json`` record; a file that does not read as one is an InputError."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        names = list(record["bots"])
        first = record["bots"][names[0]]
        lo, hi = first["score_ci"]
        return StoredEvaluation(path.name, names[0], ", ".join(names[1:]) or "itself",
                                int(record["games"]), int(record["seed"]),
                                float(first["score"]), (float(lo), float(hi)))
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise InputError(f"{path}: not a tabletune play --json record ({exc})") from None


def stored_evaluations(folder: Path) -> list[StoredEvaluation]:
    """Every ``eval-*.json`` record in a report folder, by file name."""
    return [read_stored(p) for p in sorted(Path(folder).glob(PATTERN))]


HEADERS = ["record", "bot", "against", "games", "seed", "score", "95% CI"]


def stored_rows(evals: list[StoredEvaluation]) -> list[list[object]]:
    """Table rows for :data:`HEADERS`."""
    return [[e.file, e.bot, e.against, e.games, e.seed, e.score,
             f"{e.ci95[0]:.4f} .. {e.ci95[1]:.4f}"] for e in evals]


def stored_note(study: str, game: str, evals: list[StoredEvaluation]) -> str:
    """What the records are, their games and seeds, and the command that makes one."""
    games = sorted({e.games for e in evals})
    seeds = sorted({e.seed for e in evals})
    n = f"{games[0]:,}" if len(games) == 1 else "GAMES"
    seed = str(seeds[0]) if len(seeds) == 1 else "SEED"
    return (f"Stored evaluations ({PATTERN} in this folder, as tabletune play --json wrote "
            f"them): the best bot against each opponent, "
            + (f"{n} games a record at seed {seed}" if len(games) == len(seeds) == 1 else
               "games and seed as each row says")
            + ", seats alternating. These seeds are not the re-evaluation's, so a row here "
            "and the re-evaluation's row against the same opponent are two measurements of "
            "the same bot, each with its own interval. A record is made by: tabletune play "
            f"{game} --bots best:{study},OPPONENT -n {n.replace(',', '')} --seed {seed} "
            "--jobs 1 --json")
