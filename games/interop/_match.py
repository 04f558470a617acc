"""Matches played through the turn-level State, one decision at a time: the path of every
line-up with an OpenSpiel bot (:mod:`games.interop.seats`).

Game ``i`` of a run with root ``seed`` is the game's ``new_state`` from ``game_seeds(seed, 1,
i)``, seats rotated by ``i`` as everywhere; bot ``b`` of game ``i`` draws from its own
generator, seeded by (game seed, b), so a game never depends on the block or process that
plays it. The game's own bots act through its ``state_player`` (the ``state_players``
capability of :mod:`games.capabilities`; a game without it refuses in one line).
``turns`` is the state's ``rounds`` where it counts them, else its decisions
(:meth:`games.state.State.turns_played`); ``capped`` is the state's own.
``extra`` holds each bot's decisions and CPU seconds spent deciding per game (``moves``,
``seconds``), for comparisons at equal time per move.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from games import registry
from games.capabilities import use
from games.core import BotSpec, game_seeds
from games.outcomes import Outcomes, seating_for

BOT_STREAM = 0x0B5B_1D6E  # tells a state-level bot's generator from any other


def make_player(game: Any, spec: BotSpec, options: Mapping[str, Any], players: int,
                rng: np.random.Generator) -> Any:
    """An object with ``act(state) -> move`` for one bot of a line-up."""
    from games.interop._params import OPENSPIEL_BOTS
    if spec.name in OPENSPIEL_BOTS:
        from games.interop._mcts import MCTSPlayer
        return MCTSPlayer(game, options, players, registry.params_of(game, spec), rng)
    return use(game, "state_players").state_player(spec, options, rng)


def play_states(game: Any, bots: Sequence[BotSpec], options: Mapping[str, Any], seed: int,
                start: int, count: int, *, rotate: bool = True) -> Outcomes:
    """Games ``start .. start+count-1`` (the batch entry point's signature and result)."""
    opts = registry.typed(game, options)
    bots = [game.check_bot(b) for b in bots]
    players = game.seats(len(bots), opts)
    seating = seating_for(start, count, len(bots), players, rotate)
    seeds = game_seeds(seed, count, start)
    outcome = np.zeros((count, players), dtype=np.int64)
    score = np.zeros((count, players), dtype=np.float64)
    turns = np.zeros(count, dtype=np.int64)
    capped = np.zeros(count, dtype=bool)
    moves = np.zeros((count, len(bots)), dtype=np.int64)
    seconds = np.zeros((count, len(bots)), dtype=np.float64)
    for i in range(count):
        state = game.new_state(opts, int(seeds[i]), players)
        seat_bot = [int(b) for b in seating[i]]
        agents = {b: make_player(game, bots[b], opts, players,
                                 np.random.default_rng([int(seeds[i]), BOT_STREAM, b]))
                  for b in set(seat_bot)}
        while not state.is_terminal():
            b = seat_bot[state.current_player()]
            clock = time.process_time()
            move = agents[b].act(state)
            seconds[i, b] += time.process_time() - clock
            moves[i, b] += 1
            state.apply(move)
        returns = state.returns()
        outcome[i] = [_outcome(r, players) for r in returns]
        score[i] = state.scores()
        turns[i] = state.turns_played()
        capped[i] = bool(state.capped)
    return Outcomes(start, seating, outcome, score, turns, capped,
                    extra={"moves": moves, "seconds": seconds})


def _outcome(result: float, players: int) -> int:
    """1 win, 0 shared first place, -1 loss, from a return of 1 / 0.5 / 0 (solo: won or not)."""
    if result >= 1.0:
        return 1
    return 0 if (result > 0.0 and players > 1) else -1
