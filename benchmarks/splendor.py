"""Benchmark of the Splendor engine on one core: random and Greedy games per second, and
Minimax seconds per move.

    python benchmarks/splendor.py                     # defaults below
    python benchmarks/splendor.py --random 100000 --greedy 5000 --positions 30 --depths 4 5 6

Kernels are compiled (or loaded from numba's cache) and warmed on a few games first. Game
rates are the best of ``--repeat`` runs (the machine may be shared); Minimax times are per
move on positions reached by Greedy-vs-Greedy play from fixed seeds (median and max), and
the load average is printed so a figure taken on a busy machine can be read for what it is.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.splendor.game import GAME  # noqa: E402
from games.splendor.kernel import decide  # noqa: E402
from games.splendor.players import bot_row, make_bot  # noqa: E402
from games.splendor.state import SplendorState  # noqa: E402


def games_per_second(bots: list[str], count: int, repeat: int) -> tuple[float, float, float]:
    """(best games/s, mean rounds, capped share) of ``count`` games between ``bots``."""
    specs = [GAME.parse_bot(b) for b in bots]
    GAME.play(specs, {}, 0, 0, 20)  # compile / load and warm
    best = 0.0
    out = None
    for r in range(repeat):
        t = time.perf_counter()
        out = GAME.play(specs, {}, 1 + r, 0, count)
        best = max(best, count / (time.perf_counter() - t))
    assert out is not None
    return best, float(out.turns.mean()), float(out.capped.mean())


def search_positions(count: int, seed: int = 1) -> list[SplendorState]:
    """Positions over the whole game: Greedy vs Greedy for 4..59 turns from fixed deals."""
    rng = np.random.default_rng(seed)
    greedy = make_bot("greedy")
    out = []
    for i in range(count):
        st = SplendorState.new(2, seed, i)
        for _ in range(int(rng.integers(4, 60))):
            if st.is_terminal():
                break
            st.apply(greedy.act(st))
        while not st.is_terminal() and st.phase != "main":
            st.apply(greedy.act(st))
        if not st.is_terminal():
            out.append(st)
    return out


def seconds_per_move(depth: int, positions: list[SplendorState], name: str,
                     prune: bool = True) -> list[float]:
    row = bot_row(name, make_bot(name, {"depth": depth, "prune": prune}).params)
    stream = np.array([1], dtype=np.uint64)
    decide(positions[0].array.copy(), bot_row(name, make_bot(name, {"depth": 2}).params),
           stream)  # compile / load
    times = []
    for st in positions:
        t = time.perf_counter()
        decide(st.array.copy(), row, stream)
        times.append(time.perf_counter() - t)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=50_000, help="random games to time")
    ap.add_argument("--greedy", type=int, default=3_000, help="Greedy games to time")
    ap.add_argument("--positions", type=int, default=20, help="positions per depth")
    ap.add_argument("--depths", type=int, nargs="*", default=[3, 4, 5])
    ap.add_argument("--bot", default="minimax", help="minimax (allEval) or minimax2")
    ap.add_argument("--plain", type=int, nargs="*", default=[3, 4],
                    help="depths also timed without alpha-beta")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; one core (numba kernels, no threads)")
    gps, rounds, capped = games_per_second(["random", "random"], a.random, a.repeat)
    print(f"random vs random, 2 players: {gps:,.0f} games/s (target 20,000); "
          f"mean rounds {rounds:.1f}, capped {capped:.2%}; Rust reference 98,000 "
          f"-> ratio {gps / 98_000:.2f}")
    gps, rounds, capped = games_per_second(["greedy", "greedy"], a.greedy, a.repeat)
    print(f"greedy vs greedy, 2 players: {gps:,.0f} games/s (target 1,000); "
          f"mean rounds {rounds:.1f}, capped {capped:.2%}")
    positions = search_positions(a.positions)
    runs = [(d, True) for d in a.depths] + [(d, False) for d in a.plain]
    for depth, prune in runs:
        times = seconds_per_move(depth, positions, a.bot, prune)
        label = f"{a.bot}({depth})" + ("" if prune else " without alpha-beta")
        print(f"{label}: median {statistics.median(times):.4f} s/move, "
              f"mean {statistics.fmean(times):.4f}, max {max(times):.4f} s over "
              f"{len(times)} positions" + (" (target <= 1 s)" if depth == 4 and prune else ""))


if __name__ == "__main__":
    main()
