"""The DEAP side: evolutions of genomes that checkpoint atomically and resume exactly.

- :class:`Evolution` and its settings, scores and result (``engine``);
- :func:`build_evolution`, :func:`best_of` (:class:`BestOf`), :func:`default_checkpoint`
  (``runner``: from a study spec to a running evolution on the run's worker pool);
- :func:`save_checkpoint` / :func:`load_checkpoint` (``checkpoint``);
- :class:`GenomeKind`, :func:`make_kind` (``genomes``: each game offers its kinds).
"""

from tuning.evolution.checkpoint import load_checkpoint, save_checkpoint
from tuning.evolution.engine import (
    Evolution,
    EvolutionInterrupted,
    EvolutionResult,
    EvolveSettings,
    Score,
    format_row,
)
from tuning.evolution.genomes import GenomeKind, make_kind
from tuning.evolution.runner import (
    BestOf,
    best_of,
    build_evolution,
    default_checkpoint,
    genome_kind,
)

__all__ = [
    "BestOf", "Evolution", "EvolutionInterrupted", "EvolutionResult", "EvolveSettings",
    "GenomeKind", "Score", "best_of", "build_evolution", "default_checkpoint", "format_row",
    "genome_kind", "load_checkpoint", "make_kind", "save_checkpoint",
]
