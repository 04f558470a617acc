"""Benchmark of Dominion's turn-level API (games.dominion.state) on one core: whole games of
uniformly random legal moves per second, moves per game, and the cost of a clone and a view.

    python benchmarks/dominion_state.py                      # 200 games per kingdom, 2 players
    python benchmarks/dominion_state.py --games 1000 --players 3 --repeat 3

Kingdoms: the sources' default (seed 001's ten cards) and one with every attack, Moat,
Gardens, Throne Room, Library, Sentry and Chapel. Figures are the best of ``--repeat`` runs
(the machine may be shared); the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from games.dominion.cards import DEFAULT_KINGDOM
from games.dominion.state import DominionState

KINGDOMS = {
    "default": DEFAULT_KINGDOM,
    "attacks+gardens": ("militia", "witch", "bandit", "bureaucrat", "gardens", "moat",
                        "throne-room", "library", "sentry", "chapel"),
}


def random_games(kingdom: tuple[str, ...], games: int, players: int) -> tuple[float, float]:
    """Seconds for ``games`` random games, and the mean number of moves per game."""
    pick = np.random.default_rng(0)
    moves = 0
    start = time.perf_counter()
    for g in range(games):
        st = DominionState.new(players, kingdom, rng=np.random.default_rng(g))
        while not st.is_terminal():
            legal = st.legal_moves()
            st.apply(legal[int(pick.integers(len(legal)))])
            moves += 1
    return time.perf_counter() - start, moves / games


def copies(kingdom: tuple[str, ...], players: int, n: int = 2000) -> tuple[float, float]:
    """Microseconds per clone and per view of a position 30 random moves in."""
    st = DominionState.new(players, kingdom, rng=np.random.default_rng(1))
    pick = np.random.default_rng(1)
    for _ in range(30):
        legal = st.legal_moves()
        st.apply(legal[int(pick.integers(len(legal)))])
    t0 = time.perf_counter()
    for _ in range(n):
        st.clone()
    t1 = time.perf_counter()
    rng = np.random.default_rng(2)
    for _ in range(n):
        st.view(0, rng)
    t2 = time.perf_counter()
    return 1e6 * (t1 - t0) / n, 1e6 * (t2 - t1) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; {args.players} players, "
          f"{args.games} games, best of {args.repeat}")
    for name, kingdom in KINGDOMS.items():
        runs = [random_games(kingdom, args.games, args.players) for _ in range(args.repeat)]
        seconds, per_game = min(runs)
        clone_us, view_us = copies(kingdom, args.players)
        print(f"{name:16s} {args.games / seconds:8.1f} random games/s "
              f"({1000 * seconds / args.games:.2f} ms a game, {per_game:.0f} moves a game, "
              f"{1e6 * seconds / args.games / per_game:.1f} us a move); "
              f"clone {clone_us:.1f} us, view {view_us:.1f} us")


if __name__ == "__main__":
    main()
