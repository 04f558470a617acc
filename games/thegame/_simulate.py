"""Plain per-game API and run summaries in this process (worker pools live in tuning).

``play_games`` is what the tuning layer and the CLI call: game i of a run with root seed S
is dealt from games.core.game_seeds(S, ., i), so results are identical whatever the number
of jobs or how the games are split into blocks.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from games.core import (
    Estimate,
    InputError,
    game_seeds,
    make_params,
    seed_blocks,
    wilson_interval,
)
from games.thegame import _signatures as signatures
from games.thegame._engine import play_batch
from games.thegame._gap_greedy import GAP_GREEDY, GapGreedyParams, play_gap_greedy
from games.thegame._players import build_params, encode
from games.thegame._rules import N_PILES, hand_size_for
from games.thegame._search import table_bits
from games.thegame._state import BACKWARDS_STEP, check_table


@dataclass
class GameBatch:
    """Per-game outcomes of games start..start+count-1 of a run."""

    cards_left: np.ndarray
    backwards: np.ndarray
    turns: np.ndarray

    @staticmethod
    def concat(parts: list[GameBatch]) -> GameBatch:
        """Blocks of one run, in order, as one batch."""
        if not parts:
            empty = np.zeros(0, dtype=np.int64)
            return GameBatch(empty, empty, empty)
        return GameBatch(*(np.concatenate([getattr(b, f) for b in parts])
                           for f in ("cards_left", "backwards", "turns")))


def _check(depth: int, players: int) -> None:
    if int(depth) < 0:
        raise InputError(f"depth must be >= 0, got {depth}")
    if int(depth) > 4:
        raise InputError(f"depth must be <= 4 (the search grows ~8x per level), got {depth}")
    if not 1 <= int(players) <= 5:
        raise InputError(f"players must be between 1 and 5, got {players}")


def play_block(player: str, params: Mapping[str, Any] | None, depth: int, seed: int,
               start: int, count: int, players: int = 1, expert: bool = False,
               short_turn: bool = True, hand_size: int = 0, piles: int = N_PILES,
               step: int = BACKWARDS_STEP) -> GameBatch:
    """Play games start..start+count-1 of the run with root ``seed`` in this process
    (``hand_size`` 0: the rules' hand for the players; ``piles`` and the backwards trick's
    ``step`` other than printed: gap-greedy alone plays them)."""
    _check(depth, players)
    check_table(int(piles), int(step))
    seeds = game_seeds(seed, count, start)
    hand = int(hand_size) or hand_size_for(int(players))
    if player == GAP_GREEDY:
        if int(depth):
            raise InputError(f"{GAP_GREEDY} plays without search: depth must be 0, got {depth}")
        return GameBatch(*play_gap_greedy(params, seeds, int(players), hand, bool(expert),
                                          bool(short_turn), int(piles), int(step)))
    if (int(piles), int(step)) != (N_PILES, BACKWARDS_STEP):
        raise InputError(f"{player} is built for the printed table ({N_PILES} piles, a "
                         f"backwards trick of {BACKWARDS_STEP}); under other piles or trick "
                         f"only {GAP_GREEDY} plays")
    vec = encode(player, build_params(player, params))
    left = np.zeros(count, dtype=np.int64)
    back = np.zeros(count, dtype=np.int64)
    turns = np.zeros(count, dtype=np.int64)
    tmin = 3 if expert else 2
    signatures.fix()
    play_batch(seeds, vec, int(depth), int(players), hand, bool(expert),
               bool(short_turn), table_bits(int(depth), tmin), left, back, turns,
               np.zeros((0, 98, 3), dtype=np.int64))
    return GameBatch(left, back, turns)


def trace_game(player: str, params: Mapping[str, Any] | None, depth: int, seed: int,
               index: int, players: int = 1, expert: bool = False,
               short_turn: bool = True) -> tuple[int, list[tuple[int, int, int]]]:
    """Cards left and every play (card, pile, turn) of game ``index`` of a run."""
    _check(depth, players)
    vec = encode(player, build_params(player, params))
    seeds = game_seeds(seed, 1, index)
    left, back, turns = (np.zeros(1, dtype=np.int64) for _ in range(3))
    trace = np.full((1, 98, 3), -1, dtype=np.int64)
    signatures.fix()
    play_batch(seeds, vec, int(depth), int(players), hand_size_for(int(players)), bool(expert),
               bool(short_turn), table_bits(int(depth), 3 if expert else 2), left, back, turns,
               trace)
    plays = [tuple(int(x) for x in row) for row in trace[0] if row[0] >= 0]
    return int(left[0]), plays


def simulate(player: str, params: Mapping[str, Any] | None = None, depth: int = 0,
             seed: int = 0, start: int = 0, count: int = 1000, players: int = 1,
             expert: bool = False, short_turn: bool = True,
             block: int = 2000) -> GameBatch:
    """Play ``count`` games in this process, block by block (a run over worker processes
    goes through ``tuning.evaluation``; the games are the same)."""
    _check(depth, players)
    if count < 0:
        raise InputError(f"number of games must be >= 0, got {count}")
    if player == GAP_GREEDY:  # validate before spawning workers
        make_params(GapGreedyParams, params)
    else:
        build_params(player, params)
    blocks = [(start + s, c) for s, c in seed_blocks(count, max(1, block))] if count else []
    args = (player, dict(params or {}), depth, seed)
    kw = {"players": players, "expert": expert, "short_turn": short_turn}
    parts = [play_block(*args, s, c, **kw) for s, c in blocks]
    return GameBatch.concat(parts)


def play_games(player: str, params: Mapping[str, Any] | None, depth: int, seed: int,
               start: int, count: int, players: int = 1, expert: bool = False) -> np.ndarray:
    """Cards left per game for games start..start+count-1 (0 = a win)."""
    return simulate(player, params, depth, seed, start, count, players, expert).cards_left


def summarize(batch: GameBatch, seconds: float) -> dict[str, Any]:
    """Wins, win rate with its 95% Wilson interval, mean cards left, speed, trick usage."""
    left = batch.cards_left
    n = int(left.size)
    wins = int((left == 0).sum())
    mean = Estimate.from_samples(left)
    won = batch.backwards[left == 0]
    return {
        "games": n,
        "wins": wins,
        "win_rate": wins / n if n else float("nan"),
        "win_rate_ci": list(wilson_interval(wins, n)),
        "mean_cards_left": mean.mean,
        "mean_cards_left_ci": list(mean.ci95),
        "under_10_rate": float((left < 10).mean()) if n else float("nan"),
        "backwards_tricks_of_winners": float(won.mean()) if won.size else float("nan"),
        "mean_turns": float(batch.turns.mean()) if n else float("nan"),
        "seconds": seconds,
        "games_per_second": n / seconds if seconds > 0 else float("nan"),
    }


def run(player: str, params: Mapping[str, Any] | None = None, depth: int = 0, games: int = 1000,
        seed: int = 0, players: int = 1, expert: bool = False,
        short_turn: bool = True, block: int = 2000) -> dict[str, Any]:
    """Simulate in this process and summarise (wins, cards left, speed)."""
    t0 = time.perf_counter()
    batch = simulate(player, params, depth, seed, 0, games, players, expert, short_turn,
                     block)
    out = summarize(batch, time.perf_counter() - t0)
    out.update({"player": player, "params": dict(params or {}), "depth": depth, "seed": seed,
                "players": players, "expert": expert})
    return out
