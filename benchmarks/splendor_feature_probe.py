"""Which description of a Splendor position predicts its result better than today's?

Self-play games of the committed model (one turn deep, exploration 0.05) record every
position after a whole turn with its seat's final result (+1/0/-1), as the trainer does,
and keep the whole position too. Candidate features are computed from what the seat sees
(its own reserves; of the rival's, only those taken face up; never a deck) and compared with
the committed 33 by ridge least squares and a one-hidden-layer network fitted on the first
blocks and scored on the held-out ones: squared error and the share of positions whose
result's sign they get right, overall and late in the game (round >= 15).

    python benchmarks/splendor_feature_probe.py                 # 4 blocks of 1,000 games
    python benchmarks/splendor_feature_probe.py --blocks 8 --hidden 32
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def positions(blocks: int, games: int, seed: int) -> dict[str, np.ndarray]:
    """Features, whole positions, seats, results and block of every recorded position."""
    from games.core import game_seeds
    from games.outcomes import seating_for
    from games.splendor._features import NF
    from games.splendor._learned import load_model
    from games.splendor._players import learned_row
    from games.splendor._recording import play_recorded
    from games.splendor._rules import SIZE
    from games.splendor.learning._selfplay import ROWS_PER_GAME, _rules, rewards

    rules = _rules()
    me = learned_row(load_model().weights, 1)
    cfg = np.ascontiguousarray(np.stack([me, me]))
    out: dict[str, list] = {"feats": [], "states": [], "seat": [], "y": [], "block": []}
    for b in range(blocks):
        start = b * games
        rows = ROWS_PER_GAME * games
        feats, meta = np.zeros((rows, NF)), np.zeros((rows, 2), dtype=np.int64)
        states = np.zeros((rows, SIZE), dtype=np.int64)
        result, points = (np.zeros((games, 2), dtype=np.int64) for _ in range(2))
        n = play_recorded(np.ascontiguousarray(game_seeds(seed, games, start), dtype=np.uint64),
                          seating_for(start, games, 2), cfg, np.array([True, True]), 0.05,
                          int(rules.cap), int(rules.points_to_win), int(rules.nobles), feats,
                          meta, result, points, np.zeros(games, dtype=np.int64), states)
        out["feats"].append(feats[:n])
        out["states"].append(states[:n].astype(np.int16))
        out["seat"].append(meta[:n, 1])
        out["y"].append(rewards(result, points, meta[:n], 0.0))
        out["block"].append(np.full(n, b))
    return {k: np.concatenate(v) for k, v in out.items()}


def seen_features(states: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """Candidate features of each position for its seat (and its one rival, 2 players):
    per colour bonuses and tokens of both, the board's cards by how many gems each lacks
    and their points, the discount each seat's bonuses give on the board, nobles one, two or
    three cards away, and who could win at once."""
    from games.splendor._cards import COST, NOBLE_REQ, POINTS
    from games.splendor._rules import (
        O_BLIND,
        O_BOARD,
        O_BON,
        O_CUR,
        O_FINAL,
        O_NCARD,
        O_NOB,
        O_NOBOWN,
        O_PTS,
        O_RES,
        O_ROUND,
        O_TOK,
    )

    s = states.astype(np.int64)
    n = len(s)
    rows = np.arange(n)
    cols: list[np.ndarray] = []
    board = s[:, O_BOARD:O_BOARD + 12]
    for who in (seat, 1 - seat):
        own = who == seat
        bon = np.stack([s[rows, O_BON + 5 * who + c] for c in range(5)], 1)
        tok = np.stack([s[rows, O_TOK + 6 * who + c] for c in range(6)], 1)
        pts = s[rows, O_PTS + who]
        cols += [pts, s[rows, O_NCARD + who], *bon.T, *tok.T]
        # the cards the seat may buy: the board, and reserves it knows
        res = np.stack([s[rows, O_RES + 3 * who + j] for j in range(3)], 1)
        blind = np.stack([s[rows, O_BLIND + 3 * who + j] for j in range(3)], 1)
        res = np.where(own[:, None] | (blind == 0), res, -1)
        cards = np.concatenate([board, res], 1)
        valid = cards >= 0
        cid = np.where(valid, cards, 0)
        cost = COST[cid]                                      # n x 15 x 5
        lack = np.clip(cost - bon[:, None, :] - tok[:, None, :5], 0, None).sum(2)
        short = np.clip(lack - tok[:, None, 5], 0, None)
        cpts = np.where(valid, POINTS[cid], 0)
        tier = np.where(valid, np.where(cid < 40, 0, np.where(cid < 70, 1, 2)), -1)
        for k in range(5):
            hit = valid & (short == k)
            cols += [hit.sum(1), (cpts * hit).sum(1)]
        cols += [((tier == 2) & valid & (short <= 2)).sum(1)]
        disc = np.minimum(cost, bon[:, None, :]).sum(2)
        cols += [(disc * valid).sum(1)]
        best_now = np.where(short == 0, cpts, 0).max(1)
        # nobles free and how many cards away
        away = []
        for k in range(5):
            nob = s[:, O_NOB + k]
            free = (nob >= 0) & (s[:, O_NOBOWN + k] < 0)
            req = NOBLE_REQ[np.where(nob >= 0, nob, 0)]
            away.append(np.where(free, np.clip(req - bon, 0, None).sum(1), 99))
        away = np.stack(away, 1)
        for k in (1, 2, 3):
            cols += [(away <= k).sum(1)]
        noble_now = (away <= 1).any(1)
        cols += [pts + best_now + 3 * noble_now >= 15, (15 - pts).clip(0)]
    cols += [s[:, O_CUR] == seat, s[:, O_FINAL], s[:, O_ROUND]]
    x = np.stack([np.asarray(c, dtype=np.float64) for c in cols], 1)
    return x


def score(name: str, fit_x: np.ndarray, fit_y: np.ndarray, x: np.ndarray, y: np.ndarray,
          late: np.ndarray, hidden: list[int]) -> list[str]:
    from sklearn.linear_model import Ridge
    from sklearn.neural_network import MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    lines = []
    models = [("ridge", make_pipeline(StandardScaler(), Ridge(alpha=1.0)))]
    models += [(f"mlp {h}", make_pipeline(StandardScaler(), MLPRegressor(
        hidden_layer_sizes=(h,), alpha=1e-4, max_iter=60, early_stopping=True, random_state=0)))
        for h in hidden]
    for label, model in models:
        t0 = time.monotonic()
        model.fit(fit_x, fit_y)
        pred = model.predict(x)
        mse = float(np.mean((pred - y) ** 2))
        sign = float(np.mean(np.sign(pred) == np.sign(y)))
        late_mse = float(np.mean((pred[late] - y[late]) ** 2))
        lines.append(f"| {name} ({fit_x.shape[1]}) | {label} | {mse:.3f} | {100 * sign:.1f}% | "
                     f"{late_mse:.3f} | {time.monotonic() - t0:.0f} s |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--blocks", type=int, default=4, help="blocks of games (the last quarter "
                                                          "is held out)")
    ap.add_argument("--games", type=int, default=1000, help="games per block")
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--fit", type=int, default=200_000, help="positions to fit on at most")
    ap.add_argument("--hidden", default="16", help="hidden layer widths to try, e.g. 16,32")
    args = ap.parse_args()
    if args.blocks < 2 or args.games < 1:
        raise SystemExit("error: --blocks must be 2 or more (some are held out), --games 1+")
    hidden = [int(h) for h in args.hidden.split(",") if h]
    t0 = time.monotonic()
    data = positions(args.blocks, args.games, args.seed)
    y = data["y"]
    held = data["block"] >= args.blocks - max(1, args.blocks // 4)
    rng = np.random.default_rng(0)
    fit = rng.permutation(np.flatnonzero(~held))[:args.fit]
    round_col = data["feats"][:, -1]
    late = round_col[held] >= 15
    print(f"{len(y):,} positions from {args.blocks * args.games:,} games in "
          f"{time.monotonic() - t0:.0f} s; fitted on {len(fit):,}, scored on "
          f"{int(held.sum()):,} held out ({int(late.sum()):,} late)")
    print("| features | model | squared error | sign right | late squared error | fit |")
    print("|---|---|---|---|---|---|")
    seen = seen_features(data["states"], data["seat"])
    for name, x in (("committed", data["feats"]), ("seen", seen),
                    ("both", np.hstack([data["feats"], seen]))):
        for line in score(name, x[fit], y[fit], x[held], y[held], late, hidden):
            print(line, flush=True)


if __name__ == "__main__":
    main()
