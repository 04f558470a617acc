"""Value models over the engine's indicator features, each giving kernel weights.

* ``sgd``: scikit-learn ``SGDRegressor.partial_fit`` on sparse one-hot rows (squared loss,
  constant step): a linear value trained incrementally, round after round;
* ``average``: seed 001's average-reward rule: a feature's weight is the mean final reward
  of the states that showed it, visits counted up to a cap (250), so it keeps learning. A
  state's value is the mean of its features' weights: with a fixed number of active
  features that is the linear value of the weights divided by that number.

Both are deterministic for the same samples in the same order.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from games.dominion.features import NACTIVE, NF


def one_hot(feats: np.ndarray) -> sp.csr_matrix:
    """Sparse rows with a 1 at each active feature index."""
    n = feats.shape[0]
    data = np.ones(n * NACTIVE, dtype=np.float64)
    indptr = np.arange(0, n * NACTIVE + 1, NACTIVE, dtype=np.int64)
    return sp.csr_matrix((data, feats.reshape(-1).astype(np.int64), indptr), shape=(n, NF))


class SGDValue:
    """Linear value trained with ``SGDRegressor.partial_fit``."""

    name = "sgd"

    def __init__(self, eta0: float = 0.002, alpha: float = 1e-7, seed: int = 0,
                 average: int = 0, ema: float = 0.0) -> None:
        from sklearn.linear_model import SGDRegressor
        self.model = SGDRegressor(loss="squared_error", penalty="l2", alpha=alpha,
                                  learning_rate="constant", eta0=eta0, shuffle=False,
                                  random_state=seed, fit_intercept=True,
                                  average=average if average > 0 else False)
        self.fitted = False
        self.ema = ema
        self.smooth: np.ndarray | None = None

    def update(self, feats: np.ndarray, y: np.ndarray) -> None:
        if len(y):
            self.model.partial_fit(one_hot(feats), y)
            self.fitted = True
            if self.ema > 0:
                coef = np.asarray(self.model.coef_, dtype=np.float64)
                self.smooth = (coef.copy() if self.smooth is None
                               else self.ema * self.smooth + (1.0 - self.ema) * coef)

    def weights(self) -> np.ndarray:
        """Kernel weights: the fitted coefficients, or their average over recent rounds."""
        if not self.fitted:
            return np.zeros(NF)
        if self.smooth is not None:
            return np.ascontiguousarray(self.smooth)
        return np.ascontiguousarray(self.model.coef_, dtype=np.float64)

    def predict(self, feats: np.ndarray) -> np.ndarray:
        return self.model.predict(one_hot(feats)) if self.fitted else np.zeros(len(feats))


class AverageRewardValue:
    """Seed 001's rule, applied to a round's samples at once: with ``n`` = visits so far
    (capped), ``k`` new visits of mean reward ``m``: ``w = (n * w + k * m) / (n + k)``."""

    name = "average"

    def __init__(self, visit_cap: int = 250) -> None:
        self.cap = visit_cap
        self.w = np.zeros(NF)
        self.visits = np.zeros(NF, dtype=np.int64)

    def update(self, feats: np.ndarray, y: np.ndarray) -> None:
        if not len(y):
            return
        idx = feats.reshape(-1)
        k = np.bincount(idx, minlength=NF)
        s = np.bincount(idx, weights=np.repeat(y, NACTIVE), minlength=NF)
        n = np.minimum(self.visits, self.cap).astype(np.float64)
        seen = k > 0
        self.w[seen] = (n[seen] * self.w[seen] + s[seen]) / (n[seen] + k[seen])
        self.visits += k

    def weights(self) -> np.ndarray:
        return self.w / NACTIVE

    def predict(self, feats: np.ndarray) -> np.ndarray:
        return self.w[feats].mean(axis=1)


def make_estimator(name: str, *, eta0: float, alpha: float, visit_cap: int, seed: int,
                   average: int = 0, ema: float = 0.0) -> SGDValue | AverageRewardValue:
    if name == "average":
        return AverageRewardValue(visit_cap)
    return SGDValue(eta0, alpha, seed, average, ema)
