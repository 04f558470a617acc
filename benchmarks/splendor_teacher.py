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


def _block(sims: int, seed: int, start: int, count: int, path: str) -> tuple[int, float]:
    """Games ``start .. start+count-1`` written to ``path``; (samples, seconds)."""
    from games.atomic import atomic_open
    from games.splendor.alphazero._teacher import play_teacher_game

    clock = time.time()
    feats, seats, games, results, margins = [], [], [], [], []
    for i in range(start, start + count):
        g = play_teacher_game(_AZ, sims, seed, i)
        if g.result is None:
            continue
        feats.append(g.features)
        seats.append(g.seats)
        games.append(np.full(len(g.seats), i, dtype=np.int64))
        results.append(np.array(g.result, dtype=np.int64)[g.seats])
        pts = np.array(g.points, dtype=np.int64)
        margins.append((pts - pts[::-1])[g.seats])
    arrays = {"features": np.concatenate(feats) if feats else np.zeros((0, 33)),
              "seat": np.concatenate(seats) if seats else np.zeros(0, dtype=np.int64),
              "game": np.concatenate(games) if games else np.zeros(0, dtype=np.int64),
              "result": np.concatenate(results) if results else np.zeros(0, dtype=np.int64),
              "ahead": np.concatenate(margins) if margins else np.zeros(0, dtype=np.int64),
              "sims": np.array(sims), "seed": np.array(seed), "start": np.array(start),
              "count": np.array(count)}
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
        futures = {pool.submit(_block, args.simulations, args.seed, s, c, p): s
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
    ap.add_argument("--margin", type=float, default=0.02)
    ap.add_argument("--ridge", type=float, default=1.0)
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    from games.splendor.alphazero import _checkout as checkout

    try:
        if args.fit:
            return fit(args)
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
