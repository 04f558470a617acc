"""What an evolution report puts beside its best genome: one adapter per kind of game.

The default plays the best genome against each opponent of the spec alone, on fresh seeds
(wins, ties, losses and intervals). Games whose reports say more register an adapter here:
the deck-building model values rules exactly at several game lengths against the DP optimum;
Dominion adds seed 001's learning agent as a yardstick. These adapters are the only place in
``tuning/`` that names a game; a new game needs none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tuning.evaluation import WorkerPool
from tuning.evolution.checkpoint import load_checkpoint
from tuning.evolution.runner import default_checkpoint, reevaluate
from tuning.spec import StudySpec


@dataclass
class BaselineSection:
    """Rows (JSON), their table, the bar figure's arguments and a sentence that reads them."""

    rows: list[dict[str, Any]]
    head: list[str]
    table: list[list[Any]]
    figure: tuple[Any, ...]
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


class EvolutionBaselines:
    """The default: the best genome against each opponent of the spec, on fresh seeds."""

    def reference(self, spec: StudySpec) -> tuple[str, float] | None:
        """A horizontal line for the fitness figure (e.g. a known optimum), or None."""
        return None

    def build(self, spec: StudySpec, best: str, pool: WorkerPool) -> BaselineSection:
        rows = _opponent_baselines(spec, best, pool)
        table = [[b["opponent"], b["games"], b["wins"], b["ties"], b["losses"], b["score"],
                  f"{b['ci95'][0]:.4f}..{b['ci95'][1]:.4f}"] for b in rows]
        note = (f"The best genome against each baseline alone, two-player games with seats "
                f"alternating, {spec.evaluation.reevaluate_games} fresh games each (seed sets "
                "never used during the evolution).")
        return BaselineSection(
            rows, ["opponent", "games", "wins", "ties", "losses", "score", "95% CI"], table,
            ([(b["opponent"], b["score"], *b["ci95"]) for b in rows],
             "score of the best genome (wins + ties/2)", 0.5), note + self.notes(spec, rows))

    def notes(self, spec: StudySpec, rows: list[dict[str, Any]]) -> str:
        """More sentences after the default note (adapters override)."""
        return ""


class DominionBaselines(EvolutionBaselines):
    """Dominion: seed 001's learning agent against Big Money as the yardstick."""

    def notes(self, spec: StudySpec, rows: list[dict[str, Any]]) -> str:
        if "big-money" not in spec.evaluation.opponents:
            return ""
        return (" For comparison, seed 001's learning agent beat Big Money 946 times in 1,000 "
                "games, with 7 ties and 47 losses (score 0.9495). " + _dominion_targets(rows))


class DeckbuilderBaselines(EvolutionBaselines):
    """The deck-building model: exact values against the DP optimum at T, 50 and 100."""

    def reference(self, spec: StudySpec) -> tuple[str, float] | None:
        if spec.objective != "mean_score":
            return None
        from games.deckbuilder.game import GAME
        return ("DP optimum", GAME.optimum(spec.scorer().options))

    def build(self, spec: StudySpec, best: str, pool: WorkerPool) -> BaselineSection:
        rows = _deckbuilder_baselines(spec, best)
        turns = int(spec.scorer().options["turns"])
        table = [[b["strategy"], b["turns"], b["value"], b["optimum"], b["fraction"], b["gap"]]
                 for b in rows]
        at_t = [b for b in rows if b["turns"] == turns]
        note = ("Exact expected final scores (no sampling): the evolved rule and the thesis "
                "strategies at the evolution's T and at T = 50 and 100, against the DP "
                "optimum. " + _deckbuilder_targets(rows, turns))
        note += "".join(f" Rule evolved for T = {b['turns']} ({b['study']}): `{b['genome']}`."
                        for b in rows if "genome" in b)
        return BaselineSection(
            rows, ["strategy", "T", "expected score", "DP optimum", "fraction of optimum",
                   "gap"], table,
            ([(b["strategy"], b["fraction"], b["fraction"], b["fraction"]) for b in at_t],
             f"fraction of the DP optimum (T = {turns}, exact)", 1.0), note)


ADAPTERS: dict[str, type[EvolutionBaselines]] = {
    "deckbuilder": DeckbuilderBaselines,
    "dominion": DominionBaselines,
}


def baselines_for(game: str) -> EvolutionBaselines:
    """The report adapter of ``game`` (the default for games without one)."""
    return ADAPTERS.get(game, EvolutionBaselines)()


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


def _dominion_targets(baselines: list[dict[str, Any]]) -> str:
    """Whether the issue's targets hold: >= 95% against Big Money, above 50% (the whole
    interval) against every other baseline."""
    parts = []
    for b in baselines:
        lo, hi = b["ci95"]
        if b["opponent"] == "big-money":
            ok = b["score"] >= 0.95
            parts.append(f"against big-money {b['score']:.2%} (target 95%: "
                         f"{'met' if ok else 'not met'})")
        else:
            verdict = ("beaten, interval above 50%" if lo > 0.5 else
                       "lost to, interval below 50%" if hi < 0.5 else
                       "not separated from 50%")
            parts.append(f"{b['opponent']} {verdict}")
    return "Targets: " + "; ".join(parts) + "."


def _deckbuilder_targets(baselines: list[dict[str, Any]], turns: int) -> str:
    """The T = 31 target (>= 99% of the DP optimum) and the gaps of the longer games."""
    parts = []
    for b in baselines:
        if b["strategy"] == "evolved" and b["turns"] == turns:
            verdict = "met" if b["fraction"] >= 0.99 else "not met"
            parts.append(f"the evolved rule reaches {b['fraction']:.2%} of the DP optimum at "
                         f"T = {turns} (target 99%: {verdict})")
        elif b["strategy"].startswith("evolved at T"):
            parts.append(f"the rule evolved for T = {b['turns']} reaches {b['fraction']:.2%} "
                         f"(gap {b['gap']:.2f} points)")
    return ("Targets: " + "; ".join(parts) + ".") if parts else ""


def _deckbuilder_baselines(spec: StudySpec, best: str) -> list[dict[str, Any]]:
    """Exact values of the best rule and of the thesis strategies at T, 50 and 100."""
    from games.deckbuilder.exact import evaluate_rule
    from games.deckbuilder.game import GAME, card_set
    from games.deckbuilder.rules import BuyRule, expensive_rule, greedy_rule, picky_rule

    opts = spec.scorer().options
    cs = card_set(opts)
    evolved_at = _evolved_at_other_lengths(spec)
    rules = {"evolved": BuyRule.parse(best, cs), "greedy": greedy_rule(cs),
             "expensive": expensive_rule(cs), "picky": picky_rule(cs)}
    out = []
    for turns in sorted({int(opts["turns"]), 50, 100}):
        opt = GAME.optimum({**opts, "turns": turns})
        for name, rule in rules.items():
            value = float(evaluate_rule(rule, turns, cs))
            out.append({"strategy": name, "turns": turns, "value": value, "optimum": opt,
                        "fraction": value / opt, "gap": opt - value})
        if turns in evolved_at:
            study, text, value = evolved_at[turns]
            out.append({"strategy": f"evolved at T = {turns} ({study})", "turns": turns,
                        "value": value, "optimum": opt, "fraction": value / opt,
                        "gap": opt - value, "genome": text, "study": study})
    return out


def _evolved_at_other_lengths(spec: StudySpec) -> dict[int, tuple[str, str, float]]:
    """Best rules of the companion studies ``<name>-t50`` / ``<name>-t100`` where they ran.

    Each is read from its default checkpoint: the top of its hall of fame, whose fitness is
    exact (no re-evaluation needed).
    """
    from tuning.spec import STUDIES_DIR, load_spec

    found: dict[int, tuple[str, str, float]] = {}
    for other in sorted(STUDIES_DIR.glob(f"{spec.name}-t*.toml")):
        ospec = load_spec(other)
        path = default_checkpoint(ospec)
        if ospec.game != "deckbuilder" or not path.is_file():
            continue
        data = load_checkpoint(path)
        genes, score = data["hall_of_fame"][0]
        from tuning.evolution.runner import genome_kind

        found[int(ospec.scorer().options["turns"])] = (
            ospec.name, genome_kind(ospec).to_text(list(genes)), float(score.mean))
    return found
