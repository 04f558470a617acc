"""Offline comparison of value models on the same (features after a buy, final reward) data.

Samples come from a trained model playing its training pool; games are split into a fit
half and a held-out half. Linear models (SGD, ridge, seed 001's rule) see the one-hot
indicators; the non-linear model
(``HistGradientBoostingRegressor``) sees the dense numbers the indicators encode (see
``dense``), which lets it find interactions the linear model cannot. Scores: held-out
mean squared error and R^2 of the final reward.

    python -m games.dominion.learning.compare --model runs/dominion-learned/model.npz \
        [--games 20000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from games.core import BotSpec
from games.dominion._cards import NC
from games.dominion._features import (
    NCOUNT,
    NDRAW,
    NGAINS,
    NPROV,
    NPROVS,
    NSIZE,
    NSTAGE,
    NTERM,
    OFF_AVG,
    OFF_CARD,
    OFF_DENS,
    OFF_DRAW,
    OFF_GREEN,
    OFF_LEADG,
    OFF_LEADP,
    OFF_MONEY,
    OFF_OPP,
    OFF_PROVS,
    OFF_SIZE,
    OFF_TERM,
    OFF_VILL,
)
from games.dominion._learned import load_model
from games.dominion.learning._estimators import AverageRewardValue, RidgeValue, SGDValue
from games.dominion.learning._selfplay import play_block


def dense(feats: np.ndarray) -> np.ndarray:
    """The numbers behind the indicators: one column per card count (pure victory cards
    have none), then stage, treasure average, money density, lead, Provinces left, gains to
    the end, deck size, money in the deck, terminals, villages, victory cards, the draw
    pile's money density and size, the opponent's money density, Provinces of each."""
    counts = ((feats[:, :NC] - OFF_CARD) // NSTAGE) % NCOUNT
    g = NC
    stage = feats[:, 0] % NSTAGE
    avg = (feats[:, g] - OFF_AVG) // NSTAGE
    dens = (feats[:, g + 1] - OFF_DENS) // NSTAGE
    lead, prov = np.divmod(feats[:, g + 2] - OFF_LEADP, NPROV)
    gains = (feats[:, g + 3] - OFF_LEADG) % NGAINS
    size = (feats[:, g + 5] - OFF_SIZE) // NSTAGE
    money = (feats[:, g + 6] - OFF_MONEY) // NPROV
    term = (feats[:, g + 7] - OFF_TERM) // NSIZE
    vill = (feats[:, g + 8] - OFF_VILL) // NTERM
    green = (feats[:, g + 9] - OFF_GREEN) // NSTAGE
    ldens, left = np.divmod(feats[:, g + 10] - OFF_DRAW, NDRAW)
    odens = (feats[:, g + 11] - OFF_OPP) // NSTAGE
    mine, theirs = np.divmod(feats[:, g + 12] - OFF_PROVS, NPROVS)
    return np.column_stack([counts, stage, avg, dens, lead - 15, prov, gains, size, money,
                            term, vill, green, ldens, left, odens, mine, theirs]
                           ).astype(np.float64)


def collect(weights: np.ndarray, kingdom: tuple[str, ...], games: int, seed: int,
            opponents: list[BotSpec | None]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Samples of the model (exploring a little) against each opponent in turn; the game
    index of every sample, for a split by game."""
    feats, ys, gid = [], [], []
    block = 1000
    for j, start in enumerate(range(0, games, block)):
        opp = opponents[j % len(opponents)]
        f, y, _ = play_block(weights, 0.05, opp, None, seed, start, block, kingdom, 0.01)
        feats.append(f)
        ys.append(y)
        gid.append(np.full(len(y), j))
    return np.concatenate(feats), np.concatenate(ys), np.concatenate(gid)


def compare(weights: np.ndarray, kingdom: tuple[str, ...], games: int = 20_000,
            seed: int = 7) -> list[dict]:
    """Held-out MSE and R^2 of each estimator, with fitting time."""
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.metrics import mean_squared_error, r2_score
    opps = [None, BotSpec("big-money"), BotSpec("smithy-big-money"),
            BotSpec("big-money-ultimate")]
    X, y, g = collect(weights, kingdom, games, seed, opps)
    fit = (g // len(opps)) % 2 == 0  # whole blocks, every opponent on both sides
    order = np.random.default_rng(seed).permutation(int(fit.sum()))
    Xf, yf = X[fit][order], y[fit][order]
    rows = []

    def add(name: str, pred: np.ndarray, t: float) -> None:
        rows.append({"estimator": name, "mse": float(mean_squared_error(y[~fit], pred)),
                     "r2": float(r2_score(y[~fit], pred)), "fit_seconds": round(t, 2),
                     "train_samples": int(fit.sum()), "test_samples": int((~fit).sum())})

    add("constant (mean reward)", np.full(int((~fit).sum()), yf.mean()), 0.0)
    for eta in (1e-4, 1e-3):
        t0 = time.perf_counter()
        sgd = SGDValue(eta, 1e-7, seed)
        for _ in range(3):
            sgd.update(Xf, yf)
        add(f"SGDRegressor.partial_fit (one-hot, eta0={eta:g}, 3 passes)", sgd.predict(X[~fit]),
            time.perf_counter() - t0)
    t0 = time.perf_counter()
    ridge = RidgeValue(forget=1.0, alpha=1.0, smooth=1000.0)
    for lo in range(0, len(yf), 250_000):
        ridge.update(Xf[lo:lo + 250_000], yf[lo:lo + 250_000])
    add("ridge least squares (one-hot, smoothness prior 1000)", ridge.predict(X[~fit]),
        time.perf_counter() - t0)
    t0 = time.perf_counter()
    avg = AverageRewardValue(250)
    for lo in range(0, len(yf), 50_000):
        avg.update(Xf[lo:lo + 50_000], yf[lo:lo + 50_000])
    add("seed 001's average-reward rule (cap 250)", avg.predict(X[~fit]),
        time.perf_counter() - t0)
    t0 = time.perf_counter()
    hgb = HistGradientBoostingRegressor(max_iter=100, random_state=seed)
    hgb.fit(dense(Xf), yf)
    add("HistGradientBoostingRegressor (dense numbers)", hgb.predict(dense(X[~fit])),
        time.perf_counter() - t0)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    model = load_model(args.model)
    rows = compare(model.weights, model.kingdom, args.games, args.seed)
    print("| estimator | held-out MSE | R^2 | fit s | train / test samples |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['estimator']} | {r['mse']:.4f} | {r['r2']:.4f} | {r['fit_seconds']} | "
              f"{r['train_samples']:,} / {r['test_samples']:,} |")


if __name__ == "__main__":
    main()
