"""Which description of a Splendor position ranks AlphaZero's moves as AlphaZero does?

Reads the choices that ``benchmarks/splendor_teacher.py --choices`` recorded from
AlphaZero's games against itself (each move: the mover's honest view and every turn both
engines allow). For each candidate turn it rebuilds the position after it on that view
(hidden decks, no refill; a noble due is chosen as the expert chooses) and describes it
from the mover's seat: by today's 33 features, by the candidate features of
``benchmarks/splendor_feature_probe.py`` ("seen": per colour bonuses and tokens, cards by
gems lacking, discounts, nobles by cards away) and by both. For each description a linear
ranking is fitted on the first games (logistic regression on feature differences, the
choice against up to ``--pairs`` other turns) and scored on the held-out games: how often
it ranks AlphaZero's move first, and above each other turn. A value that cannot rank the
teacher's moves one turn deep will not learn its plan; this measures that in seconds,
before any game is played. ``--nonlinear`` adds two non-linear scorers of both
descriptions (gradient-boosted trees and a one-hidden-layer network), each fitted to tell
AlphaZero's turn from the others with the features centred on the move's mean.
``--search 3,5`` compares the kinds of move AlphaZero plays with those the expert's search
plays on the same views.

    python benchmarks/splendor_choice_probe.py --teacher runs/splendor-teacher-views
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def load(folder: str) -> dict[str, np.ndarray]:
    """Every recorded choice with its view, in game order."""
    blocks = [np.load(b) for b in sorted(Path(folder).glob("block-*.npz"))]
    blocks = [b for b in blocks if "views" in b.files]
    if not blocks:
        raise SystemExit(f"error: {folder}: no blocks with views (record them with "
                         "benchmarks/splendor_teacher.py --choices)")
    keys = ("candidates", "decision", "chosen", "turns", "views", "view_decision")
    return {k: np.concatenate([b[k] for b in blocks]) for k in keys}


def after_states(data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The position after each candidate turn on its view, and the mover's seat."""
    from games.splendor._kernel import CFG_W
    from games.splendor._players import make_bot
    from games.splendor._rules import O_CUR, apply_move
    from games.splendor._search import resolve

    w = np.ascontiguousarray(make_bot("expert").row[CFG_W:])
    where = {int(d): i for i, d in enumerate(data["view_decision"])}
    views = data["views"].astype(np.int64)
    out = np.empty((len(data["decision"]), views.shape[1]), dtype=np.int64)
    seat = np.empty(len(data["decision"]), dtype=np.int64)
    for k, (dec, turn) in enumerate(zip(data["decision"], data["turns"], strict=True)):
        child = views[where[int(dec)]].copy()
        p = int(child[O_CUR])
        for m in turn:
            if m >= 0:
                apply_move(child, int(m))
        resolve(child, p, w)
        out[k], seat[k] = child, p
    return out, seat


def groups(decision: np.ndarray) -> list[tuple[int, int]]:
    starts = np.flatnonzero(np.r_[True, decision[1:] != decision[:-1]])
    return list(zip(starts, np.r_[starts[1:], len(decision)], strict=True))


def moves_of(x: np.ndarray, chosen: np.ndarray, spans: list[tuple[int, int]]
             ) -> list[tuple[np.ndarray, int]]:
    """(candidate rows, index of AlphaZero's choice) per move, for the teacher's ranking."""
    return [(x[a:b], int(np.flatnonzero(chosen[a:b])[0])) for a, b in spans]


def nonlinear(x: np.ndarray, chosen: np.ndarray, spans: list[tuple[int, int]],
              fit: np.ndarray, held: list[tuple[int, int]]) -> list[tuple[str, float]]:
    """Held-out share of moves whose AlphaZero turn each non-linear scorer ranks first."""
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    xc = x.copy()
    for a, b in spans:
        xc[a:b] -= x[a:b].mean(axis=0)
    out = []
    for name, model in (
            ("trees", HistGradientBoostingClassifier(max_iter=300, random_state=0)),
            ("network (64)", make_pipeline(StandardScaler(), MLPClassifier(
                (64,), max_iter=40, early_stopping=True, random_state=0)))):
        model.fit(xc[fit], chosen[fit])
        p = model.predict_proba(xc)[:, 1]
        out.append((name, float(np.mean([
            int(np.argmax(p[a:b])) == int(np.flatnonzero(chosen[a:b])[0])
            for a, b in held]))))
    return out


def kind(move: int) -> str:
    """A main move's kind for the table of :func:`move_kinds`."""
    from games.splendor._rules import M_RESERVE, M_TAKE2
    from games.splendor.alphazero._effects import kind_of

    what, target = kind_of(int(move))
    if what == "buy":
        return f"buy a tier {target // 4 + 1} card"
    if what == "tokens":
        return "take 3 gems" if move < M_TAKE2 else "take 2 gems" if move < M_RESERVE else "pass"
    return {"buyres": "buy a reserved card", "reserve": "reserve face up",
            "blind": "reserve blind"}[what]


def move_kinds(data: dict[str, np.ndarray], spans: list[tuple[int, int]], depths: list[int],
               every: int) -> None:
    """What AlphaZero played, by kind, against what the expert's search (each depth) plays
    on the same views (every ``every``-th move), and how often the two main moves agree."""
    from collections import Counter

    from games.splendor._players import make_bot
    from games.splendor._state import SplendorState

    where = {int(x): i for i, x in enumerate(data["view_decision"])}
    views = data["views"].astype(np.int64)
    picks = spans[::every]
    az = Counter(kind(data["turns"][a + int(np.flatnonzero(data["chosen"][a:b])[0])][0])
                 for a, b in picks)
    cols, same = [], []
    for depth in depths:
        bot = make_bot("expert", {"depth": depth})
        moves = []
        for a, b in picks:
            moves.append(int(bot.act(SplendorState(views[where[int(data["decision"][a])]]
                                                   .copy()))))
            pick = a + int(np.flatnonzero(data["chosen"][a:b])[0])
            same.append(moves[-1] == int(data["turns"][pick][0]))
        cols.append(Counter(kind(m) for m in moves))
    n = len(picks)
    print(f"\n{n:,} moves: AlphaZero's choice and the expert's, by kind")
    print("| kind | AlphaZero | " + " | ".join(f"expert, {d} turns" for d in depths) + " |")
    print("|---" * (2 + len(depths)) + "|")
    for k in sorted(set(az).union(*cols)):
        print(f"| {k} | {100 * az[k] / n:.1f}% | "
              + " | ".join(f"{100 * c[k] / n:.1f}%" for c in cols) + " |")
    print("| same main move as AlphaZero | - | " + " | ".join(
        f"{100 * np.mean(same[i * n:(i + 1) * n]):.1f}%" for i in range(len(depths))) + " |")


def main() -> None:
    from splendor_feature_probe import seen_features
    from splendor_teacher import fit_rank, rank_agreement

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--teacher", required=True, help="folder of the teacher's blocks")
    ap.add_argument("--held", type=float, default=0.25, help="share of games held out")
    ap.add_argument("--pairs", type=int, default=8)
    ap.add_argument("--c", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--search", default="", help="depths of the expert's search to compare "
                    "move kinds with, e.g. 3,5 (every --every-th move)")
    ap.add_argument("--every", type=int, default=8)
    ap.add_argument("--nonlinear", action="store_true",
                    help="also score both descriptions with two non-linear scorers")
    args = ap.parse_args()
    t0 = time.monotonic()
    data = load(args.teacher)
    order = np.argsort(data["decision"], kind="stable")
    for k in ("candidates", "decision", "chosen", "turns"):
        data[k] = data[k][order]
    states, seat = after_states(data)
    game = data["decision"] // 1000
    cut = np.quantile(np.unique(game), 1 - args.held)
    spans = groups(data["decision"])
    fit = [(a, b) for a, b in spans if game[a] < cut]
    held = [(a, b) for a, b in spans if game[a] >= cut]
    print(f"{len(spans):,} moves of {len(np.unique(game)):,} games, {len(states):,} "
          f"candidate turns ({time.monotonic() - t0:.0f} s); fitted on {len(fit):,} moves, "
          f"scored on {len(held):,} held out")
    seen = seen_features(states, seat)
    print("| description | numbers | first as AlphaZero | pairs as AlphaZero |")
    print("|---|---|---|---|")
    for name, x in (("committed", data["candidates"]), ("seen", seen),
                    ("both", np.hstack([data["candidates"], seen]))):
        w, _ = fit_rank(moves_of(x, data["chosen"], fit), args.pairs, args.c,
                        np.random.default_rng(args.seed))
        top, pair = rank_agreement(moves_of(x, data["chosen"], held), w)
        print(f"| {name} | {x.shape[1]} | {100 * top:.1f}% | {100 * pair:.1f}% |", flush=True)
    if args.search:
        move_kinds(data, spans, [int(d) for d in args.search.split(",")], args.every)
    if args.nonlinear:
        both = np.hstack([data["candidates"], seen])
        for name, top in nonlinear(both, data["chosen"], spans, game < cut, held):
            print(f"| both, {name} | {both.shape[1]} | {100 * top:.1f}% | - |", flush=True)


if __name__ == "__main__":
    main()
