"""The one result type of every game's batch entry point, and the seat rotation rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Outcomes:
    """Per-game results of games ``start .. start+count-1`` (row i = game start+i).

    ``seating[i, k]``: index into the bots list of the bot in seat k; ``outcome[i, k]``: 1 win,
    0 shared first place, -1 loss for seat k (a solo game: 1 won, -1 lost); ``score[i, k]``:
    the game's own score for seat k (points, cards left, ...); ``turns[i]``: rounds played;
    ``capped[i]``: the game hit its length cap. ``extra`` holds further per-game arrays.
    """

    start: int
    seating: np.ndarray
    outcome: np.ndarray
    score: np.ndarray
    turns: np.ndarray
    capped: np.ndarray
    extra: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return int(self.turns.shape[0])

    def bot_outcome(self) -> np.ndarray:
        """Outcome per bot, ``[count, n_bots]`` (1/0/-1), whichever seat it sat in."""
        out = np.empty_like(self.outcome)
        out[np.arange(self.count)[:, None], self.seating] = self.outcome
        return out

    def bot_result(self) -> np.ndarray:
        """Per-game result per bot: 1 win, 0.5 shared first, 0 loss."""
        return (self.bot_outcome().astype(np.float64) + 1.0) / 2.0

    def bot_score(self) -> np.ndarray:
        """The game's own score per bot, ``[count, n_bots]``."""
        out = np.empty_like(self.score)
        out[np.arange(self.count)[:, None], self.seating] = self.score
        return out

    @staticmethod
    def concat(parts: Sequence[Outcomes]) -> Outcomes:
        parts = sorted(parts, key=lambda r: r.start)
        keys = parts[0].extra.keys()
        return Outcomes(
            parts[0].start,
            *(np.concatenate([getattr(r, a) for r in parts])
              for a in ("seating", "outcome", "score", "turns", "capped")),
            extra={k: np.concatenate([r.extra[k] for r in parts]) for k in keys})


def seating_for(start: int, count: int, n_bots: int, seats: int | None = None,
                rotate: bool = True) -> np.ndarray:
    """Bot index per seat for games ``start..start+count-1``: seat k holds bot (k + i) % n."""
    seats = n_bots if seats is None else seats
    g = np.arange(start, start + count, dtype=np.int64)[:, None]
    k = np.arange(seats, dtype=np.int64)[None, :]
    return ((k + g) % n_bots if rotate else np.broadcast_to(k % n_bots, (count, seats))).copy()
