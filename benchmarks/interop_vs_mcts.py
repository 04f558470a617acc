"""Our tuned players against OpenSpiel's MCTS at equal CPU time per move.

    python benchmarks/interop_vs_mcts.py --games 40 --jobs 2 --out reports/interop/vs_mcts.json
    python benchmarks/interop_vs_mcts.py --games 400 --jobs 16 --out runs/vs_mcts.json

Splendor (2 players, seats rotated: game i puts our bot in seat i % 2): the tuned Greedy
(reports/splendor-heuristic), the tuned Minimax(2) (reports/splendor-minimax-heuristic),
Minimax(3) (allEval) and the tuned BuyAndDeny (reports/splendor-buyanddeny), each against
``openspiel-mcts`` (random rollouts, UCT c = 2). The Game (solo): our depth-2 search with the
tuned penalty weights (reports/thegame-penalty-d2) against ``openspiel-mcts`` alone.

Equal time: a calibration round (``--calibrate`` games per bot, MCTS at ``--probe``
simulations) measures each bot's mean CPU seconds per decision (time.process_time around
each decision, in the worker that plays it) and MCTS's CPU seconds per simulation; MCTS
then gets ``round(budget * t_bot / t_sim)`` simulations (at least 2, OpenSpiel's least:
its first simulation only expands the root) for each budget
multiplier of ``--budgets`` (1 = equal time) and for each ``--mcts-seconds`` budget (CPU
seconds per move, for budgets beyond ours). The match's own measured times are reported
beside, so a budget that the two-simulation floor overshoots is visible. Our The Game
player decides a whole turn in the numba engine; its time per decision is the CPU time of
the engine's games divided by their decisions (cards laid plus turns ended).

Every game is seeded from ``--seed`` and its index; blocks of games go to one joblib loky
pool (``--jobs``) opened once per run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from joblib import Parallel, delayed

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import registry  # noqa: E402
from games.core import BotSpec, wilson_interval  # noqa: E402
from games.outcomes import Outcomes  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MCTS = "openspiel-mcts"
SPLENDOR = {  # label -> (report whose best parameters it plays, or a fixed bot text)
    "tuned Greedy": "splendor-heuristic",
    "tuned Minimax(2)": "splendor-minimax-heuristic",
    "Minimax(3)": "minimax:3",
    "tuned BuyAndDeny": "splendor-buyanddeny",
}
THEGAME = ("tuned depth-2 search", "thegame-penalty-d2")


def tuned(game: registry.Game, ref: str) -> BotSpec:
    """A report's best bot (strategy and best parameters of its run.json), or a bot text."""
    path = ROOT / "reports" / ref / "run.json"
    if not path.is_file():
        return game.parse_bot(ref)
    run = json.loads(path.read_text())
    return game.check_bot(BotSpec(run["strategy"], dict(run["best_params"])))


def play_block(game: str, bots: list[BotSpec], options: dict, seed: int, start: int,
               count: int, warm: bool = False) -> tuple[Outcomes, float]:
    """One block in a worker: outcomes and the CPU seconds the block took there (``warm``:
    first one untimed game of another seed, so compiling kernels is not timed)."""
    g = registry.get(game)
    if warm:
        g.play(bots, g.check_options(options), seed + 99, start, 1)
    clock = time.process_time()
    out = g.play(bots, g.check_options(options), seed, start, count)
    return out, time.process_time() - clock


def blocks(total: int, size: int) -> list[tuple[int, int]]:
    return [(s, min(size, total - s)) for s in range(0, total, size)]


def per_move(outs: list[Outcomes], bot: int) -> float:
    moves = sum(int(o.extra["moves"][:, bot].sum()) for o in outs)
    return sum(float(o.extra["seconds"][:, bot].sum()) for o in outs) / max(moves, 1)


def rate(values: np.ndarray) -> dict[str, Any]:
    """Mean of per-game results 1 / 0.5 / 0 with its 95% Wilson interval."""
    n = len(values)
    lo, hi = wilson_interval(float(values.sum()), n)
    return {"rate": float(values.mean()), "ci95": [lo, hi], "games": n}


def mean_ci(values: np.ndarray) -> dict[str, Any]:
    sd = float(values.std(ddof=1)) if len(values) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(max(len(values), 1))
    return {"mean": float(values.mean()), "ci95": [float(values.mean()) - half,
                                                   float(values.mean()) + half]}


def mcts_text(sims: int) -> str:
    return f"{MCTS}:simulations={sims}"


def splendor(parallel: Parallel, args: argparse.Namespace) -> list[dict[str, Any]]:
    game = registry.get("splendor")
    options = {"cap": 100}
    ours = {label: tuned(game, ref) for label, ref in SPLENDOR.items()}
    probe = game.parse_bot(mcts_text(args.probe))
    cal = parallel(delayed(play_block)("splendor", [bot, probe], options, args.seed + 1, s, n,
                                       True)
                   for bot in ours.values() for s, n in blocks(args.calibrate, args.block))
    per = len(blocks(args.calibrate, args.block))
    rows, jobs = [], []
    for k, (label, bot) in enumerate(ours.items()):
        part = [o for o, _ in cal[k * per:(k + 1) * per]]
        t_bot, t_sim = per_move(part, 0), per_move(part, 1) / args.probe
        for budget, sims in simulations(args, t_bot, t_sim):
            rows.append({"game": "splendor", "ours": label, "bot": vars_of(bot),
                         "budget": budget, "simulations": sims,
                         "calibration": {"ours_s_per_move": t_bot, "mcts_s_per_sim": t_sim}})
            line_up = [bot, game.parse_bot(mcts_text(sims))]
            jobs += [(len(rows) - 1, delayed(play_block)("splendor", line_up, options,
                                                         args.seed, s, n))
                     for s, n in blocks(args.games, args.block)]
    done = parallel(job for _, job in jobs)
    for r, row in enumerate(rows):
        outs = [o for (i, _), (o, _) in zip(jobs, done, strict=True) if i == r]
        res = np.concatenate([o.bot_result()[:, 0] for o in outs])
        row.update({"ours_result": rate(res),
                    "ours_s_per_move": per_move(outs, 0), "mcts_s_per_move": per_move(outs, 1),
                    "ours_wins": int((res == 1).sum()), "ties": int((res == 0.5).sum()),
                    "mcts_wins": int((res == 0).sum()),
                    "ours_points": mean_ci(np.concatenate([o.bot_score()[:, 0] for o in outs])),
                    "mcts_points": mean_ci(np.concatenate([o.bot_score()[:, 1] for o in outs]))})
    return rows


def thegame(parallel: Parallel, args: argparse.Namespace) -> list[dict[str, Any]]:
    game = registry.get("thegame")
    run = json.loads((ROOT / "reports" / THEGAME[1] / "run.json").read_text())
    options = {"depth": 2, "players": 1}
    ours = game.check_bot(BotSpec(run["strategy"], dict(run["best_params"])))
    play_block("thegame", [ours], options, 0, 0, 2)  # compile the engine before timing it
    mine = parallel(delayed(play_block)("thegame", [ours], options, args.seed, s, n)
                    for s, n in blocks(args.games, max(args.block, 50)))
    outs = [o for o, _ in mine]
    left = np.concatenate([o.score[:, 0] for o in outs])
    decisions = float((98 - left).sum() + sum(int(o.turns.sum()) for o in outs))
    t_ours = sum(c for _, c in mine) / decisions
    probe = game.parse_bot(mcts_text(args.probe))
    cal = parallel(delayed(play_block)("thegame", [probe], options, args.seed + 1, s, n, True)
                   for s, n in blocks(max(2, args.calibrate // 2), args.block))
    t_sim = per_move([o for o, _ in cal], 0) / args.probe
    rows = [{"game": "thegame", "ours": THEGAME[0], "bot": vars_of(ours), "budget": None,
             "ours_s_per_move": t_ours, "won": rate((left == 0).astype(float)),
             "cards_left": mean_ci(left)}]
    for budget, sims in simulations(args, t_ours, t_sim):
        line_up = [game.parse_bot(mcts_text(sims))]
        done = parallel(delayed(play_block)("thegame", line_up, options, args.seed, s, n)
                        for s, n in blocks(args.games, args.block))
        outs = [o for o, _ in done]
        left = np.concatenate([o.score[:, 0] for o in outs])
        rows.append({"game": "thegame", "ours": MCTS, "budget": budget, "simulations": sims,
                     "calibration": {"ours_s_per_move": t_ours, "mcts_s_per_sim": t_sim},
                     "mcts_s_per_move": per_move(outs, 0),
                     "won": rate((left == 0).astype(float)), "cards_left": mean_ci(left)})
    return rows


def simulations(args: argparse.Namespace, t_bot: float, t_sim: float
                ) -> list[tuple[str, int]]:
    """(budget, MCTS simulations) for each budget: ``Nx`` our bot's time per move, or ``Ns``
    CPU seconds per move; never fewer than 2 simulations."""
    out = [(f"{m:g}x ours", round(m * t_bot / t_sim)) for m in args.budgets]
    out += [(f"{s:g} s", round(s / t_sim)) for s in args.mcts_seconds]
    return [(b, max(2, n)) for b, n in out]


def pct(r: dict[str, Any]) -> str:
    lo, hi = r["ci95"]
    return f"{100 * r['rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def ms(seconds: float) -> str:
    return f"{1000 * seconds:.3g} ms"


def tables(data: dict[str, Any]) -> str:
    """The figures of a run as Markdown tables (what reports/interop/README.md quotes)."""
    out = ["| our bot | MCTS budget | simulations | our result | W/T/L (ours) | "
           "ours per move | MCTS per move | points ours / MCTS |", "|---" * 8 + "|"]
    for r in (r for r in data["rows"] if r["game"] == "splendor"):
        out.append(f"| {r['ours']} | {r['budget']} | {r['simulations']} | "
                   f"{pct(r['ours_result'])} | {r['ours_wins']}/{r['ties']}/{r['mcts_wins']} | "
                   f"{ms(r['ours_s_per_move'])} | {ms(r['mcts_s_per_move'])} | "
                   f"{r['ours_points']['mean']:.1f} / {r['mcts_points']['mean']:.1f} |")
    out += ["", "| player | budget | simulations | won | cards left (95% CI) | CPU per move |",
            "|---" * 6 + "|"]
    for r in (r for r in data["rows"] if r["game"] == "thegame"):
        left = r["cards_left"]
        per = r.get("mcts_s_per_move", r.get("ours_s_per_move"))
        out.append(f"| {r['ours']} | {r['budget'] or '-'} | {r.get('simulations', '-')} | "
                   f"{pct(r['won'])} | {left['mean']:.1f} [{left['ci95'][0]:.1f}, "
                   f"{left['ci95'][1]:.1f}] | {ms(per)} |")
    return "\n".join(out)


def vars_of(bot: BotSpec) -> dict[str, Any]:
    return {"name": bot.name, "params": dict(bot.params)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per pairing and budget")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (joblib loky)")
    ap.add_argument("--block", type=int, default=4, help="games per task")
    ap.add_argument("--budgets", type=float, nargs="*", default=[1.0],
                    help="MCTS time per move as multiples of our bot's (1 = equal)")
    ap.add_argument("--mcts-seconds", type=float, nargs="*", default=[0.1],
                    help="MCTS time per move in CPU seconds (budgets beyond ours)")
    ap.add_argument("--calibrate", type=int, default=4, help="calibration games per bot")
    ap.add_argument("--probe", type=int, default=8, help="MCTS simulations when calibrating")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--only", choices=("splendor", "thegame"), default=None)
    ap.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    ap.add_argument("--tables", type=Path, default=None,
                    help="print the Markdown tables of a JSON written before, and stop")
    args = ap.parse_args(argv)
    if args.tables:
        print(tables(json.loads(args.tables.read_text())))
        return 0
    started = time.time()
    rows: list[dict[str, Any]] = []
    with Parallel(n_jobs=args.jobs, backend="loky") as parallel:
        if args.only in (None, "splendor"):
            rows += splendor(parallel, args)
        if args.only in (None, "thegame"):
            rows += thegame(parallel, args)
    data = {"command": " ".join([Path(sys.argv[0]).name, *(argv or sys.argv[1:])]),
            "seed": args.seed, "games": args.games, "jobs": args.jobs,
            "budgets": args.budgets, "mcts_seconds": args.mcts_seconds, "cpus": os.cpu_count(),
            "load_average": os.getloadavg(), "wall_s": time.time() - started, "rows": rows}
    text = json.dumps(data, indent=1)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
