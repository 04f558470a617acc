"""Report yardsticks: what an evolution report puts beside its best genome, game by game.

By default a report plays the best genome against each opponent of the spec alone, on fresh
seeds, and shows wins, ties, losses and intervals. A game whose reports say more returns a
:class:`Yardstick` from its ``yardstick()`` hook (the ``report`` capability) and overrides
any of its three hooks: a reference line for the fitness figure (a known optimum), a table
of its own in place of the default one (exact values, say), or sentences after the default
table (published targets). The tuning layer calls the hooks with plain data (options, the
best genome as text, the default table's rows), so a game never imports the tuning layer,
and the tuning layer names no game. """

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["BaselineTable", "Companion", "Yardstick"]


@dataclass
class BaselineTable:
    """Rows (JSON), their table, the bar figure's arguments and a sentence that reads them.

    ``figure`` is ``(bars, ylabel, reference)``: bars as ``(label, value, low, high)``, the
    axis label, and a horizontal reference value (or None)."""

    rows: list[dict[str, Any]]
    head: list[str]
    table: list[list[Any]]
    figure: tuple[Any, ...]
    note: str = ""


@dataclass(frozen=True)
class Companion:
    """A finished evolution of a companion study (``<study>-<suffix>``, same game): its
    name, checked options, best genome as text and that genome's fitness."""

    study: str
    options: Mapping[str, Any]
    genome: str
    fitness: float


class Yardstick:
    """Hooks of an evolution report; each default keeps the generic report."""

    def reference(self, options: Mapping[str, Any], objective: str
                  ) -> tuple[str, float] | None:
        """A labelled horizontal line for the fitness figure (e.g. a known optimum)."""
        return None

    def table(self, best: str, options: Mapping[str, Any],
              companions: Callable[[], list[Companion]]) -> BaselineTable | None:
        """A table in place of the default one (None: the default). ``best`` is the best
        genome as text; ``companions()`` lists the finished companion evolutions."""
        return None

    def notes(self, opponents: Sequence[str], rows: list[dict[str, Any]]) -> str:
        """Sentences after the default table's note. ``rows`` hold, per opponent, its
        ``opponent``, ``games``, ``wins``, ``ties``, ``losses``, ``score`` and ``ci95``."""
        return ""
