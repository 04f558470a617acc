"""Score rates of two engines side by side: Wilson intervals and the difference's interval.

A bot's score rate is (wins + ties / 2) / games, with the 95% Wilson score interval of that
proportion. Two engines' rates differ by ``d = p1 - p2``, whose 95% interval is Newcombe's
hybrid score interval built from the two Wilson intervals (method 10 of Newcombe, 1998);
the engines agree on a match-up when that interval contains 0. No pyminion import here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from games.core import Record, wilson_interval
from games.outcomes import Outcomes


@dataclass
class Rate(Record):
    """One bot's record in one engine (wins, ties, losses, score) with the 95% Wilson
    interval of its score rate, the interval the cross-check compares engines by."""

    @property
    def ci(self) -> tuple[float, float]:
        return wilson_interval(self.wins + 0.5 * self.ties, self.games)

    def to_dict(self) -> dict[str, Any]:
        return {"wins": self.wins, "ties": self.ties, "losses": self.losses,
                "games": self.games, "score": self.score, "ci95": list(self.ci)}


def bot_rate(out: Outcomes, bot: int) -> Rate:
    """Bot ``bot``'s record over the games of ``out``, whichever seat it sat in."""
    o = out.bot_outcome()[:, bot]
    return Rate(int((o == 1).sum()), int((o == 0).sum()), int((o == -1).sum()))


def difference(a: Rate, b: Rate) -> tuple[float, float, float]:
    """``a.score - b.score`` and its 95% interval (Newcombe's hybrid score interval)."""
    (la, ua), (lb, ub) = a.ci, b.ci
    d = a.score - b.score
    return (d, d - math.hypot(a.score - la, ub - b.score),
            d + math.hypot(ua - a.score, b.score - lb))


def agree(a: Rate, b: Rate) -> bool:
    """The difference's 95% interval contains 0."""
    _, lo, hi = difference(a, b)
    return lo <= 0.0 <= hi


def summary(out: Outcomes, bot: int = 0) -> dict[str, Any]:
    """Bot ``bot``'s rate over ``out`` with the games' mean rounds, tie share and capped
    games."""
    return {**bot_rate(out, bot).to_dict(), "mean_rounds": float(np.mean(out.turns)),
            "tie_share": float((out.outcome == 0).all(axis=1).mean()),
            "capped": int(out.capped.sum())}


def side_by_side(ours: Outcomes, theirs: Outcomes, bot: int = 0) -> dict[str, Any]:
    """Bot ``bot``'s summary in both engines, their difference and whether they agree."""
    d, lo, hi = difference(bot_rate(ours, bot), bot_rate(theirs, bot))
    return {"ours": summary(ours, bot), "pyminion": summary(theirs, bot),
            "difference": d, "difference_ci95": [lo, hi], "agree": lo <= 0.0 <= hi}
