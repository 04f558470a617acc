"""The Optuna side: studies on a journal file or a database, trials to a shared budget,
re-evaluation of the best on fresh seeds.

- :func:`run_study`, :func:`open_study`, :class:`RunSummary` (``runner``);
- :func:`reevaluate`, :func:`best_result` (``reevaluate``);
- :func:`open_storage` (``storage``: journals checked and repaired on open, RDB URLs).
"""

from tuning.study.reevaluate import best_result, reevaluate
from tuning.study.runner import RunSummary, open_study, run_study, state_counts
from tuning.study.storage import open_storage

__all__ = ["RunSummary", "best_result", "open_storage", "open_study", "reevaluate",
           "run_study", "state_counts"]
