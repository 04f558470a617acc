"""Objective of evolved Dominion buy lists: score against a pool of opponents.

``candidate = {"genome": "<buy list text>"}``; ``options["opponents"]``: bot names
(``big-money``, ``big-money-ultimate``, ``smithy-big-money``, ...) or buy lists in text form
(the hall of fame the evolution adds). Game ``g`` of an evaluation is played against opponent
``g % n`` as that opponent's game ``g // n``, on a seed set of its own (derived from the root
seed and the opponent's position), with seats alternating from one game to the next, so
every opponent gets an equal share of games and of seats, and every candidate meets the
same deals (common random numbers). Per-game score: 1 win, 1/2 shared first place, 0 loss.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any

import numpy as np

from games.core import InputError

OBJECTIVES = ("win_rate",)


@lru_cache(maxsize=1024)
def opponent_seed(seed: int, index: int) -> int:
    """Root seed of the games against the pool's ``index``-th opponent."""
    digest = hashlib.sha256(f"{int(seed)}:opponent:{int(index)}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


@lru_cache(maxsize=256)
def _spec(text: str) -> Any:
    from games.dominion.bots import spec_from_text

    return spec_from_text(text)


def _config(options: dict[str, Any]) -> Any:
    from games.dominion.match import GameConfig

    return GameConfig(kingdom=options.get("kingdom"), end_rule=options.get("end_rule",
                      "standard"), tiebreak=bool(options.get("tiebreak", True)),
                      cap=int(options.get("cap", 100)))


def check_options(options: dict[str, Any]) -> None:
    if not options.get("opponents"):
        raise InputError("evaluation.opponents: name at least one opponent, e.g. "
                         "[\"big-money\", \"big-money-ultimate\", \"smithy-big-money\"]")
    for name in options["opponents"]:
        _spec(name)
    _config(options).checked()


def run_block(candidate: dict[str, Any], options: dict[str, Any], seed: int, start: int,
              count: int) -> np.ndarray:
    """Per-game scores of the candidate for games ``start .. start+count-1``."""
    from games.dominion.bots import BotSpec
    from games.dominion.match import play_games

    me = BotSpec("candidate", buylist=candidate["genome"])
    opponents = list(options["opponents"])
    n = len(opponents)
    cfg = _config(options)
    out = np.empty(count, dtype=np.float64)
    games = np.arange(start, start + count)
    for j, name in enumerate(opponents):
        mine = games[games % n == j]
        if mine.size == 0:
            continue
        local = mine // n  # contiguous indices into opponent j's own seed set
        res = play_games([me, _spec(name)], opponent_seed(seed, j), int(local[0]),
                         int(local.size), config=cfg)
        out[mine - start] = res.bot_score()[:, 0]
    return out
