"""Does the learned Splendor value gain from a nonlinear form over the same features?

Self-play games of the committed model (``reports/splendor-learned/model.npz``, one turn
deep, exploration 0.05) give every recorded position's 33 features and its seat's final
result (+1/0/-1). Ridge least squares (the trainer's form) and a one-hidden-layer network
(scikit-learn's MLPRegressor on standardised features) are fitted on the positions of the
first blocks and scored on the held-out blocks: squared error, the share of positions
whose result's sign they get right, and the error in the late game (round >= 15).

    python benchmarks/splendor_value_forms.py                  # 8 blocks of 1,000 games
    python benchmarks/splendor_value_forms.py --blocks 4 --hidden 16,32
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def positions(blocks: int, games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, results and block index of every recorded self-play position."""
    from games.splendor._learned import load_model
    from games.splendor.learning import _selfplay

    weights = load_model().weights
    feats, results, block = [], [], []
    for b in range(blocks):
        f, r, _ = _selfplay.play_block(weights, 0.05, None, None, seed, b * games, games, 1,
                                       0.0)
        feats.append(f)
        results.append(r)
        block.append(np.full(len(r), b))
    return np.vstack(feats), np.concatenate(results), np.concatenate(block)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--blocks", type=int, default=8, help="blocks of games (the last quarter "
                                                          "is held out)")
    ap.add_argument("--games", type=int, default=1000, help="games per block")
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--fit", type=int, default=300_000, help="positions to fit on at most")
    ap.add_argument("--hidden", default="16", help="hidden layer widths to try, e.g. 16,32")
    args = ap.parse_args()
    if args.blocks < 2:
        raise SystemExit("error: --blocks must be 2 or more (some are held out)")
    from sklearn.linear_model import Ridge
    from sklearn.neural_network import MLPRegressor
    from sklearn.preprocessing import StandardScaler

    t0 = time.monotonic()
    x, y, block = positions(args.blocks, args.games, args.seed)
    held = block >= args.blocks - max(1, args.blocks // 4)
    rng = np.random.default_rng(0)
    train = np.flatnonzero(~held)
    train = rng.choice(train, min(args.fit, len(train)), replace=False)
    late = x[held, -1] >= 15
    print(f"{len(y):,} positions from {args.blocks * args.games:,} games in "
          f"{time.monotonic() - t0:.0f} s; fitting on {len(train):,}, scoring on "
          f"{int(held.sum()):,} held out")

    def report(name: str, pred: np.ndarray) -> None:
        truth = y[held]
        err = (pred - truth) ** 2
        print(f"{name:>12}: squared error {err.mean():.4f}, sign right "
              f"{np.mean(np.sign(pred) == np.sign(truth)):.4f}, late game {err[late].mean():.4f}")

    report("ridge", Ridge(1.0).fit(x[train], y[train]).predict(x[held]))
    scale = StandardScaler().fit(x[train])
    for width in (int(w) for w in args.hidden.split(",")):
        net = MLPRegressor(hidden_layer_sizes=(width,), max_iter=30, early_stopping=True,
                           random_state=0, batch_size=512)
        net.fit(scale.transform(x[train]), y[train])
        report(f"network {width}", net.predict(scale.transform(x[held])))


if __name__ == "__main__":
    main()
