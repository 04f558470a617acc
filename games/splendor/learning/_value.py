"""The learned value's model: ridge least squares on the features, fitted exactly from the
statistics of every round so far, older rounds weighing less (``forget`` per round)."""

from __future__ import annotations

import numpy as np

from games.splendor._features import FEATURE_NAMES, NF, NV


def initial_weights() -> np.ndarray:
    """Before any game: points ahead of the rival, as one-fifteenth of a win each."""
    w = np.zeros(NV)
    w[FEATURE_NAMES.index("p_points")] = 1.0 / 15
    w[FEATURE_NAMES.index("q_points")] = -1.0 / 15
    return w


class RidgeValue:
    """``weights()`` solves ``(X'X + ridge I) w = X'y`` over the samples seen (a bias column
    added, not penalised); each ``update`` first scales the old statistics by ``forget``.
    Before the first update the weights are ``start`` (a committed model's, say: the first
    round's games are then played at its strength), else :func:`initial_weights`.
    Deterministic for the same samples in the same order; pickled into checkpoints."""

    name = "ridge"

    def __init__(self, ridge: float = 1.0, forget: float = 0.9,
                 start: np.ndarray | None = None) -> None:
        self.ridge, self.forget = ridge, forget
        self.xtx = np.zeros((NV, NV))
        self.xty = np.zeros(NV)
        self.samples = 0
        self._w = initial_weights() if start is None else np.array(start, dtype=np.float64)

    def update(self, features: np.ndarray, rewards: np.ndarray) -> None:
        if not len(rewards):
            return
        x = np.hstack([np.asarray(features, dtype=np.float64)[:, :NF],
                       np.ones((len(rewards), 1))])
        self.xtx = self.forget * self.xtx + x.T @ x
        self.xty = self.forget * self.xty + x.T @ np.asarray(rewards, dtype=np.float64)
        self.samples += len(rewards)
        penalty = self.ridge * np.eye(NV)
        penalty[NF, NF] = 0.0
        self._w = np.linalg.solve(self.xtx + penalty + 1e-9 * np.eye(NV), self.xty)

    def weights(self) -> np.ndarray:
        return self._w.copy()
