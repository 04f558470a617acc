"""Positions from games of the AlphaZero player against itself, as training samples for our
learned value (features of :mod:`games.splendor._features`, labelled with the game's result).

Our self-play games teach our value what wins among our own players; against AlphaZero
those players lose a race that they never see in their own games (it reaches 15 points in
about 27 turns while they stand at 8 or 9). Games of AlphaZero against itself show that
race. Each game deals our deal ``index`` of ``seed``, converted to the referee's board; the
referee's random state is seeded as in :mod:`games.splendor.alphazero._match`; after every
move, our position follows (:func:`games.splendor.alphazero._convert.from_theirs`) and its
features are recorded from both seats. The features read only what a seat sees, so a
sample is what our player could have known there. Games the referee stops unfinished (124
moves) give no samples.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from games.core import game_seeds
from games.splendor._features import NF, features
from games.splendor._rules import O_PTS, WIN_POINTS
from games.splendor._state import SplendorState
from games.splendor.alphazero._checkout import AlphaZero, seed_referee
from games.splendor.alphazero._convert import from_theirs, to_theirs
from games.splendor.alphazero._match import REFEREE_ROUNDS


@dataclass
class TeacherGame:
    """One game's samples: ``features`` (rows: after each move, seat 0's view then seat
    1's), ``seats`` (the seat of each row), ``result`` per seat (+1, 0, -1; None when the
    referee stopped the game unfinished) and final ``points`` per seat."""

    index: int
    features: np.ndarray
    seats: np.ndarray
    result: tuple[int, int] | None
    points: tuple[int, int]
    moves: int


def _result(ended: float) -> int:
    """The referee's end value (1 won, -1 lost, 0.01 shared) as +1, -1 or 0."""
    return 1 if ended == 1 else -1 if ended == -1 else 0


def play_teacher_game(az: AlphaZero, sims: int, seed: int, index: int) -> TeacherGame:
    """Game ``index`` of ``seed``: AlphaZero at ``sims`` simulations in both seats."""
    state = SplendorState.new(2, seed, index, REFEREE_ROUNDS)
    board = to_theirs(state.array, az.tables)
    seed_referee(int(game_seeds(seed, 1, index)[0] % (2**31)))
    player, it = 0, 0
    rows: list[np.ndarray] = []
    seats: list[int] = []
    f = np.empty(NF, dtype=np.float64)
    ours = state.array
    while not np.asarray(az.game.getGameEnded(board, player)).any():
        it += 1
        action = int(az.players[sims](az.game.getCanonicalForm(board, player), it))
        board, nxt = az.game.getNextState(board, player, action)
        player = int(nxt)
        done = bool(np.asarray(az.game.getGameEnded(board, player)).any())
        ours = from_theirs(board, ours, az.tables, done)
        for seat in (0, 1):
            features(ours, seat, f)
            rows.append(f.copy())
            seats.append(seat)
    az.reset()
    ended = np.asarray(az.game.getGameEnded(board, player))
    pts = (int(ours[O_PTS]), int(ours[O_PTS + 1]))
    result = None
    if max(pts) >= WIN_POINTS:
        result = (_result(ended[0]), _result(ended[1]))
    feats = np.array(rows, dtype=np.float64).reshape(-1, NF)
    return TeacherGame(index, feats, np.array(seats, dtype=np.int64), result, pts, it)
