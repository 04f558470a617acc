"""Benchmark of Dominion's turn-level API (games.dominion._state, which steps the rule machine)
against the pure-Python implementation it replaced (kept as the test oracle,
tests/dominion/oracle): decisions per CPU-second in whole games of uniformly random legal
moves, moves per game, and the cost of a clone and a view.

    python benchmarks/dominion_state.py                      # 200 games per kingdom, 2 players
    python benchmarks/dominion_state.py --games 1000 --players 3 --repeat 3

Kingdoms: the sources' default (seed 001's ten cards) and one with every attack, Moat,
Gardens, Throne Room, Library, Sentry and Chapel. Both implementations play the same games
(same seeds, same moves). Times are CPU seconds of this process, the best of ``--repeat``
runs (the machine may be shared); the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.dominion._cards import DEFAULT_KINGDOM  # noqa: E402
from games.dominion._state import DominionState  # noqa: E402
from tests.dominion.oracle.state import DominionState as Oracle  # noqa: E402

KINGDOMS = {
    "default": DEFAULT_KINGDOM,
    "attacks+gardens": ("militia", "witch", "bandit", "bureaucrat", "gardens", "moat",
                        "throne-room", "library", "sentry", "chapel"),
}
IMPLEMENTATIONS = {"State (rule machine)": DominionState, "oracle (pure Python)": Oracle}


def random_games(cls: type, kingdom: tuple[str, ...], games: int, players: int
                 ) -> tuple[float, int]:
    """CPU seconds for ``games`` random games, and the moves played."""
    picks = np.random.default_rng(0).random(1 << 16).tolist()
    moves = 0
    start = time.process_time()
    for g in range(games):
        st = cls.new(players, kingdom, seed=g)
        while not st.is_terminal():
            legal = st.legal_moves()
            st.apply(legal[int(picks[moves & 0xFFFF] * len(legal))])
            moves += 1
    return time.process_time() - start, moves


def copies(cls: type, kingdom: tuple[str, ...], players: int, n: int = 2000
           ) -> tuple[float, float]:
    """Microseconds per clone and per view of a position 30 random moves in."""
    st = cls.new(players, kingdom, seed=1)
    pick = np.random.default_rng(1)
    for _ in range(30):
        legal = st.legal_moves()
        st.apply(legal[int(pick.integers(len(legal)))])
    t0 = time.process_time()
    for _ in range(n):
        st.clone()
    t1 = time.process_time()
    rng = np.random.default_rng(2)
    for _ in range(n):
        st.view(0, rng)
    t2 = time.process_time()
    return 1e6 * (t1 - t0) / n, 1e6 * (t2 - t1) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    DominionState.new(args.players, DEFAULT_KINGDOM).clone()  # compile (or load) first
    print(f"load average {os.getloadavg()[0]:.2f}; {args.players} players, "
          f"{args.games} games, best of {args.repeat}")
    for name, kingdom in KINGDOMS.items():
        rates = {}
        for label, cls in IMPLEMENTATIONS.items():
            runs = [random_games(cls, kingdom, args.games, args.players)
                    for _ in range(args.repeat)]
            seconds, moves = min(runs)
            clone_us, view_us = copies(cls, kingdom, args.players)
            rates[label] = moves / seconds
            print(f"{name:16s} {label:21s} {moves / seconds:9.0f} decisions/s, "
                  f"{args.games / seconds:7.1f} games/s ({moves / args.games:.0f} moves a "
                  f"game); clone {clone_us:.1f} us, view {view_us:.1f} us", flush=True)
        state, oracle = rates.values()
        print(f"{name:16s} the State makes {state / oracle:.1f}x the oracle's decisions per "
              f"CPU-second")


if __name__ == "__main__":
    main()
