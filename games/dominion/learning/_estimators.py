"""Value models over the engine's indicator features, each giving kernel weights.

* ``sgd``: scikit-learn ``SGDRegressor.partial_fit`` on sparse one-hot rows (squared loss,
  constant step): a linear value trained incrementally, round after round;
* ``average``: seed 001's average-reward rule: a feature's weight is the mean final reward
  of the states that showed it, visits counted up to a cap (250), so it keeps learning. A
  state's value is the mean of its features' weights: with a fixed number of active
  features that is the linear value of the weights divided by that number.

Both are deterministic for the same samples in the same order. Each is sized for one
feature layout (``games.dominion._features.Layout``; the sources' by default, which is
also what checkpoints written before there were two layouts hold).
"""

from __future__ import annotations

import functools

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from numba import njit

from games.dominion._features import NACTIVE, NF, SOURCES, Layout, neighbours


def one_hot(feats: np.ndarray, nf: int = NF) -> sp.csr_matrix:
    """Sparse rows with a 1 at each active feature index (``nf`` columns)."""
    n, active = feats.shape
    data = np.ones(n * active, dtype=np.float64)
    indptr = np.arange(0, n * active + 1, active, dtype=np.int64)
    return sp.csr_matrix((data, feats.reshape(-1).astype(np.int64), indptr), shape=(n, nf))


class SGDValue:
    """Linear value trained with ``SGDRegressor.partial_fit``."""

    name = "sgd"
    nf = NF  # the sources' layout (what older checkpoints hold)

    def __init__(self, eta0: float = 0.002, alpha: float = 1e-7, seed: int = 0,
                 average: int = 0, ema: float = 0.0, layout: Layout = SOURCES) -> None:
        self.nf = layout.nf
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
            self.model.partial_fit(one_hot(feats, self.nf), y)
            self.fitted = True
            if self.ema > 0:
                coef = np.asarray(self.model.coef_, dtype=np.float64)
                self.smooth = (coef.copy() if self.smooth is None
                               else self.ema * self.smooth + (1.0 - self.ema) * coef)

    def weights(self) -> np.ndarray:
        """Kernel weights: the fitted coefficients, or their average over recent rounds."""
        if not self.fitted:
            return np.zeros(self.nf)
        if self.smooth is not None:
            return np.ascontiguousarray(self.smooth)
        return np.ascontiguousarray(self.model.coef_, dtype=np.float64)

    def predict(self, feats: np.ndarray) -> np.ndarray:
        return (self.model.predict(one_hot(feats, self.nf)) if self.fitted
                else np.zeros(len(feats)))


class AverageRewardValue:
    """Seed 001's rule, applied to a round's samples at once: with ``n`` = visits so far
    (capped), ``k`` new visits of mean reward ``m``: ``w = (n * w + k * m) / (n + k)``."""

    name = "average"
    nactive = NACTIVE  # the sources' layout (what older checkpoints hold)

    def __init__(self, visit_cap: int = 250, layout: Layout = SOURCES) -> None:
        self.cap = visit_cap
        self.nactive = layout.nactive
        self.w = np.zeros(layout.nf)
        self.visits = np.zeros(layout.nf, dtype=np.int64)

    def update(self, feats: np.ndarray, y: np.ndarray) -> None:
        if not len(y):
            return
        idx = feats.reshape(-1)
        nf = len(self.w)
        k = np.bincount(idx, minlength=nf)
        s = np.bincount(idx, weights=np.repeat(y, self.nactive), minlength=nf)
        n = np.minimum(self.visits, self.cap).astype(np.float64)
        seen = k > 0
        self.w[seen] = (n[seen] * self.w[seen] + s[seen]) / (n[seen] + k[seen])
        self.visits += k

    def weights(self) -> np.ndarray:
        return self.w / self.nactive

    def predict(self, feats: np.ndarray) -> np.ndarray:
        return self.w[feats].mean(axis=1)


@njit(cache=True)
def _accumulate(gram: np.ndarray, xty: np.ndarray, feats: np.ndarray, y: np.ndarray) -> None:
    """gram += X'X and xty += X'y for one-hot rows given by their active indices."""
    for r in range(feats.shape[0]):
        f = feats[r]
        for i in range(f.shape[0]):
            xty[f[i]] += y[r]
            for j in range(f.shape[0]):
                gram[f[i], f[j]] += 1.0


@functools.lru_cache(maxsize=2)
def penalty(alpha: float, smooth: float, layout: Layout = SOURCES) -> np.ndarray:
    """alpha * I + smooth * L (dense), L the Laplacian of the neighbouring-bin graph."""
    nf = layout.nf
    e = neighbours(layout)
    n = len(e)
    rows = np.concatenate([e[:, 0], e[:, 1], e[:, 0], e[:, 1]])
    cols = np.concatenate([e[:, 0], e[:, 1], e[:, 1], e[:, 0]])
    vals = np.concatenate([np.ones(2 * n), -np.ones(2 * n)]) * smooth
    lap = sp.coo_matrix((vals, (rows, cols)), shape=(nf, nf)).tocsr()
    out = (lap + alpha * sp.identity(nf, format="csr")).toarray()
    out.setflags(write=False)
    return out


class RidgeValue:
    """Linear value: exact ridge solution of the normal equations of recent rounds."""

    name = "ridge"
    layout = SOURCES  # what older checkpoints hold

    def __init__(self, forget: float = 0.9, alpha: float = 1.0, smooth: float = 1000.0,
                 init: np.ndarray | None = None, layout: Layout = SOURCES) -> None:
        self.forget = forget
        self.alpha = alpha
        self.smooth = smooth
        self.layout = layout
        nf = layout.nf
        self.gram = np.zeros((nf, nf))
        self.xty = np.zeros(nf)
        self.w = np.zeros(nf) if init is None else np.array(init, dtype=np.float64)

    def update(self, feats: np.ndarray, y: np.ndarray) -> None:
        if not len(y):
            return
        self.gram *= self.forget
        self.xty *= self.forget
        _accumulate(self.gram, self.xty, np.ascontiguousarray(feats, dtype=np.int64),
                    np.ascontiguousarray(y, dtype=np.float64))
        m = sp.csr_matrix(self.gram + penalty(self.alpha, self.smooth, self.layout))
        inv_diag = 1.0 / m.diagonal()
        pre = spla.LinearOperator(m.shape, matvec=lambda v: inv_diag * v, dtype=np.float64)
        w, info = spla.cg(m, self.xty, x0=self.w, rtol=1e-10, maxiter=20 * len(self.w),
                          M=pre)
        if info != 0:  # not converged: fall back to the exact factorisation
            w = sla.cho_solve(sla.cho_factor(m.toarray(), check_finite=False), self.xty)
        self.w = w

    def weights(self) -> np.ndarray:
        return np.ascontiguousarray(self.w)

    def predict(self, feats: np.ndarray) -> np.ndarray:
        return self.w[feats].sum(axis=1)

    def __getstate__(self) -> dict:
        """Checkpoints keep X'X sparse (a few percent of it is non-zero)."""
        state = dict(self.__dict__)
        state["gram"] = sp.csr_matrix(self.gram)
        return state

    def __setstate__(self, state: dict) -> None:
        state = dict(state)
        state["gram"] = np.asarray(state["gram"].toarray(), dtype=np.float64)
        self.__dict__.update(state)


def make_estimator(name: str, *, eta0: float, alpha: float, visit_cap: int, seed: int,
                   average: int = 0, ema: float = 0.0, forget: float = 0.9,
                   ridge: float = 1.0, smooth: float = 1000.0,
                   init: np.ndarray | None = None, layout: Layout = SOURCES
                   ) -> SGDValue | AverageRewardValue | RidgeValue:
    """The value model ``name`` for ``layout``'s features."""
    if name == "average":
        return AverageRewardValue(visit_cap, layout)
    if name == "ridge":
        return RidgeValue(forget, ridge, smooth, init, layout)
    return SGDValue(eta0, alpha, seed, average, ema, layout)
