"""The Optuna side: studies on a journal file or a database, trials to a shared budget,
re-evaluation of the best on fresh seeds.

Public (everything else is private; each name loads its module on first use):

- :func:`run_study`, :func:`open_study`, :func:`load_study`, :class:`RunSummary`,
  :class:`StudyStopped`, :func:`state_counts` (``_runner``);
- :func:`reevaluate`, :func:`best_result`, :data:`ATTR` (``_reevaluate``), :func:`describe`
  (``_confirm``: a confirmed best in words), :func:`note_reevaluations` (``_note``);
- :func:`check` (``_deviation``: the one-step deviation check);
- :func:`open_storage`, :func:`default_location`, :func:`study_names`, :func:`in_runs_dir`,
  :func:`trial_owner` (``_storage``: journals checked and repaired on open, RDB URLs);
- :func:`make_sampler` (``_samplers``), :func:`serve` (``_grpc_proxy``).
"""

from typing import TYPE_CHECKING

from games.lazy_exports import lazy_exports

if TYPE_CHECKING:  # what the names are, for type checkers; loaded on first use
    from tuning.study._confirm import describe
    from tuning.study._deviation import check
    from tuning.study._grpc_proxy import serve
    from tuning.study._note import note_reevaluations
    from tuning.study._reevaluate import ATTR, best_result, reevaluate
    from tuning.study._runner import (
        RunSummary,
        StudyStopped,
        load_study,
        open_study,
        run_study,
        state_counts,
    )
    from tuning.study._samplers import make_sampler
    from tuning.study._storage import (
        default_location,
        in_runs_dir,
        open_storage,
        study_names,
        trial_owner,
    )

#: each public name and the private module that defines it
_EXPORTS = {
    "describe": "_confirm",
    "check": "_deviation",
    "serve": "_grpc_proxy",
    "note_reevaluations": "_note",
    "ATTR": "_reevaluate",
    "best_result": "_reevaluate",
    "reevaluate": "_reevaluate",
    "load_study": "_runner",
    "open_study": "_runner",
    "run_study": "_runner",
    "RunSummary": "_runner",
    "state_counts": "_runner",
    "StudyStopped": "_runner",
    "make_sampler": "_samplers",
    "default_location": "_storage",
    "in_runs_dir": "_storage",
    "open_storage": "_storage",
    "study_names": "_storage",
    "trial_owner": "_storage",
}
__all__ = [
    "ATTR", "best_result", "check", "default_location", "describe", "in_runs_dir", "load_study",
    "make_sampler", "note_reevaluations", "open_storage", "open_study", "reevaluate", "run_study",
    "RunSummary", "serve", "state_counts", "study_names", "StudyStopped", "trial_owner",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
