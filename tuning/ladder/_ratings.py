"""Ratings of a ladder's bots: a Bradley-Terry model (Luce's choice model at tables of more
than two), fitted by minorization-maximization, on the Elo scale, with bootstrap intervals.

At a table of bots S, bot i wins with probability ``s_i / sum(s_j for j in S)``; with two
bots this is Bradley-Terry, and ``400 * log10(s_i / s_j)`` is the Elo difference that gives
the same odds. A tie counts half a win for each bot in it. Each table gets one virtual game
shared evenly among its bots (a weak prior): a bot that never won still has a finite rating.
The fit is Hunter's (2004) minorization-maximization update, which converges for any data
with the prior. Intervals come from a parametric bootstrap: each table's games redrawn from
its observed result shares, the model refitted, the 2.5% and 97.5% quantiles taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["ELO_MEAN", "Table", "bootstrap", "fit"]

#: the mean rating of a ladder (ratings are relative: only differences mean anything)
ELO_MEAN = 1500.0
#: games of the prior added to every table, shared evenly among its bots
PRIOR_GAMES = 1.0


@dataclass(frozen=True)
class Table:
    """One line-up of a ladder: its bots (indices), games played and each bot's wins (a tie
    counted half)."""

    bots: tuple[int, ...]
    games: int
    wins: tuple[float, ...]


def fit(tables: Sequence[Table], n_bots: int, *, tolerance: float = 1e-10,
        max_rounds: int = 10_000) -> np.ndarray:
    """Elo-scale ratings (mean :data:`ELO_MEAN`) of ``n_bots`` bots from their tables."""
    seated = np.zeros((len(tables), n_bots))  # which bots sit at each table
    wins = np.zeros(n_bots)
    for k, t in enumerate(tables):
        seated[k, list(t.bots)] = 1.0
        for b, w in zip(t.bots, t.wins, strict=True):
            wins[b] += w + PRIOR_GAMES / len(t.bots)
    games = np.array([t.games + PRIOR_GAMES for t in tables], dtype=np.float64)
    strength = np.ones(n_bots)
    for _ in range(max_rounds):
        denominator = seated.T @ (games / (seated @ strength))
        new = np.where(denominator > 0, wins / np.maximum(denominator, 1e-300), strength)
        new /= np.exp(np.mean(np.log(new)))
        done = np.max(np.abs(np.log(new) - np.log(strength))) < tolerance
        strength = new
        if done:
            break
    return ELO_MEAN + 400.0 * np.log10(strength)


def bootstrap(tables: Sequence[Table], n_bots: int, rng: np.random.Generator,
              rounds: int = 500) -> np.ndarray:
    """The 95% interval of each bot's rating: shape (n_bots, 2)."""
    draws = np.empty((rounds, n_bots))
    shares = []
    for t in tables:
        w = np.asarray(t.wins, dtype=np.float64)
        shares.append(w / w.sum() if w.sum() > 0 else np.full(len(w), 1.0 / len(w)))
    for r in range(rounds):
        redrawn = [Table(t.bots, t.games, tuple(rng.multinomial(t.games, p).astype(float)))
                   for t, p in zip(tables, shares, strict=True)]
        draws[r] = fit(redrawn, n_bots, tolerance=1e-8)
    return np.quantile(draws, [0.025, 0.975], axis=0).T
