"""One evaluation path for Optuna trials, DEAP generations, re-evaluation and matches.

- :class:`Scorer`: what a worker needs to score a candidate (game, options, objective,
  opponent pool), plain picklable data;
- :class:`WorkerPool`: the run's workers, opened once per run (loky, Ray or Dask);
- :func:`evaluate` / :func:`evaluate_many`: one candidate with pruning, or many at once;
  :func:`evaluate_stream`: candidates one after another with no gap between them;
- :class:`Evaluation`, :func:`paired_difference`, :func:`derived_seed`.
"""

from tuning.evaluation.evaluator import (
    Evaluation,
    derived_seed,
    evaluate,
    evaluate_many,
    evaluate_stream,
    paired_difference,
)
from tuning.evaluation.pool import BACKENDS, WorkerPool, backend_context, resolve_jobs
from tuning.evaluation.scoring import Scorer, candidate_bot, opponent_seed

__all__ = [
    "BACKENDS", "Evaluation", "Scorer", "WorkerPool", "backend_context", "candidate_bot",
    "derived_seed", "evaluate", "evaluate_many", "evaluate_stream", "opponent_seed",
    "paired_difference", "resolve_jobs",
]
