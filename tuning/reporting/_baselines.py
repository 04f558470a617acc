"""What an evolution report puts beside its best genome.

The default plays the best genome against each opponent of the spec alone, on fresh seeds
(wins, ties, losses and intervals). A game whose reports say more describes it with a
yardstick (:mod:`games.yardstick`, returned by its description's ``yardstick()`` hook): a
reference line for the fitness figure, a table of its own in place of the default one, or
sentences after the default table. This module runs those hooks with plain data and names
no game; a new game needs no yardstick.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from games import registry
from games.capabilities import use
from games.yardstick import BaselineTable, Companion, Yardstick
from tuning._spec import StudySpec
from tuning.evaluation import WorkerPool
from tuning.evolution import default_checkpoint, genome_kind, load_checkpoint, reevaluate


class EvolutionBaselines:
    """The baselines of one evolution report: the default table and the game's yardstick."""

    def __init__(self, yardstick: Yardstick | None = None) -> None:
        self.yardstick = yardstick or Yardstick()

    def reference(self, spec: StudySpec) -> tuple[str, float] | None:
        """A horizontal line for the fitness figure (e.g. a known optimum), or None."""
        return self.yardstick.reference(spec.scorer().options, spec.objective)

    def build(self, spec: StudySpec, best: str, pool: WorkerPool) -> BaselineTable:
        """The game's own table where it has one, else the best genome against each
        opponent alone on fresh seeds, with the game's sentences after the note."""
        own = self.yardstick.table(best, spec.scorer().options, lambda: companions(spec))
        if own is not None:
            return own
        rows = _opponent_baselines(spec, best, pool)
        table = [[b["opponent"], b["games"], b["wins"], b["ties"], b["losses"], b["score"],
                  f"{b['ci95'][0]:.4f}..{b['ci95'][1]:.4f}"] for b in rows]
        note = baseline_note(spec)
        note += self.yardstick.notes(list(spec.evaluation.opponents), rows)
        return BaselineTable(
            rows, ["opponent", "games", "wins", "ties", "losses", "score", "95% CI"], table,
            ([(b["opponent"], b["score"], *b["ci95"]) for b in rows],
             "score of the best genome (wins + ties/2)", 0.5), note)


def baseline_note(spec: StudySpec) -> str:
    """What the default table plays, with each opponent's root seed, so that a figure quoted
    from it can be told from another measurement of the same bot on other seeds."""
    from tuning.evaluation import derived_seed

    games = spec.evaluation.reevaluate_games
    roots = ", ".join(f"{derived_seed(spec.evaluation.seed, f'report:{name}')} against {name}"
                      for name in spec.evaluation.opponents)
    return (f"The best genome against each baseline alone, two-player games with seats "
            f"alternating, {games} fresh games each (seed sets never used during the "
            f"evolution: games 0..{games - 1:,} of root seed {roots}, each derived from the "
            f"evolution's seed {spec.evaluation.seed}).")


def baselines_for(game: str) -> EvolutionBaselines:
    """The report baselines of ``game``: its yardstick, or the default alone."""
    return EvolutionBaselines(use(registry.get(game), "report").yardstick())


def _opponent_baselines(spec: StudySpec, best: str, pool: WorkerPool
                        ) -> list[dict[str, Any]]:
    """The best genome against each baseline alone, on fresh seeds: W/T/L and intervals."""
    out = []
    for name in spec.evaluation.opponents:
        ev = reevaluate(spec, [best], pool, opponents=[name], purpose=f"report:{name}")[0]
        s = ev.scores if ev.scores is not None else np.zeros(0)
        lo, hi = ev.ci95
        out.append({"opponent": name, "games": ev.games, "wins": int((s == 1).sum()),
                    "ties": int((s == 0.5).sum()), "losses": int((s == 0).sum()),
                    "score": ev.mean, "stderr": ev.stderr, "ci95": [lo, hi],
                    "seconds": ev.seconds})
    return out


def companions(spec: StudySpec) -> list[Companion]:
    """Finished evolutions of the companion studies ``<name>-<suffix>`` of the same game.

    Each is read from its default checkpoint: the top of its hall of fame and its fitness
    on the companion's own seed set (exact where the game evaluates exactly)."""
    from tuning._spec import STUDIES_DIR, load_spec

    found = []
    for other in sorted(STUDIES_DIR.glob(f"{spec.name}-*.toml")):
        ospec = load_spec(other)
        if ospec.game != spec.game or ospec.optimizer != "deap":
            continue
        path = default_checkpoint(ospec)
        if not path.is_file():
            continue
        genes, score = load_checkpoint(path)["hall_of_fame"][0]
        found.append(Companion(ospec.name, ospec.checked_options(),
                               genome_kind(ospec).to_text(list(genes)), float(score.mean)))
    return found
