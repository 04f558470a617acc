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

With ``choices``, each move also records the choice AlphaZero made among the turns both
engines allow (:func:`choice_features`): the features, from the mover's seat, of the
position after each such turn as the mover's search would see it (its honest view: hidden
decks, no refill), and which of them AlphaZero played. Those rank positions as AlphaZero
does (comparison training; :mod:`benchmarks.splendor_teacher`, ``--fit-choices``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from games.core import game_seeds
from games.splendor._features import NF, features
from games.splendor._kernel import CFG_W
from games.splendor._players import make_bot
from games.splendor._rules import O_CUR, O_PTS, SIZE, WIN_POINTS, apply_move
from games.splendor._search import resolve, view
from games.splendor._state import SplendorState
from games.splendor.alphazero._checkout import AlphaZero, seed_referee
from games.splendor.alphazero._convert import from_theirs, to_theirs
from games.splendor.alphazero._effects import our_turns, referee_effect, referee_effects
from games.splendor.alphazero._match import REFEREE_ROUNDS

#: a whole turn: main move, then up to three tokens returned
TURN_MOVES = 4


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
    #: with ``choices``: candidate features (rows), the move each belongs to, chosen or not
    candidates: np.ndarray = field(default_factory=lambda: np.zeros((0, NF)))
    decision: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    chosen: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    #: with ``choices``: each candidate's turn (moves, padded with -1) and, per recorded
    #: move, the mover's view it was played on (so new features can be tried offline)
    turns: np.ndarray = field(default_factory=lambda: np.zeros((0, TURN_MOVES), np.int16))
    views: np.ndarray = field(default_factory=lambda: np.zeros((0, SIZE), np.int16))


def choice_features(s: np.ndarray, board: np.ndarray, action: int, az: AlphaZero,
                    w: np.ndarray) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
    """(features after each turn both engines allow, index of AlphaZero's ``action``
    among them (-1 when our engine has no turn with its effect), those turns (rows of
    :data:`TURN_MOVES` moves, -1 padded), the mover's view they were played on)."""
    p = int(s[O_CUR])
    valid = np.asarray(az.game.getValidMoves(board, p))
    allowed = referee_effects(board, valid, p, az.tables)
    played = referee_effect(board, action, p, az.tables)
    seen = view_of(s, p)
    rows, pick, turns = [], -1, []
    child = np.empty(SIZE, dtype=np.int64)
    f = np.empty(NF, dtype=np.float64)
    taken: set = set()
    for turn, effect in our_turns(s):
        if effect not in allowed or effect in taken:
            continue
        taken.add(effect)
        child[:] = seen
        for m in turn:
            apply_move(child, m)
        resolve(child, p, w)
        features(child, p, f)
        if effect == played:
            pick = len(rows)
        rows.append(f.copy())
        turns.append(turn + [-1] * (TURN_MOVES - len(turn)))
    return (np.array(rows, dtype=np.float64).reshape(-1, NF), pick,
            np.array(turns, dtype=np.int16).reshape(-1, TURN_MOVES), seen.astype(np.int16))


def view_of(s: np.ndarray, p: int) -> np.ndarray:
    """Seat ``p``'s honest view of ``s`` (hidden decks and blind reserves, no refill)."""
    out = np.empty(SIZE, dtype=np.int64)
    view(s, p, 0, np.zeros(1, dtype=np.uint64), out)
    return out


def _result(ended: float) -> int:
    """The referee's end value (1 won, -1 lost, 0.01 shared) as +1, -1 or 0."""
    return 1 if ended == 1 else -1 if ended == -1 else 0


def play_teacher_game(az: AlphaZero, sims: int, seed: int, index: int,
                      choices: bool = False) -> TeacherGame:
    """Game ``index`` of ``seed``: AlphaZero at ``sims`` simulations in both seats;
    ``choices``: record each choice too (:func:`choice_features`)."""
    state = SplendorState.new(2, seed, index, REFEREE_ROUNDS)
    board = to_theirs(state.array, az.tables)
    seed_referee(int(game_seeds(seed, 1, index)[0] % (2**31)))
    player, it = 0, 0
    rows: list[np.ndarray] = []
    seats: list[int] = []
    f = np.empty(NF, dtype=np.float64)
    ours = state.array
    w = np.ascontiguousarray(make_bot("expert").row[CFG_W:])
    cands: list[np.ndarray] = []
    decision: list[np.ndarray] = []
    chosen: list[np.ndarray] = []
    turns: list[np.ndarray] = []
    views: list[np.ndarray] = []
    while not np.asarray(az.game.getGameEnded(board, player)).any():
        it += 1
        action = int(az.players[sims](az.game.getCanonicalForm(board, player), it))
        if choices:
            rows_, pick, turns_, seen = choice_features(ours, board, action, az, w)
            if pick >= 0 and len(rows_) > 1:
                cands.append(rows_)
                turns.append(turns_)
                views.append(seen)
                decision.append(np.full(len(rows_), it - 1, dtype=np.int64))
                chosen.append(np.arange(len(rows_)) == pick)
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
    game = TeacherGame(index, feats, np.array(seats, dtype=np.int64), result, pts, it)
    if cands:
        game.candidates = np.concatenate(cands)
        game.decision = np.concatenate(decision)
        game.chosen = np.concatenate(chosen)
        game.turns = np.concatenate(turns)
        game.views = np.array(views, dtype=np.int16)
    return game
