"""Time per move of Splendor's BuyAndDeny and Minimax(3) side by side, in the same games.

    python benchmarks/splendor_move_time.py                      # the equal-time player, 10 games
    python benchmarks/splendor_move_time.py --games 40 --seed 7
    python benchmarks/splendor_move_time.py --bot "buy-and-deny:4,4,4,start=greedy" \\
        --against minimax:3 --json runs/splendor-move-time.json

The two bots play ``--games`` fresh deals against each other (root seed ``--seed``, seats
rotated by game, exactly the games ``tabletune play`` plays with this line-up), and every
main move each one chooses is timed by the process's CPU clock (on a shared machine the
CPU figure is the one-core cost; wall seconds are printed beside it). Both bots decide
through the same path as in a match (:func:`games.splendor._online.play_online`): the genetic
player's ``decide`` and the kernel's ``decide`` for Minimax, so the per-call costs of
either (a DEAP evolution, Minimax's table allocation) are counted as a match pays them.
Moves with one legal choice are timed too (both bots answer them at once). Kernels are
compiled (or loaded from numba's cache) on a warm-up game first. Each bot's wins, ties and
losses, overall and per seat, come with the score's intervals: a long run gives the win
rate and the time ratio of the same games.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import registry  # noqa: E402
from games.core import InputError, Record, game_seeds, wilson_interval  # noqa: E402
from games.outcomes import seating_for  # noqa: E402
from games.splendor._deal import setup  # noqa: E402
from games.splendor._kernel import BOT_STREAM, decide  # noqa: E402
from games.splendor._online import genetic_bots  # noqa: E402
from games.splendor._rules import (  # noqa: E402
    O_CUR,
    O_DONE,
    O_PHASE,
    PH_MAIN,
    SIZE,
    apply_move,
    outcome,
)
from games.splendor.game import GAME  # noqa: E402

#: the splendor-buyanddeny study's best (trial 35): Greedy's line, the previous plan and
#: goal seeds, 13 plans of 3 turns, at most Minimax(3)'s time per move
#: (reports/splendor-genetic, "Goal seeds at equal time")
BEST = ("buy-and-deny:depth=3,population=13,evaluations=13,tournament=2,operators=crossover,"
        "cxpb=0.3834240183383173,mutpb=0.9189420106717884,indpb=0.05258269874506516,"
        "heuristic=splendor-heuristic,start=greedy+reuse,seeds=12,opponent=same")


def time_games(texts: list[str], seed: int, games: int, cap: int = 100) -> dict:
    """Play ``games`` deals between the bots ``texts`` (seats rotated) and time every main
    move; per bot the CPU and wall seconds of each move, and the games' outcomes."""
    specs = [GAME.check_bot(GAME.parse_bot(t)) for t in texts]
    options = registry.typed(GAME, {"cap": cap})
    rows = GAME.rows(specs, {"cap": cap})
    names = [b.name for b in specs]
    params = [registry.params_of(GAME, b) for b in specs]
    seating = seating_for(0, games, len(specs), len(specs), True)
    cpu: list[list[float]] = [[] for _ in specs]
    wall: list[list[float]] = [[] for _ in specs]
    wins = np.zeros(len(specs), dtype=np.int64)
    records = [Record() for _ in specs]
    seats = [[Record() for _ in specs] for _ in specs]  # bot -> seat -> record
    s = np.empty(SIZE, dtype=np.int64)
    for g, gs in enumerate(game_seeds(seed, games)):
        setup(s, len(specs), int(options.cap), np.array([gs], dtype=np.uint64))
        stream = np.array([np.uint64(gs) ^ BOT_STREAM], dtype=np.uint64)
        bots = genetic_bots(int(gs), names, params, rows, options.refill == "sampled")
        while not s[O_DONE]:
            b = int(seating[g, s[O_CUR]])
            main = s[O_PHASE] == PH_MAIN
            w0, c0 = time.perf_counter(), time.process_time()
            m = bots[b].decide(s) if b in bots else int(decide(s, rows[b], stream))
            if main:
                cpu[b].append(time.process_time() - c0)
                wall[b].append(time.perf_counter() - w0)
            apply_move(s, m)
        res = np.empty(len(specs), dtype=np.int64)
        outcome(s, res)
        for k, b in enumerate(seating[g].tolist()):
            one = Record(int(res[k] == 1), int(res[k] == 0), int(res[k] == -1))
            records[b].add(one)
            seats[b][k].add(one)
            wins[b] += res[k] == 1
    return {"cpu": cpu, "wall": wall, "wins": wins.tolist(), "records": records,
            "seats": seats}


def record_dict(r: Record) -> dict:
    """A bot's wins, ties, losses and score (a tie counts half) with its normal 95% interval
    (as ``tabletune play``) and the Wilson 95% interval of the score."""
    return {**r.to_dict(), "score_wilson": list(wilson_interval(r.wins + 0.5 * r.ties,
                                                                r.games))}


def summary(xs: list[float]) -> dict:
    """Moves and mean / median / 90th percentile milliseconds."""
    q = statistics.quantiles(xs, n=10) if len(xs) >= 2 else xs * 9
    return {"moves": len(xs), "mean_ms": 1e3 * statistics.fmean(xs),
            "median_ms": 1e3 * statistics.median(xs), "p90_ms": 1e3 * q[8]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default=BEST, help="the genetic player (default: the equal-time one)")
    ap.add_argument("--against", default="minimax:3")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    a = ap.parse_args()
    if a.games < 1:
        print(f"--games: {a.games} is below 1", file=sys.stderr)
        raise SystemExit(2)
    texts = [a.bot, a.against]
    try:
        time_games(texts, a.seed + 1, 1)  # check the bots, compile / load the kernels
    except InputError as e:
        print(e, file=sys.stderr)
        raise SystemExit(2) from None
    load = os.getloadavg()[0]
    run = time_games(texts, a.seed, a.games)
    figures = {"command": " ".join(["python benchmarks/splendor_move_time.py", *sys.argv[1:]]),
               "load_average": load, "games": a.games, "seed": a.seed, "bots": []}
    print(f"load average {load:.2f}; {a.games} games, seed {a.seed}, seats rotated; "
          "ms per main move, CPU (wall)")
    for b, text in enumerate(texts):
        c, w = summary(run["cpu"][b]), summary(run["wall"][b])
        games = record_dict(run["records"][b])
        figures["bots"].append({"bot": text, "cpu": c, "wall": w, "wins": run["wins"][b],
                                "games": games,
                                "per_seat": [record_dict(r) for r in run["seats"][b]]})
        print(f"{text}: {c['moves']} moves, mean {c['mean_ms']:.3f} ms, median "
              f"{c['median_ms']:.3f} ms, p90 {c['p90_ms']:.3f} ms (wall mean "
              f"{w['mean_ms']:.3f}, median {w['median_ms']:.3f})")
        for label, r in [("all seats", games), *((f"seat {k}", record_dict(x))
                                                 for k, x in enumerate(run["seats"][b]))]:
            lo, hi = r["score_wilson"]
            print(f"  {label}: {r['wins']} won, {r['ties']} tied, {r['losses']} lost of "
                  f"{r['games']}; score {100 * r['score']:.2f}% (Wilson 95% "
                  f"{100 * lo:.1f}-{100 * hi:.1f})")
    first, second = figures["bots"]
    ratio_mean = first["cpu"]["mean_ms"] / second["cpu"]["mean_ms"]
    ratio_median = first["cpu"]["median_ms"] / second["cpu"]["median_ms"]
    figures["ratio_mean"], figures["ratio_median"] = ratio_mean, ratio_median
    print(f"CPU time per move, first / second: mean {ratio_mean:.2f}, median {ratio_median:.2f}")
    if a.json is not None:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
