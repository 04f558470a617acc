"""Fit our learned Splendor value on games of the pretrained AlphaZero against itself.

    python benchmarks/splendor_teacher.py --az /path/to/az --simulations 100 -n 1000 \\
        --seed 2026 --jobs 2 --out runs/splendor-teacher
    python benchmarks/splendor_teacher.py --az /path/to/az --out runs/splendor-teacher \\
        --fit runs/splendor-teacher/model.npz

The first command plays ``-n`` games of AlphaZero (``--simulations`` a move) against
itself, in blocks of ``--block`` games spread over ``--jobs`` processes (each loads the
model once), and writes each block's samples to ``OUT/block-NNNNN.npz`` as it finishes
(games/splendor/alphazero/_teacher.py): a stopped run loses at most the blocks under way
and a rerun skips the blocks on disk. The second fits the linear value of
games/splendor/_features.py on every block in OUT (ridge least squares on result + margin
per point ahead, as `tabletune train` does) and writes a model file that ``learned`` and
``expert`` read (``expert:model=FILE``). Needs the checkout and the ``alphazero`` extra
(PyTorch) as benchmarks/splendor_vs_alphazero.py does; bad input is one line, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.core import InputError  # noqa: E402

_AZ: Any = None


def _worker_init(root: str, weights: str, sims: int) -> None:
    global _AZ
    from games.splendor.alphazero import _checkout as checkout

    _AZ = checkout.load(Path(root), Path(weights), [sims])
    checkout.warm(_AZ)


def _block(sims: int, seed: int, start: int, count: int, path: str, choices: bool
           ) -> tuple[int, float]:
    """Games ``start .. start+count-1`` written to ``path``; (samples, seconds)."""
    from games.atomic import atomic_open
    from games.splendor._features import NF
    from games.splendor.alphazero._teacher import play_teacher_game

    clock = time.time()
    feats, seats, games, results, margins = [], [], [], [], []
    cands, decision, chosen, turns, views, view_ids = [], [], [], [], [], []
    for i in range(start, start + count):
        g = play_teacher_game(_AZ, sims, seed, i, choices)
        if g.result is None:
            continue
        cands.append(g.candidates)
        decision.append(g.decision + 1000 * i)  # unique per game: fewer than 1000 moves
        chosen.append(g.chosen)
        turns.append(g.turns)
        views.append(g.views)
        view_ids.append(np.unique(g.decision) + 1000 * i)
        feats.append(g.features)
        seats.append(g.seats)
        games.append(np.full(len(g.seats), i, dtype=np.int64))
        results.append(np.array(g.result, dtype=np.int64)[g.seats])
        pts = np.array(g.points, dtype=np.int64)
        margins.append((pts - pts[::-1])[g.seats])
    arrays = {"features": np.concatenate(feats) if feats else np.zeros((0, NF)),
              "seat": np.concatenate(seats) if seats else np.zeros(0, dtype=np.int64),
              "game": np.concatenate(games) if games else np.zeros(0, dtype=np.int64),
              "result": np.concatenate(results) if results else np.zeros(0, dtype=np.int64),
              "ahead": np.concatenate(margins) if margins else np.zeros(0, dtype=np.int64),
              "sims": np.array(sims), "seed": np.array(seed), "start": np.array(start),
              "count": np.array(count)}
    if choices and cands:
        arrays.update(candidates=np.concatenate(cands), decision=np.concatenate(decision),
                      chosen=np.concatenate(chosen), turns=np.concatenate(turns),
                      views=np.concatenate(views), view_decision=np.concatenate(view_ids))
    with atomic_open(Path(path)) as fh:
        np.savez(fh, **arrays)
    return len(arrays["seat"]), time.time() - clock


def generate(args: argparse.Namespace, root: Path, weights: Path) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    todo = []
    for start in range(0, args.games, args.block):
        path = out / f"block-{start:05d}.npz"
        if not path.exists():
            todo.append((start, min(args.block, args.games - start), str(path)))
    done = (args.games + args.block - 1) // args.block - len(todo)
    print(f"{len(todo)} blocks to play ({done} on disk), {args.jobs} process(es)",
          file=sys.stderr)
    clock = time.time()
    with ProcessPoolExecutor(args.jobs, initializer=_worker_init,
                             initargs=(str(root), str(weights), args.simulations)) as pool:
        futures = {pool.submit(_block, args.simulations, args.seed, s, c, p, args.choices): s
                   for s, c, p in todo}
        for k, fut in enumerate(as_completed(futures), 1):
            samples, secs = fut.result()
            print(f"block {futures[fut]}: {samples} samples in {secs:.0f} s; {k} of "
                  f"{len(todo)} done, {time.time() - clock:.0f} s", file=sys.stderr)
    return 0


def fit(args: argparse.Namespace) -> int:
    from games.splendor._learned import LearnedModel, save_model
    from games.splendor.learning._value import RidgeValue

    blocks = sorted(Path(args.out).glob("block-*.npz"))
    if not blocks:
        raise InputError(f"--out {args.out}: no blocks to fit (play them first)")
    data = [np.load(b) for b in blocks]
    x = np.concatenate([d["features"] for d in data])
    y = (np.concatenate([d["result"] for d in data]).astype(np.float64)
         + args.margin * np.clip(np.concatenate([d["ahead"] for d in data]), -15, 15))
    games = sum(len(np.unique(d["game"])) for d in data)
    value = RidgeValue(args.ridge, 1.0)
    value.update(x, y)
    meta = {"teacher": "alphazero", "simulations": int(data[0]["sims"]),
            "seed": int(data[0]["seed"]), "games_trained": games, "samples": int(len(y)),
            "margin": args.margin, "ridge": args.ridge}
    save_model(LearnedModel(value.weights(), meta), args.fit)
    print(json.dumps(meta))
    return 0


def _choices(out: str) -> list[Any]:
    blocks = [np.load(b) for b in sorted(Path(out).glob("block-*.npz"))]
    blocks = [d for d in blocks if "candidates" in d.files]
    if not blocks:
        raise InputError(f"--out {out}: no blocks with choices (play them with "
                         "--choices first)")
    return blocks


def decisions(block: Any) -> list[tuple[np.ndarray, int]]:
    """(candidate features, index of AlphaZero's choice) per recorded move of a block."""
    x, dec, ch = block["candidates"], block["decision"], block["chosen"]
    order = np.argsort(dec, kind="stable")
    x, dec, ch = x[order], dec[order], ch[order]
    starts = np.flatnonzero(np.r_[True, dec[1:] != dec[:-1]])
    ends = np.r_[starts[1:], len(dec)]
    return [(x[a:b], int(np.flatnonzero(ch[a:b])[0]))
            for a, b in zip(starts, ends, strict=True)]


def fit_rank(moves: list[tuple[np.ndarray, int]], pairs: int, c: float,
             rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Linear weights that rank each move's candidates as AlphaZero chose: logistic
    regression on (choice - other) feature differences, both signs, up to ``pairs`` others a
    move; (weights, the differences fitted)."""
    from sklearn.linear_model import LogisticRegression

    diffs = []
    for x, pick in moves:
        others = np.delete(np.arange(len(x)), pick)
        if len(others) > pairs:
            others = rng.choice(others, pairs, replace=False)
        diffs.append(x[pick] - x[others])
    z = np.concatenate(diffs)
    scale = z.std(axis=0)
    scale[scale == 0] = 1.0
    clf = LogisticRegression(C=c, fit_intercept=False, max_iter=2000)
    clf.fit(np.vstack([z / scale, -z / scale]), np.r_[np.ones(len(z)), np.zeros(len(z))])
    return clf.coef_[0] / scale, z


def rank_agreement(moves: list[tuple[np.ndarray, int]], w: np.ndarray) -> tuple[float, float]:
    """How often weights ``w`` rank AlphaZero's choice first among a move's candidates, and
    above each other candidate (pairs)."""
    top, pairs = [], []
    for x, pick in moves:
        v = x @ w
        top.append(int(np.argmax(v)) == pick)
        pairs.append(float(np.mean(v[pick] > np.delete(v, pick))))
    return float(np.mean(top)), float(np.mean(pairs))


def agreement(args: argparse.Namespace) -> int:
    """How often each model's value ranks AlphaZero's choice first among the turns allowed
    (one turn deep, no search), and above each other turn (pairs)."""
    from games.splendor._features import NF
    from games.splendor._learned import load_model

    moves = [m for b in _choices(args.out) for m in decisions(b)]
    for path in args.agree:
        top, pairs = rank_agreement(moves, load_model(path).weights[:NF])
        print(json.dumps({"model": path, "decisions": len(moves), "first_as_alphazero": top,
                          "pairs_as_alphazero": pairs}))
    return 0


def fit_choices(args: argparse.Namespace) -> int:
    """Comparison training (:func:`fit_rank`), so that the value ranks the positions after a
    move as AlphaZero chose; then one scale and bias fitted so that the value predicts the
    game results of the recorded positions (least squares), as a search leaf needs."""
    from games.splendor._features import NF
    from games.splendor._learned import LearnedModel, save_model

    blocks = _choices(args.out)
    moves = [m for b in blocks for m in decisions(b)]
    rank, z = fit_rank(moves, args.pairs, args.c, np.random.default_rng(args.seed))
    agree = float(np.mean(z @ rank > 0))
    x = np.concatenate([d["features"] for d in blocks])
    y = np.concatenate([d["result"] for d in blocks]).astype(np.float64)
    a, b = np.polyfit(x[:, :NF] @ rank, y, 1)
    weights = np.r_[a * rank, b]
    meta = {"teacher": "alphazero", "fit": "choices", "simulations": int(blocks[0]["sims"]),
            "seed": int(blocks[0]["seed"]), "decisions": len(moves), "pairs": int(len(z)),
            "pairs_ranked_as_alphazero": agree, "scale": float(a), "c": args.c}
    save_model(LearnedModel(weights, meta), args.fit_choices)
    print(json.dumps(meta))
    return 0


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--az", required=True, help="a checkout of cestpasphoto/alpha-zero-general")
    ap.add_argument("--model", help="AlphaZero's model file (default: the checkout's)")
    ap.add_argument("--simulations", type=int, default=100)
    ap.add_argument("-n", "--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--block", type=int, default=25)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", required=True, help="folder of the blocks")
    ap.add_argument("--fit", help="fit the value on the blocks and write this model file")
    ap.add_argument("--choices", action="store_true",
                    help="also record AlphaZero's choice among the turns allowed")
    ap.add_argument("--fit-choices", help="fit the value on the recorded choices "
                    "(comparison training) and write this model file")
    ap.add_argument("--agree", nargs="+", help="model files: how often each ranks "
                    "AlphaZero's recorded choices first")
    ap.add_argument("--pairs", type=int, default=8,
                    help="other turns compared with each choice (at most)")
    ap.add_argument("--c", type=float, default=1.0, help="inverse L2 penalty of the fit")
    ap.add_argument("--margin", type=float, default=0.02)
    ap.add_argument("--ridge", type=float, default=1.0)
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    from games.splendor.alphazero import _checkout as checkout

    try:
        if args.fit:
            return fit(args)
        if args.fit_choices:
            return fit_choices(args)
        if args.agree:
            return agreement(args)
        if args.simulations < 1 or args.games < 1 or args.block < 1 or args.jobs < 1:
            raise InputError("--simulations, -n, --block and --jobs take 1 or more")
        root, weights = checkout.check_checkout(args.az, args.model)
        checkout.referee(root)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return generate(args, root, weights)


if __name__ == "__main__":
    sys.exit(main())
