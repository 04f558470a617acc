"""Games of one of our players against the AlphaZero player, refereed by its engine.

Game ``index`` of a run deals our deal of that index (:meth:`SplendorState.new` with the
run's seed), converted to the referee's board; the referee's random state is seeded from
the same seed and index; our player sits in seat ``index % 2``. Every move is played on the
referee's board; our position follows it through :func:`convert.from_theirs`, and each
move that our engine can also play is played there too and the two positions compared
(:func:`step`). CPU time (``time.process_time``) is measured around each side's decision:
our player's whole turn on a copy of the position and, when the referee does not allow it,
the scoring of the turns it does allow; AlphaZero's call of its MCTS (search and network).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from games.core import game_seeds
from games.splendor._rules import (
    M_NOBLE,
    O_DECK,
    O_DONE,
    O_NOBOWN,
    O_PHASE,
    O_PTS,
    PH_NOBLE,
    WIN_POINTS,
    apply_move,
)
from games.splendor._state import SplendorState
from games.splendor.alphazero._checkout import AlphaZero, seed_referee
from games.splendor.alphazero._chooser import choose
from games.splendor.alphazero._convert import differences, from_theirs, to_theirs
from games.splendor.alphazero._effects import (
    Effect,
    is_pass,
    our_turns,
    referee_effect,
    referee_effects,
)

#: rounds after which the referee ends a 2-player game (its 62 * players moves)
REFEREE_ROUNDS = 62


@dataclass
class GameRecord:
    """One game: ``result`` for our player (1, 0.5, 0; None when unfinished: the referee's
    move limit ended it before anyone had 15 points), CPU seconds and moves per side, and
    the counts of what the two engines' rules made differ."""

    index: int
    seat: int
    result: float | None
    points: tuple[int, int]
    rounds: int
    seconds: dict[str, float] = field(default_factory=lambda: {"ours": 0.0, "az": 0.0})
    moves: dict[str, int] = field(default_factory=lambda: {"ours": 0, "az": 0})
    counts: Counter = field(default_factory=Counter)
    mismatches: list[str] = field(default_factory=list)


def referee_only(effect: Effect) -> str:
    """Why our engine has no turn with this referee move's effect."""
    if is_pass(effect):
        return "az passes"
    if min(effect[2]) < 0:
        return "az gives back tokens"
    return "az takes fewer gems than our rules allow"


SEVERAL_NOBLES = "referee gave several nobles at once"
LATE_NOBLE = "ours gave a noble earned on an earlier turn"


def step(az: AlphaZero, board: np.ndarray, player: int, action: int,
         ours: np.ndarray, turn: list[int] | None) -> tuple[np.ndarray, int, np.ndarray,
                                                            list[str], str]:
    """Play the referee's ``action``; (board after, next player, our position after, the
    fields in which our engine's ``turn`` left another position, and which noble rule
    difference explains a difference in nobles, points and the game's end, if one does:
    :data:`SEVERAL_NOBLES`, or :data:`LATE_NOBLE` when a noble still earned visits us at
    the end of a turn without a buy, where the referee looks only after a buy)."""
    after, nxt = az.game.getNextState(board, player, action)
    done = bool(np.asarray(az.game.getGameEnded(after, int(nxt))).any())
    mine = from_theirs(after, ours, az.tables, done)
    won = int((mine[O_NOBOWN:O_NOBOWN + 5] != ours[O_NOBOWN:O_NOBOWN + 5]).sum())
    diffs: list[str] = []
    note = SEVERAL_NOBLES if won > 1 else ""
    if turn is not None:
        ref = ours.copy()
        ref[O_DECK:O_DECK + 90] = mine[O_DECK:O_DECK + 90]  # the referee's draws on top
        for m in turn:
            apply_move(ref, m)
        if ref[O_PHASE] == PH_NOBLE:  # the first noble the referee gave
            k = int(np.flatnonzero(mine[O_NOBOWN:O_NOBOWN + 5] != ours[O_NOBOWN:O_NOBOWN + 5])[0])
            apply_move(ref, M_NOBLE + k)
        diffs = differences(ref, mine)
        if bool(ref[O_DONE]) != done:
            diffs.append("end")
        if int((ref[O_NOBOWN:O_NOBOWN + 5] != ours[O_NOBOWN:O_NOBOWN + 5]).sum()) > won:
            note = note or LATE_NOBLE
        if note:
            diffs = [d for d in diffs if d not in ("nobles", "points", "end")]
    return after, int(nxt), mine, diffs, note


def play_game(az: AlphaZero, sims: int, bot: Any, seed: int, index: int) -> GameRecord:
    """Game ``index`` of the run ``seed``: our ``bot`` against AlphaZero at ``sims``."""
    seat = index % 2
    state = SplendorState.new(2, seed, index, REFEREE_ROUNDS)
    board = to_theirs(state.array, az.tables)
    seed_referee(int(game_seeds(seed, 1, index)[0] % (2**31)))
    player, it = 0, 0
    rec = GameRecord(index, seat, None, (0, 0), 0)
    while not np.asarray(az.game.getGameEnded(board, player)).any():
        it += 1
        valid = np.asarray(az.game.getValidMoves(board, player))
        if player == seat:
            allowed = referee_effects(board, valid, player, az.tables)  # the harness's
            clock = time.process_time()
            choice = choose(bot, state, allowed)
            rec.seconds["ours"] += time.process_time() - clock
            rec.moves["ours"] += 1
            action, turn = choice.action, choice.turn
            if not choice.preferred:
                rec.counts["ours: best allowed move instead"] += 1
                if turn is None:
                    rec.counts["ours: referee's pass (no allowed turn)"] += 1
        else:
            clock = time.process_time()
            action = int(az.players[sims](az.game.getCanonicalForm(board, player), it))
            rec.seconds["az"] += time.process_time() - clock
            rec.moves["az"] += 1
            effect = referee_effect(board, action, player, az.tables)
            turns = {e: t for t, e in reversed(our_turns(state.array))}
            turn = turns.get(effect)
            if turn is None:
                rec.counts[referee_only(effect)] += 1
        if not valid[action]:
            raise AssertionError(f"game {index}: move {action} is not legal in the referee")
        board, player, mine, diffs, note = step(az, board, player, action, state.array, turn)
        if note:
            rec.counts[note] += 1
        if diffs:
            rec.mismatches.append(f"move {it}: {', '.join(diffs)}")
        state = SplendorState(mine)
    az.reset()
    ended = np.asarray(az.game.getGameEnded(board, player))
    pts = (int(state.array[O_PTS]), int(state.array[O_PTS + 1]))
    rec.points, rec.rounds = pts, it // 2
    if max(pts) >= WIN_POINTS:
        rec.result = 1.0 if ended[seat] == 1 else 0.0 if ended[seat] == -1 else 0.5
    return rec

