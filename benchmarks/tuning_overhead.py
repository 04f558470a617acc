"""Optuna's own share of study time: sampling, storage writes and pruning vs the games run.

Runs a study spec (default: dominion-heuristic) for a number of trials on a fresh journal
file in a temporary folder and splits the wall time of the trial loop into the games
(objective evaluation) and everything else (Optuna: ask/sample, journal writes, report,
should_prune, tell). Prints one line per repeat and the best (lowest-overhead) repeat.
Repeat r runs the study with root seed ``seed + r``, so repeats try other candidates and do
not just hit values cached in the process (the deck-building model caches exact values).
With TABLETUNE_JOURNAL_FSYNC=1 the journal syncs every record to disk, as Optuna's own
backend does.

    python benchmarks/tuning_overhead.py [STUDY] [--trials N] [--repeats R] [--pruner P]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from games.core import BotSpec
from tuning._best import resolve_opponents
from tuning._spec import load_spec
from tuning.evaluation import evaluate
from tuning.study._runner import run_study


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("study", nargs="?", default="dominion-heuristic")
    ap.add_argument("--trials", type=int, default=60)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--pruner", default=None, help="override the spec's pruner")
    args = ap.parse_args()
    spec = resolve_opponents(load_spec(args.study).with_overrides(trials=args.trials))
    if args.pruner:
        import dataclasses
        spec = spec.replace(optuna=dataclasses.replace(spec.optuna, pruner=args.pruner))
    # warm up the engine (numba compilation/cache load) outside the measurement
    t0 = time.perf_counter()
    evaluate(spec.scorer(), BotSpec(spec.strategy), games=spec.evaluation.block, seed=0,
             block=spec.evaluation.block)
    print(f"{spec.name}: warm-up {time.perf_counter() - t0:.2f}s; {args.trials} trials, "
          f"{spec.evaluation.games} games per full evaluation, sampler "
          f"{spec.optuna.sampler}, pruner {spec.optuna.pruner}, journal storage")
    best = None
    for r in range(args.repeats):
        run_spec = spec.with_overrides(seed=spec.evaluation.seed + r)
        with tempfile.TemporaryDirectory() as tmp:
            s = run_study(run_spec, str(Path(tmp) / "bench.journal"), reevaluate_best=False)
        optuna_s = s.seconds - s.objective_seconds
        row = (s.optuna_share, optuna_s / max(1, s.trials_run_here))
        speed = (f"{s.games / s.objective_seconds:,.0f} games/s" if s.games
                 else "exact evaluation")
        print(f"repeat {r + 1} (seed {run_spec.evaluation.seed}): loop {s.seconds:.2f}s, "
              f"games {s.games:,} in {s.objective_seconds:.2f}s ({speed}), "
              f"Optuna {optuna_s:.2f}s = {100 * row[0]:.1f}% of the loop, "
              f"{1000 * row[1]:.1f} ms per trial; "
              f"{s.counts.get('PRUNED', 0)} of {s.trials_run_here} trials pruned")
        best = row if best is None or row[0] < best[0] else best
    assert best is not None
    print(f"best: Optuna overhead {100 * best[0]:.1f}% of trial time, "
          f"{1000 * best[1]:.1f} ms per trial")


if __name__ == "__main__":
    main()
