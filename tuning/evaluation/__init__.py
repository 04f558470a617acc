"""One evaluation path for Optuna trials, DEAP generations, re-evaluation and matches.

Public (everything else is private; each name loads its module on first use):

- :class:`Scorer`, :class:`LineUp`, :func:`line_ups`, :func:`candidate_bot`,
  :func:`opponent_seed` (``_scoring``): what a worker needs to score a candidate (game,
  options, objective, opponent pool), plain picklable data;
- :class:`WorkerPool`, :data:`BACKENDS`, :func:`backend_context`, :func:`resolve_jobs`
  (``_pool``): the run's workers, opened once per run (loky, Ray or Dask);
- :func:`evaluate` / :func:`evaluate_many`: one candidate with pruning, or many at once;
  :func:`evaluate_stream`: candidates one after another with no gap between them;
  :class:`Evaluation`, :func:`paired_difference`, :func:`derived_seed` (``_evaluator``);
- :func:`run_match` (``_match``): the one match runner of `tabletune play`, ladders and
  reproductions; :func:`connect_seconds` (``_cluster``).
"""

from typing import TYPE_CHECKING

from games.lazy_exports import lazy_exports

if TYPE_CHECKING:  # what the names are, for type checkers; loaded on first use
    from tuning.evaluation._cluster import connect_seconds
    from tuning.evaluation._evaluator import (
        Evaluation,
        derived_seed,
        evaluate,
        evaluate_many,
        evaluate_stream,
        paired_difference,
    )
    from tuning.evaluation._match import run_match
    from tuning.evaluation._pool import BACKENDS, WorkerPool, backend_context, resolve_jobs
    from tuning.evaluation._scoring import LineUp, Scorer, candidate_bot, line_ups, opponent_seed

#: each public name and the private module that defines it
_EXPORTS = {
    "connect_seconds": "_cluster",
    "derived_seed": "_evaluator",
    "evaluate": "_evaluator",
    "evaluate_many": "_evaluator",
    "evaluate_stream": "_evaluator",
    "Evaluation": "_evaluator",
    "paired_difference": "_evaluator",
    "run_match": "_match",
    "backend_context": "_pool",
    "BACKENDS": "_pool",
    "resolve_jobs": "_pool",
    "WorkerPool": "_pool",
    "candidate_bot": "_scoring",
    "line_ups": "_scoring",
    "LineUp": "_scoring",
    "opponent_seed": "_scoring",
    "Scorer": "_scoring",
}
__all__ = [
    "backend_context", "BACKENDS", "candidate_bot", "connect_seconds", "derived_seed", "evaluate",
    "evaluate_many", "evaluate_stream", "Evaluation", "line_ups", "LineUp", "opponent_seed",
    "paired_difference", "resolve_jobs", "run_match", "Scorer", "WorkerPool",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
