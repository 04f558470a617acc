"""The Game, solo: how many wins a player leaves in the end of the game.

    python benchmarks/thegame_endgame.py --games 1000 --seed 8103 --pile 4
    python benchmarks/thegame_endgame.py --games 500 --pile 0,4,8 --config d2-fitted --depth 2

For each deal the player's game is replayed to the first turn at which the draw pile holds at
most --pile cards. From there, best play (games.thegame._endgame: every card left is in the
hand or the pile, only the pile's order is unknown) wins with a chance the solver computes.
The script prints, per pile size, the player's wins over all deals, the wins best play
expects from the same positions, and the per-deal difference (chance minus won) with its
95% normal interval: the most exact play from that point (``endgame_pile``) can add.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

from games.core import game_seeds
from games.thegame._positions import exact_turn
from games.thegame._rules import N_CARDS, shuffled_deck
from games.thegame._simulate import trace_game

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from thegame_d2 import CONFIGS, parse_config  # noqa: E402

HAND = 8


def position_at(deck: np.ndarray, plays: list[tuple[int, int, int]], pile: int
                ) -> tuple[list[int], list[int], list[int]] | None:
    """Tops, hand and laid cards at the first turn start with at most ``pile`` cards to draw
    (None when the game ended before)."""
    hand = [int(c) for c in deck[:HAND]]
    pos = HAND
    tops = [1, 1, 100, 100]
    laid: list[int] = []
    by_turn: dict[int, list[tuple[int, int]]] = {}
    for card, p, turn in plays:
        by_turn.setdefault(turn, []).append((card, p))
    turn = 0
    while N_CARDS - pos > pile:
        if turn not in by_turn:
            return None
        for card, p in by_turn[turn]:
            hand.remove(card)
            tops[p] = card
            laid.append(card)
        while len(hand) < HAND and pos < N_CARDS:
            hand.append(int(deck[pos]))
            pos += 1
        turn += 1
    return tops, hand, [c for c in laid if c not in tops]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=8103)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--pile", default="0,4,8", help="draw pile sizes, comma-separated (<= 8)")
    ap.add_argument("--config", default="d2-fitted",
                    help="a configuration of benchmarks/thegame_d2.py, or NAME=PLAYER:k=v")
    args = ap.parse_args(argv)
    if "=" in args.config:
        _, (player, params) = parse_config(args.config, CONFIGS)
    else:
        player, params = CONFIGS[args.config]
    piles = [int(p) for p in args.pile.split(",")]
    print(f"{args.games} deals of root seed {args.seed}, {player} at d = {args.depth}")
    games = []
    t0 = time.perf_counter()
    for i in range(args.games):
        left, plays = trace_game(player, params, args.depth, args.seed, i)
        games.append((left, plays, shuffled_deck(game_seeds(args.seed, 1, i)[0])))
    print(f"played in {time.perf_counter() - t0:.1f} s; wins {sum(g[0] == 0 for g in games)}")
    for pile in piles:
        t0 = time.perf_counter()
        diffs = []
        best = won = 0.0
        for left, plays, deck in games:
            at = position_at(deck, plays, pile)
            chance = exact_turn(*at)[1] if at is not None else 0.0
            best += chance
            won += left == 0
            diffs.append(chance - (left == 0))
        d = np.array(diffs)
        half = 1.96 * d.std(ddof=1) / math.sqrt(d.size) if d.size > 1 else float("nan")
        print(f"pile <= {pile}: player wins {int(won)}, best play from there expects "
              f"{best:.1f}; per deal {100 * d.mean():+.2f} points [{100 * (d.mean() - half):+.2f}, "
              f"{100 * (d.mean() + half):+.2f}]  ({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
