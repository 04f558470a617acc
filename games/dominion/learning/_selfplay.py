"""Worker tasks of a training run: play a block of games, return training samples.

A task is plain data (weights, opponent, seeds by game index), so a block gives the same
samples in any process and with any number of jobs. Results and VP are read from the
games' :class:`games.outcomes.Outcomes` (what ``DominionGame.play`` returns); only the
samples come from the kernel call beside them.
"""

from __future__ import annotations

import numpy as np

from games.core import BotSpec
from games.dominion._features import layout_of
from games.dominion._learned import LEARNED
from games.dominion._match import GameConfig, _play_games

#: room for training samples per game (decisions of the learner); more are not kept
ROWS_PER_GAME = 160


def learner(weights: np.ndarray, eps: float = 0.0, record: bool = False,
            label: str = "learned", guide: str = "", explore: str = "random",
            margin: float = 0.01) -> BotSpec:
    """The learned bot with in-memory weights (and its guide buy list, if any); ``margin``
    is the reward per VP of difference, which its estimated endgame uses too."""
    return BotSpec(LEARNED, {"weights": weights, "eps": eps, "record": record,
                             "guide": guide, "explore": explore, "margin": margin},
                   label_text=label)


def rewards(outcome: np.ndarray, vp: np.ndarray, meta: np.ndarray, margin: float
            ) -> np.ndarray:
    """Final reward of each sample's seat: outcome (+1/0/-1) + margin * VP difference to the
    best other seat (clipped to +-30). ``outcome`` and ``vp`` are per game and seat."""
    game, seat = meta[:, 0], meta[:, 1]
    mine = vp[game, seat]
    other = vp[game, 1 - seat]  # two-player games
    diff = np.clip(mine - other, -30, 30)
    return outcome[game, seat].astype(np.float64) + margin * diff


def play_block(weights: np.ndarray, eps: float, opponent: BotSpec | None,
               opp_weights: np.ndarray | None, seed: int, start: int, count: int,
               kingdom: tuple[str, ...], margin: float, guide: str = "",
               explore: str = "random") -> tuple[np.ndarray, np.ndarray, float]:
    """Games ``start .. start+count-1``: the learner (recording, exploring) against
    ``opponent`` (None: itself, both seats record; ``opp_weights``: a frozen snapshot).
    Returns (feature indices per sample, reward per sample, mean learner score)."""
    me = learner(weights, eps, True, guide=guide, explore=explore, margin=margin)
    if opponent is None and opp_weights is None:
        other = learner(weights, eps, True, "learned#2", guide, explore, margin)
    elif opp_weights is not None:
        other = learner(opp_weights, eps, False, "snapshot", guide, explore, margin)
    else:
        other = opponent
    run = _play_games([me, other], seed, start, count, config=GameConfig(kingdom=kingdom),
                      record_rows=ROWS_PER_GAME * count)
    out = run.outcomes()
    y = rewards(out.outcome, out.score, run.meta, margin)
    feats = run.features[:, :layout_of(size=len(weights)).nactive]  # the layout's own width
    return feats, y, float(out.bot_result()[:, 0].mean())


def probe_block(weights: np.ndarray, opponent: BotSpec, seed: int, start: int, count: int,
                kingdom: tuple[str, ...], guide: str = "", margin: float = 0.01
                ) -> np.ndarray:
    """Greedy learner's per-game scores (1 / 0.5 / 0) against a probe opponent."""
    run = _play_games([learner(weights, guide=guide, margin=margin), opponent], seed, start,
                      count, config=GameConfig(kingdom=kingdom))
    return run.outcomes().bot_result()[:, 0]
