"""Reports of studies and evolutions: ``index.html`` (opens with no network), ``README.md``
with the key tables and the commands that made them, and PNG figures.

- :func:`build_study_report` (``study``), :func:`build_evolution_report` (``evolution``);
- ``page``: the shared page, table and figure helpers;
- ``summary``: ``run.json``, the best and its figure that ``best:STUDY`` reads on a fresh
  clone (both builders write it).
"""

from tuning.reporting.evolution import build_evolution_report
from tuning.reporting.study import build_study_report

__all__ = ["build_evolution_report", "build_study_report"]
