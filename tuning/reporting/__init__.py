"""Reports of studies and evolutions: ``index.html`` (opens with no network), ``README.md``
with the key tables and the commands that made them, and PNG figures.

Public (everything else is private; each name loads its module on first use):

- :func:`build_study_report` (``_study``), :func:`build_evolution_report` (``_evolution``);
- ``run.json``, the best and its figure that ``best:STUDY`` reads on a fresh clone
  (``_summary``: :data:`FILE`, :func:`read_summary`; both builders write it);
- published studies (``_published``): :func:`describe_published`,
  :func:`confirm_published`, :func:`published_only`;
- pages made from a ``README.md`` (``_readme_page``): :func:`write_readme_page`,
  :func:`render_page`, :func:`readme_folders`, :func:`builds_own_page`.

``_page`` holds the shared page, table and figure helpers.
"""

from typing import TYPE_CHECKING

from games.lazy_exports import lazy_exports

if TYPE_CHECKING:  # what the names are, for type checkers; loaded on first use
    from tuning.reporting._evolution import build_evolution_report
    from tuning.reporting._published import confirm_published, describe_published, published_only
    from tuning.reporting._readme_page import (
        builds_own_page,
        readme_folders,
        render_page,
        write_readme_page,
    )
    from tuning.reporting._study import build_study_report
    from tuning.reporting._summary import FILE, read_summary

#: each public name and the private module that defines it
_EXPORTS = {
    "build_evolution_report": "_evolution",
    "confirm_published": "_published",
    "describe_published": "_published",
    "published_only": "_published",
    "builds_own_page": "_readme_page",
    "readme_folders": "_readme_page",
    "render_page": "_readme_page",
    "write_readme_page": "_readme_page",
    "build_study_report": "_study",
    "FILE": "_summary",
    "read_summary": "_summary",
}
__all__ = [
    "build_evolution_report", "build_study_report", "builds_own_page", "confirm_published",
    "describe_published", "FILE", "published_only", "read_summary", "readme_folders",
    "render_page", "write_readme_page",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
