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
distinct chromosomes per generation). Matches are two players, seats rotated every game,
root seed SEED (game i dealt from games.core.game_seeds(SEED, ., i)), so the figures are
the same for any number of jobs. Each part is saved as it grows; the README is written from
every results-*.json present, with notes.md of the report folder appended.
"""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

from games.reproduction import Settings, play_and_write_readme, say
from games.splendor.heuristics import SPLENDOR_HEURISTIC
from tuning.reproduce.splendor import measure

FOLDER = "reports/splendor-genetic"
SEED: int | None = 2013
PARTS = ("variants", "depths", "random-search", "buy-and-deny", "beyond", "start",
         "diagnosis")
SIZES = {"games": 200, "stats-games": 4, "start-games": 2000, "start-side-games": 400}
#: the start part's deals: fresh (no other part, and no screening of its budgets, used them)
START_SEED = 140014
PARAMS = False
BENCHMARK = True  # benchmarks/splendor_genetic.py output (JSON): seconds per move

#: BuyAndDeny budgets whose median time per move matches Minimax(3) / Minimax(4) (allEval)
#: on the positions of benchmarks/splendor_genetic.py (one core; see the README)
EQUAL_MINIMAX3 = "buy-and-deny:10,4,8"
EQUAL_MINIMAX4 = "buy-and-deny:10,10,40"
B_AND_D = "buy-and-deny:10,100,2000"

#: the splendor-heuristic study's F, as Minimax's parameters
FITTED = dataclasses.asdict(SPLENDOR_HEURISTIC)
#: BuyAndDeny at Minimax(3)'s time with Greedy's line in its first generation (median CPU
#: time per move 0.90-0.97 times Minimax(3)'s: benchmarks/splendor_genetic.py --rounds 20)
EQUAL_START = "buy-and-deny:4,4,4,start=greedy,heuristic=splendor-heuristic"

# part -> rows: (label, candidate, opponent, thesis %)
ROWS: dict[str, list[tuple[str, str, str, float | None]]] = {
    "variants": [
        ("Mutation only (100, 1000)", "buy-order:10,100,1000,operators=mutation", "greedy", 79),
        ("Crossover only (100, 1000)", "buy-order:10,100,1000,operators=crossover", "greedy",
         82),
        ("Restricted mutation only (100, 1000)",
         "buy-order:10,100,1000,operators=restricted-mutation", "greedy", 81),
        ("Restricted mutation (1000, 1000)",
         "buy-order:10,1000,1000,operators=crossover+restricted", "greedy", 80),
        ("Restricted mutation (100, 1500)",
         "buy-order:10,100,1500,operators=crossover+restricted", "greedy", 82),
    ],
    "depths": [(f"BuyOrder depth {d}, population {p}, {e:,} evaluations",
                f"buy-order:{d},{p},{e}", "greedy", pct)
               for d, p, e, pct in ((2, 500, 1000, 53), (2, 500, 5000, 57), (4, 100, 5000, 70),
                                    (4, 300, 5000, 64), (6, 100, 3000, 79), (6, 300, 3000, 84),
                                    (10, 100, 2000, 85), (10, 300, 2000, 88))],
    "random-search": [
        ("RandomSearch(10, 1000) vs BuyOrder(10), allEval2", "random-search:10,1000",
         "buy-order:10,100,2000,heuristic=alleval2", 52),
        ("RandomSearch(10, 1000) vs ExactMove(10), allEval2", "random-search:10,1000",
         "exact-move:10,100,2000", 78),
        ("RandomSearch(10, 1000) vs ExactMove(10) with repair, allEval2",
         "random-search:10,1000", "exact-move:10,100,2000,illegal=repair", 78),
    ],
    "buy-and-deny": [
        ("Minimax(4) vs Greedy (the yardstick)", "minimax:4", "greedy", 80),
        ("BuyAndDeny(10, 100, 2000) vs Greedy", B_AND_D, "greedy", None),
        ("BuyAndDeny(10, 100, 2000) vs Minimax(3)", B_AND_D, "minimax:3", None),
        ("BuyAndDeny(10, 100, 2000) vs Minimax(4)", B_AND_D, "minimax:4", None),
        ("BuyAndDeny(10, 10, 40) vs Greedy: Minimax(4)'s time", EQUAL_MINIMAX4, "greedy",
         None),
        ("BuyAndDeny(10, 4, 8) vs Minimax(3): equal time", EQUAL_MINIMAX3, "minimax:3", None),
        ("BuyAndDeny(10, 10, 40) vs Minimax(4): equal time", EQUAL_MINIMAX4, "minimax:4",
         None),
    ],
    "beyond": [
        ("BuyOrder(10, 100, 2000) vs Minimax(3)", "buy-order:10,100,2000", "minimax:3", None),
        ("BuyAndDeny(10, 100, 2000), splendor-heuristic F, vs Minimax(3)",
         "buy-and-deny:10,100,2000,heuristic=splendor-heuristic", "minimax:3", None),
        ("... vs Minimax(3) with the same F", "buy-and-deny:10,100,2000,heuristic=splendor-"
         "heuristic", "minimax:3," + ",".join(f"{k}={v}" for k, v in FITTED.items()), None),
        ("Greedy vs Minimax(3): what 7 microseconds a move reach", "greedy", "minimax:3",
         None),
    ],
}
#: part start -> rows: (label, candidate, opponent, size of the game count)
START_ROWS: list[tuple[str, str, str, str]] = [
    ("BuyAndDeny(4, 4, 4), start=greedy, splendor-heuristic F, vs Minimax(3): equal time",
     EQUAL_START, "minimax:3", "start-games"),
    ("Greedy with the splendor-heuristic F vs Minimax(3): the seeded line alone",
     "greedy:" + ",".join(f"{k}={v}" for k, v in FITTED.items()), "minimax:3", "start-games"),
    ("BuyAndDeny(4, 4, 4), start=random (the thesis's), splendor-heuristic F, vs Minimax(3)",
     "buy-and-deny:4,4,4,heuristic=splendor-heuristic", "minimax:3", "start-side-games"),
    ("BuyAndDeny(4, 4, 4), start=greedy, allEval, vs Minimax(3)",
     "buy-and-deny:4,4,4,start=greedy", "minimax:3", "start-side-games"),
    ("BuyAndDeny(4, 4, 4), start=greedy, splendor-heuristic F, vs Greedy (allEval)",
     EQUAL_START, "greedy", "start-side-games"),
    ("BuyAndDeny(4, 8, 8), start=greedy, splendor-heuristic F, vs Minimax(3): 1.3 times its "
     "time", "buy-and-deny:4,8,8,start=greedy,heuristic=splendor-heuristic", "minimax:3",
     "start-side-games"),
    ("BuyAndDeny(10, 100, 2000), start=greedy, splendor-heuristic F, vs Minimax(3): the "
     "thesis's budget", "buy-and-deny:10,100,2000,start=greedy,heuristic=splendor-heuristic",
     "minimax:3", "games"),
]
#: Table 5.2's runs (population, evaluations; thesis improvements / crossovers) and the
#: players whose diversity per generation is traced
CROSSOVER_RUNS = ((100, 200, 670, 2221), (100, 500, 1120, 4932), (100, 1000, 1326, 11005),
                  (100, 10000, 1321, 95438), (1000, 10000, 13782, 103361))
DIVERSITY_RUNS = ("buy-order:10,100,2000", B_AND_D, "exact-move:10,100,2000")


def record(candidate: str, opponent: str, games: int, seed: int) -> list[Any]:
    """Every move's evolution statistics of ``candidate`` over ``games`` seeded games
    against ``opponent`` (seats rotated; the same games a match plays)."""
    from games.core import game_seeds
    from games.registry import get, seating_for
    from games.splendor.online import play_online

    game = get("splendor")
    specs = [game.parse_bot(candidate), game.parse_bot(opponent)]
    options = game.check_options({})
    moves: list[Any] = []
    play_online(game_seeds(seed, games, 0), seating_for(0, games, 2), [s.name for s in specs],
                [game.params_of(s) for s in specs], game.rows(specs, options), options["cap"],
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
    seed = SEED if settings.seed is None else settings.seed
    written = []
    for part in settings.parts:
        path = out_dir / f"results-{part}.json"
        out: dict[str, Any] = {"seed": seed, "command": settings.command(), "rows": []}
        if part == "diagnosis":
            n = settings.n("stats-games")
            out["crossover"] = []
            out["diversity"] = []
            for pop, evals, better, total in CROSSOVER_RUNS:
                row = crossover_row(pop, evals, n, seed)
                out["crossover"].append({**row, "thesis": [better, total]})
                say(f"  crossover ({pop}, {evals}): {row['improvements']} / "
                    f"{row['crossovers']}")
                path.write_text(json.dumps(out, indent=1), encoding="utf-8")
            for cand in DIVERSITY_RUNS:
                out["diversity"].append(diversity_row(cand, n, seed))
                path.write_text(json.dumps(out, indent=1), encoding="utf-8")
        elif part == "start":
            out["seed"] = START_SEED if settings.seed is None else settings.seed
            for label, cand, opp, size in START_ROWS:
                row = measure(cand, opp, settings.n(size), out["seed"], settings.jobs)
                out["rows"].append({"label": label, "thesis": None, **row})
                path.write_text(json.dumps(out, indent=1), encoding="utf-8")
        else:
            for label, cand, opp, thesis in ROWS[part]:
                row = measure(cand, opp, settings.n("games"), seed, settings.jobs)
                out["rows"].append({"label": label, "thesis": thesis, **row})
                path.write_text(json.dumps(out, indent=1), encoding="utf-8")
        written.append(path)
    return written


def reproduce(out_dir: Path, settings: Settings) -> list[Path]:
    """Play the requested parts (none with ``from_json``), then write README.md from every
    results file present; return the files written."""
    from tuning.reproduce.splendor_genetic_readme import readme_text

    return play_and_write_readme(out_dir, settings, collect, PARTS, FOLDER, readme_text)
