"""Worker tasks of a training run: play a block of games, return training samples.

A task is plain data (weights, opponent, seeds by game index), so a block gives the same
samples in any process and with any number of jobs. Two players by default, seats rotated by
game index as in every match; with more, the learner's seat rotates and the opponent fills
the others (self-play: the learner in every seat). The rules are the game's defaults.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from games.core import BotSpec, game_seeds
from games.outcomes import seating_for
from games.splendor._features import NF
from games.splendor._kernel import run_games
from games.splendor._players import learned_row
from games.splendor._recording import play_recorded
from games.splendor._rules import SIZE

#: room for recorded positions per game (both seats of a self-play game); more are dropped
ROWS_PER_GAME = 200


def _game() -> Any:
    """The registered description (through the registry: the description imports this
    package's trainer)."""
    from games import registry

    return registry.get("splendor")


def _rules() -> Any:
    return _game().check_options({})


def _row_of(spec: BotSpec, options: Any) -> np.ndarray:
    return _game().rows([spec], options)[0]


def rewards(result: np.ndarray, points: np.ndarray, meta: np.ndarray, margin: float
            ) -> np.ndarray:
    """Each sample's reward: its seat's final result (+1/0/-1) plus ``margin`` per point
    ahead of the best other seat (clipped to +-15 points)."""
    game, seat = meta[:, 0], meta[:, 1]
    mine = points[game, seat]
    others = points[game].copy()
    others[np.arange(len(seat)), seat] = np.iinfo(np.int64).min
    other = others.max(axis=1)
    return result[game, seat].astype(np.float64) + margin * np.clip(mine - other, -15, 15)


def play_block(weights: np.ndarray, eps: float, opponent: BotSpec | None,
               opp_weights: np.ndarray | None, seed: int, start: int, count: int,
               depth: int, margin: float, players: int = 2
               ) -> tuple[np.ndarray, np.ndarray, float]:
    """Games ``start .. start+count-1`` of the run with root ``seed``: the learner (exploring
    with rate ``eps``, searching ``depth`` turns) against ``opponent`` (None: itself, both
    seats learning; ``opp_weights``: a frozen snapshot that does not learn). Returns
    (features per recorded position, reward per position, the learner's mean score)."""
    rules = _rules()
    me = learned_row(weights, depth)
    if opponent is None and opp_weights is None:
        other, learns = me, True
    elif opp_weights is not None:
        other, learns = learned_row(opp_weights, depth), False
    else:
        other, learns = _row_of(opponent, rules), False
    cfg = np.ascontiguousarray(np.stack([me, other]))
    if players == 2:
        seating = seating_for(start, count, 2)
    else:  # the learner's seat rotates; bot 1 (itself in self-play) fills the others
        g = np.arange(start, start + count, dtype=np.int64)
        seating = np.where(np.arange(players)[None, :] == (g % players)[:, None], 0, 1)
    rows = ROWS_PER_GAME * players // 2 * count
    feats = np.zeros((rows, NF))
    meta = np.zeros((rows, 2), dtype=np.int64)
    result = np.zeros((count, players), dtype=np.int64)
    points = np.zeros((count, players), dtype=np.int64)
    rounds = np.zeros(count, dtype=np.int64)
    n = play_recorded(np.ascontiguousarray(game_seeds(seed, count, start), dtype=np.uint64),
                      seating, cfg, np.array([True, learns]), float(eps), int(rules.cap),
                      int(rules.points_to_win), int(rules.nobles), feats, meta, result,
                      points, rounds, np.zeros((0, SIZE), dtype=np.int64))
    feats, meta = feats[:n], meta[:n]
    mine = np.argmin(seating, axis=1)  # the seat of bot 0, the learner
    r = result[np.arange(count), mine]
    score = float(np.mean((r == 1) + 0.5 * (r == 0)))
    return feats, rewards(result, points, meta, margin), score


def probe_block(weights: np.ndarray, opponent: BotSpec, seed: int, start: int, count: int,
                depth: int) -> np.ndarray:
    """The learner's per-game scores (1 / 0.5 / 0, no exploration) against ``opponent``."""
    rules = _rules()
    cfg = np.ascontiguousarray(np.stack([learned_row(weights, depth),
                                         _row_of(opponent, rules)]))
    seating = seating_for(start, count, 2)
    out = run_games(game_seeds(seed, count, start), seating, cfg, int(rules.cap),
                    win=int(rules.points_to_win), nobles=int(rules.nobles))
    mine = np.argmin(seating, axis=1)
    r = out["outcome"][np.arange(count), mine]
    return ((r == 1) + 0.5 * (r == 0)).astype(np.float64)
