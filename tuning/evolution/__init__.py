"""The DEAP side: evolutions of genomes that checkpoint atomically and resume exactly.

Public (everything else is private; each name loads its module on first use):

- :class:`Evolution` and its settings, scores and result, :func:`format_row` (``_engine``);
- :func:`build_evolution`, :func:`best_of` (:class:`BestOf`), :func:`default_checkpoint`,
  :func:`genome_kind`, :func:`checkpoint_result`, :func:`reevaluate`, :func:`run_flags`,
  :data:`RUN_SETTINGS` (``_runner``: from a study spec to a running evolution on the run's
  worker pool);
- :func:`save_checkpoint` / :func:`load_checkpoint` (``_checkpoint``);
- :class:`GenomeKind`, :func:`make_kind` (``_genomes``: each game offers its kinds).
"""

from typing import TYPE_CHECKING

from games.lazy_exports import lazy_exports

if TYPE_CHECKING:  # what the names are, for type checkers; loaded on first use
    from tuning.evolution._checkpoint import load_checkpoint, save_checkpoint
    from tuning.evolution._engine import (
        Evolution,
        EvolutionInterrupted,
        EvolutionResult,
        EvolveSettings,
        Score,
        format_row,
    )
    from tuning.evolution._genomes import GenomeKind, make_kind
    from tuning.evolution._runner import (
        RUN_SETTINGS,
        BestOf,
        best_of,
        build_evolution,
        checkpoint_result,
        checkpoint_seed,
        default_checkpoint,
        genome_kind,
        reevaluate,
        run_flags,
    )

#: each public name and the private module that defines it
_EXPORTS = {
    "load_checkpoint": "_checkpoint",
    "save_checkpoint": "_checkpoint",
    "Evolution": "_engine",
    "EvolutionInterrupted": "_engine",
    "EvolutionResult": "_engine",
    "EvolveSettings": "_engine",
    "format_row": "_engine",
    "Score": "_engine",
    "GenomeKind": "_genomes",
    "make_kind": "_genomes",
    "best_of": "_runner",
    "BestOf": "_runner",
    "build_evolution": "_runner",
    "checkpoint_result": "_runner",
    "checkpoint_seed": "_runner",
    "default_checkpoint": "_runner",
    "genome_kind": "_runner",
    "reevaluate": "_runner",
    "run_flags": "_runner",
    "RUN_SETTINGS": "_runner",
}
__all__ = [
    "best_of", "BestOf", "build_evolution", "checkpoint_result", "checkpoint_seed",
    "default_checkpoint", "Evolution",
    "EvolutionInterrupted", "EvolutionResult", "EvolveSettings", "format_row", "genome_kind",
    "GenomeKind", "load_checkpoint", "make_kind", "reevaluate", "run_flags", "RUN_SETTINGS",
    "save_checkpoint", "Score",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
