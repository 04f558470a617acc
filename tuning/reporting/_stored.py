"""Evaluations kept with a report: ``tabletune play --json`` records saved as ``eval-*.json``
(and ``fresh-*.json``, where a report keeps its fresh-seed checks under that name).

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
#: further records a report may keep (a fresh-seed check of the best); a file of that name
#: that is not a ``play --json`` record is left out rather than refused
FRESH = "fresh-*.json"


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
        if "bots" not in record and "win_rate" in record:  # a solo game: one player
            lo, hi = record["win_rate_ci"]
            return StoredEvaluation(path.name, str(record["player"]), "solo",
                                    int(record["games"]), int(record["seed"]),
                                    float(record["win_rate"]), (float(lo), float(hi)))
        names = list(record["bots"])
        first = record["bots"][names[0]]
        lo, hi = first["score_ci"]
        return StoredEvaluation(path.name, names[0], ", ".join(names[1:]) or "itself",
                                int(record["games"]), int(record["seed"]),
                                float(first["score"]), (float(lo), float(hi)))
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise InputError(f"{path}: not a tabletune play --json record ({exc})") from None


def stored_evaluations(folder: Path) -> list[StoredEvaluation]:
    """Every ``eval-*.json`` record in a report folder, by file name, then the
    ``fresh-*.json`` ones that read as records."""
    found = [read_stored(p) for p in sorted(Path(folder).glob(PATTERN))]
    for path in sorted(Path(folder).glob(FRESH)):
        try:
            found.append(read_stored(path))
        except InputError:
            continue
    return found


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
    solo = all(e.against == "solo" for e in evals)
    files = PATTERN if all(e.file.startswith("eval-") for e in evals) else f"{PATTERN}, {FRESH}"
    who = "the best bot" if files == PATTERN else "the bot each row names (the best unless another)"
    if solo:
        return (f"Stored evaluations ({files} in this folder, as tabletune play --json wrote "
                "them): the best's weights played solo on fresh deals whose root seed the "
                "study never used, games and seed as each row says. A record is made by: "
                f"tabletune play {game} --bots best:{study} -n {n.replace(',', '')} "
                f"--seed {seed} --jobs 1 --json")
    return (f"Stored evaluations ({files} in this folder, as tabletune play --json wrote "
            f"them): {who} against each opponent, "
            + (f"{n} games a record at seed {seed}" if len(games) == len(seeds) == 1 else
               "games and seed as each row says")
            + ", seats alternating. These seeds are not the re-evaluation's, so a row here "
            "and the re-evaluation's row against the same opponent are two measurements of "
            "the same bot, each with its own interval. A record is made by: tabletune play "
            f"{game} --bots best:{study},OPPONENT -n {n.replace(',', '')} --seed {seed} "
            "--jobs 1 --json")
