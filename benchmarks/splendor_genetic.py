"""Benchmark of Splendor's online genetic players on one core: seconds per move (median and
90th percentile) and where a move's time goes (inside DEAP, inside the numba simulation
of plans, the rest).

    python benchmarks/splendor_genetic.py                    # BuyAndDeny(10, 100, 2000)
    python benchmarks/splendor_genetic.py --bot buy-order --positions 40
    python benchmarks/splendor_genetic.py --bot buy-and-deny:10,100,2000 --also minimax:3 \\
        minimax:4 --json runs/splendor-genetic-benchmark.json

Positions come from Greedy-vs-Greedy play from fixed deals (4 to 59 turns in), the same
ones as benchmarks/splendor.py. Kernels are compiled (or loaded from numba's cache) on a
warm-up move first. Each move is timed by the wall clock and by the process's CPU clock: on
a shared machine the CPU figure is the one-core cost and the wall figure an upper bound.
``--also`` times other bots (kernel bots through the turn-level API) on the same positions,
for comparisons at equal time per move; ``--rounds R`` times every bot R times, the bots
taking turns, so a load that drifts during the run falls on all of them alike.
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

from benchmarks.splendor import search_positions  # noqa: E402
from games.splendor._players import make_bot  # noqa: E402
from games.splendor.game import GAME  # noqa: E402


def _bot(text: str, recorder: list | None = None):
    spec = GAME.parse_bot(text)
    bot = make_bot(spec.name, dict(spec.params), rng=np.random.default_rng(1))
    if recorder is not None:
        bot.recorder = recorder
    return bot


def time_moves(text: str, positions: list, rounds: int = 1) -> dict:
    """Per-move wall and CPU seconds of bot ``text`` over ``positions`` (plus, for a
    genetic bot, the DEAP / simulation split summed over the moves); ``rounds`` > 1
    times every position that many times (a fresh bot each round)."""
    stats: list = []
    wall, cpu = [], []
    for _ in range(rounds):
        _time_round(text, positions, stats, wall, cpu)
    return _figures(text, len(positions), stats, wall, cpu)


def _time_round(text: str, positions: list, stats: list, wall: list, cpu: list) -> None:
    """One pass of a fresh bot ``text`` over ``positions``, times appended."""
    warm: list = []
    bot = _bot(text, warm)
    bot.act(positions[0].clone())  # compile / load and warm
    bot.recorder = stats
    for st in positions:
        w0, c0 = time.perf_counter(), time.process_time()
        bot.act(st.clone())
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)


def _figures(text: str, positions: int, stats: list, wall: list, cpu: list) -> dict:
    out = {"bot": text, "positions": positions, "moves": len(cpu),
           "wall": _summary(wall), "cpu": _summary(cpu)}
    if stats:
        total = sum(s.seconds for s in stats)
        out["deap_share"] = sum(s.deap for s in stats) / total
        out["simulation_share"] = sum(s.simulation for s in stats) / total
        out["evaluations_per_move"] = statistics.fmean(s.evaluations for s in stats)
        out["generations_per_move"] = statistics.fmean(len(s.generations) for s in stats)
    return out


def _summary(xs: list[float]) -> dict:
    q = statistics.quantiles(xs, n=10) if len(xs) >= 2 else xs * 9
    return {"median": statistics.median(xs), "p90": q[8], "mean": statistics.fmean(xs),
            "max": max(xs)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="buy-and-deny:depth=10,population=100,evaluations=2000")
    ap.add_argument("--also", nargs="*", default=[], help="other bots timed the same way")
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    ap.add_argument("--rounds", type=int, default=1,
                    help="time every bot this many times over the positions, the bots "
                         "taking turns round by round (drifting load falls on all alike)")
    a = ap.parse_args()
    if a.rounds < 1:
        ap.error(f"--rounds: {a.rounds} is below 1")
    load = os.getloadavg()[0]
    print(f"load average {load:.2f}; one core (numba kernels, no threads)")
    positions = search_positions(a.positions)
    figures = {"load_average": load, "bots": [], "rounds": a.rounds,
               "command": " ".join(["python benchmarks/splendor_genetic.py", *sys.argv[1:]])}
    bots = [a.bot, *a.also]
    timed: dict[str, tuple[list, list, list]] = {text: ([], [], []) for text in bots}
    for _ in range(a.rounds):
        for text in bots:
            _time_round(text, positions, *timed[text])
    for text in bots:
        r = _figures(text, len(positions), *timed[text])
        figures["bots"].append(r)
        line = (f"{text}: median {r['cpu']['median']:.4f} s/move CPU "
                f"(p90 {r['cpu']['p90']:.4f}), wall median {r['wall']['median']:.4f} "
                f"(p90 {r['wall']['p90']:.4f}) over {r['positions']} positions")
        if "deap_share" in r:
            rest = 1 - r["deap_share"] - r["simulation_share"]
            line += (f"; DEAP {r['deap_share']:.1%}, simulation {r['simulation_share']:.1%}, "
                     f"rest {rest:.1%} of move time; {r['evaluations_per_move']:.0f} "
                     f"evaluations in {r['generations_per_move']:.0f} generations per move")
        print(line, flush=True)
    if a.json is not None:
        from tuning.reproduce import outside_reports

        outside_reports(a.json)
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
