"""Seed 003's genetic-algorithm tables (Reed thesis, chapters 4-6), reproduced with the
online DEAP players: results-PART.json and README.md in reports/splendor-genetic.

Parts: ``variants`` (Table 5.1: BuyOrder's operator variants vs Greedy, allEval),
``depths`` (Table 5.3: BuyOrder vs Greedy by depth and population), ``random-search``
(Table 4.3's genetic rows: RandomSearch(10, 1000) vs BuyOrder(10) and ExactMove(10),
allEval2 for every bot as in that table), ``buy-and-deny`` (BuyAndDeny vs Greedy, Minimax(3)
and Minimax(4), at the thesis's budget and at equal time per move), ``beyond`` (what the
genetic players reach against Minimax(3) with more time or a fitted F), ``start``
(BuyAndDeny with ``start=greedy`` at Minimax(3)'s time, on fresh deals: root seed
START_SEED, its own game counts) and ``diagnosis``
(Table 5.2: how often crossover makes a fitter child over whole games, and the share of
distinct chromosomes per generation). The match parts are data, genetic.toml beside this
module, played by :mod:`games.reproduction_table`; the diagnosis is code. Matches are two
players, seats rotated every game, root seed SEED (game i dealt from
games.core.game_seeds(SEED, ., i)), so the figures are the same for any number of jobs.
Each part is saved as it grows; the README is written from every results-*.json present,
with notes.md of the report folder appended.
"""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

from games import registry
from games.reproduction import Settings, play_and_write_readme, say
from games.reproduction_table import load_table, play_part
from games.splendor._heuristics import SPLENDOR_HEURISTIC

FOLDER = "reports/splendor-genetic"
SIZES = {"games": 200, "stats-games": 4, "start-games": 2000, "start-side-games": 400}
#: the splendor-heuristic study's F, as Minimax's parameters
FITTED = dataclasses.asdict(SPLENDOR_HEURISTIC)
#: the match parts' line-ups and the thesis's values; ``{fitted}`` in a bot is FITTED
TABLE = load_table(Path(__file__).with_name("genetic.toml"), sizes=SIZES,
                   fill={"fitted": ",".join(f"{k}={v}" for k, v in FITTED.items())})
SEED: int | None = TABLE.seed
#: the start part's deals: fresh (no other part, and no screening of its budgets, used them)
START_SEED = TABLE.seed_for("start")
PARTS = (*TABLE.parts, "diagnosis")
PARAMS = False
BENCHMARK = True  # benchmarks/splendor_genetic.py output (JSON): seconds per move

#: Table 5.2's runs (population, evaluations; thesis improvements / crossovers) and the
#: players whose diversity per generation is traced
CROSSOVER_RUNS = ((100, 200, 670, 2221), (100, 500, 1120, 4932), (100, 1000, 1326, 11005),
                  (100, 10000, 1321, 95438), (1000, 10000, 13782, 103361))
DIVERSITY_RUNS = ("buy-order:10,100,2000", "buy-and-deny:10,100,2000", "exact-move:10,100,2000")


def record(candidate: str, opponent: str, games: int, seed: int) -> list[Any]:
    """Every move's evolution statistics of ``candidate`` over ``games`` seeded games
    against ``opponent`` (seats rotated; the same games a match plays)."""
    from games.core import game_seeds
    from games.registry import get, seating_for
    from games.splendor._online import play_online

    game = get("splendor")
    specs = [game.parse_bot(candidate), game.parse_bot(opponent)]
    options = game.check_options({})
    moves: list[Any] = []
    play_online(game_seeds(seed, games, 0), seating_for(0, games, 2), [s.name for s in specs],
                [registry.params_of(game, s) for s in specs], game.rows(specs, options),
                options["cap"],
                False, {0: moves})
    return moves


def crossover_row(population: int, evaluations: int, games: int, seed: int) -> dict[str, Any]:
    """Table 5.2's counts for BuyOrder(10, population, evaluations) vs Greedy."""
    t0 = time.perf_counter()
    moves = record(f"buy-order:10,{population},{evaluations}", "greedy", games, seed)
    gens = [g for m in moves for g in m.generations[1:]]
    first = [m.generations[1] for m in moves if len(m.generations) > 1]
    return {"population": population, "evaluations": evaluations, "games": games,
            "seed": seed, "moves": len(moves),
            "crossovers": sum(g.cx_children for g in gens),
            "improvements": sum(g.cx_better for g in gens),
            "first_generation_improvements": sum(g.cx_better for g in first),
            "mutations": sum(g.mut_children for g in gens),
            "mutation_improvements": sum(g.mut_better for g in gens),
            "seconds": time.perf_counter() - t0}


def diversity_row(candidate: str, games: int, seed: int) -> dict[str, Any]:
    """Mean share of distinct chromosomes and of distinct expressed prefixes per
    generation over every move of ``games`` games against Greedy."""
    moves = record(candidate, "greedy", games, seed)
    depth = max(len(m.generations) for m in moves)
    per_gen = []
    for k in range(depth):
        rows = [m.generations[k] for m in moves if len(m.generations) > k]
        per_gen.append({"distinct": sum(r.distinct for r in rows) / len(rows),
                        "expressed": sum(r.distinct_expressed for r in rows) / len(rows),
                        "best": sum(r.best for r in rows) / len(rows)})
    last = [m.generations[-1] for m in moves]
    return {"candidate": candidate, "games": games, "seed": seed, "moves": len(moves),
            "per_generation": per_gen,
            "final_distinct": sum(g.distinct for g in last) / len(last),
            "final_expressed": sum(g.distinct_expressed for g in last) / len(last),
            "improved_moves": sum(m.generations[-1].best > m.generations[0].best
                                  for m in moves) / len(moves)}


def collect(out_dir: Path, settings: Settings) -> list[Path]:
    """Play every requested part, saving its json file after each row."""
    written = []
    for part in settings.parts:
        if part != "diagnosis":
            written.append(play_part(out_dir, settings, TABLE, part))
            continue
        seed = TABLE.seed_for(part, settings.seed)
        path = out_dir / f"results-{part}.json"
        n = settings.n("stats-games")
        out: dict[str, Any] = {"seed": seed, "command": settings.command(), "rows": [],
                               "crossover": [], "diversity": []}
        for pop, evals, better, total in CROSSOVER_RUNS:
            row = crossover_row(pop, evals, n, seed)
            out["crossover"].append({**row, "thesis": [better, total]})
            say(f"  crossover ({pop}, {evals}): {row['improvements']} / "
                f"{row['crossovers']}")
            path.write_text(json.dumps(out, indent=1), encoding="utf-8")
        for cand in DIVERSITY_RUNS:
            out["diversity"].append(diversity_row(cand, n, seed))
            path.write_text(json.dumps(out, indent=1), encoding="utf-8")
        written.append(path)
    return written


def reproduce(out_dir: Path, settings: Settings) -> list[Path]:
    """Play the requested parts (none with ``from_json``), then write README.md from every
    results file present; return the files written."""
    from games.splendor.reproduce._genetic_readme import readme_text

    return play_and_write_readme(out_dir, settings, collect, PARTS, FOLDER, readme_text)
