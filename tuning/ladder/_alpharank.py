"""Alpha-Rank of a two-player ladder, computed by OpenSpiel (``open_spiel.python.egt
.alpharank``; the ``openspiel`` extra).

The ladder's score matrix (row bot's mean score against the column bot, a tie counted half,
0.5 on the diagonal) is a symmetric two-player game's payoff table, one population. Alpha-Rank
ranks the bots by the stationary distribution of an evolutionary process in which a
population of ``m`` players switches strategy with a probability that grows with ``alpha``
times the payoff gained: the bots the process spends its time on are the ones that hold
against every other, which Elo, fitted on averages, can miss when strengths are not
transitive (rock, paper, scissors). Ladders of three or more seats have no such matrix of
their own and get none.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

__all__ = ["ALPHA", "POPULATION", "alpha_rank"]

#: selection intensity and population size of the evolutionary process (OpenSpiel's
#: ``compute`` defaults to m = 50; a large alpha ranks by who beats whom, not by how much)
ALPHA = 100.0
POPULATION = 50


def alpha_rank(labels: list[str], scores: np.ndarray) -> tuple[dict[str, Any] | None, str]:
    """Alpha-Rank of ``scores`` (n x n) as JSON data, and a note; None and the reason where
    OpenSpiel is not installed."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from open_spiel.python.egt import alpharank
    except ImportError as exc:
        return None, (f"Alpha-Rank needs OpenSpiel (pip install -e \".[openspiel]\"): "
                      f"{exc.name or exc} is not installed")
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, _, pi, _, _ = alpharank.compute([np.asarray(scores, dtype=np.float64)],
                                           m=POPULATION, alpha=ALPHA, verbose=False)
    pi = np.clip(np.asarray(pi, dtype=np.float64), 0.0, None)  # round-off below zero
    pi /= pi.sum()
    mass = {label: float(p) for label, p in zip(labels, pi, strict=True)}
    ranking = sorted(labels, key=lambda label: (-mass[label], labels.index(label)))
    return ({"alpha": ALPHA, "population": POPULATION, "mass": mass, "ranking": ranking},
            f"OpenSpiel's Alpha-Rank, alpha = {ALPHA:g}, population {POPULATION}")
