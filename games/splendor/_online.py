"""Matches with online genetic players: the batch kernel's game loop, decision by decision
in Python, because a genetic player runs a DEAP evolution on every move.

Game ``g`` is dealt from its own seed exactly as in :func:`games.splendor._kernel.run_games`
and the kernel bots draw from the same stream there, so a line-up plays the games the
kernel would play if it could. Each genetic player's generator is derived from (game seed,
bot index) alone, so the games never depend on the block or process that plays them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from games.splendor._deal import setup
from games.splendor._genetic import GeneticBot
from games.splendor._genetic_params import GENETIC_PARAMS
from games.splendor._kernel import BOT_STREAM, decide
from games.splendor._rules import (
    O_CAPPED,
    O_CUR,
    O_DONE,
    O_PTS,
    O_ROUND,
    SIZE,
    WIN_POINTS,
    apply_move,
    outcome,
)

GENETIC_STREAM = 0x6A5E_D0E5  # tells a genetic player's generator from any other


def is_genetic(name: str) -> bool:
    return name in GENETIC_PARAMS


def genetic_bots(game_seed: int, names: Sequence[str], params: Sequence[Any],
                 rows: np.ndarray, sampled: bool,
                 recorders: Mapping[int, list] | None = None) -> dict[int, GeneticBot]:
    """The genetic players of one game by bot index, each with its own generator."""
    out = {}
    for b, name in enumerate(names):
        if is_genetic(name):
            rng = np.random.default_rng([int(game_seed), GENETIC_STREAM, b])
            out[b] = GeneticBot(name, params[b], rows[b], sampled, rng,
                                None if recorders is None else recorders.get(b))
    return out


def play_online(seeds: np.ndarray, seating: np.ndarray, names: Sequence[str],
                params: Sequence[Any], rows: np.ndarray, cap: int, sampled: bool,
                recorders: Mapping[int, list] | None = None, win: int = WIN_POINTS,
                nobles: int = 0) -> dict[str, np.ndarray]:
    """Play one game per seed (``run_games``'s inputs and outputs, plus the bots' names
    and params); ``recorders[b]`` collects genetic bot ``b``'s move statistics."""
    count, players = seating.shape
    out = {"outcome": np.zeros((count, players), dtype=np.int64),
           "score": np.zeros((count, players), dtype=np.int64),
           "turns": np.zeros(count, dtype=np.int64),
           "capped": np.zeros(count, dtype=np.int64)}
    s = np.empty(SIZE, dtype=np.int64)
    res = np.empty(players, dtype=np.int64)
    for g in range(count):
        seed = np.uint64(seeds[g])
        setup(s, players, int(cap), np.array([seed], dtype=np.uint64), int(win), int(nobles))
        stream = np.array([seed ^ BOT_STREAM], dtype=np.uint64)
        bots = genetic_bots(int(seed), names, params, rows, sampled, recorders)
        while not s[O_DONE]:
            b = int(seating[g, s[O_CUR]])
            m = bots[b].decide(s) if b in bots else int(decide(s, rows[b], stream))
            apply_move(s, m)
        outcome(s, res)
        out["outcome"][g] = res
        out["score"][g] = s[O_PTS:O_PTS + players]
        out["turns"][g] = s[O_ROUND]
        out["capped"][g] = s[O_CAPPED]
    return out
