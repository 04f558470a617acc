"""Genome kinds that DEAP evolves (each game offers its own through the game's
``genome_kinds``, :mod:`games.capabilities`): plain gene lists, their operators and their
text form.

A genome is a plain Python list of genes (ints, strings, tuples), so it pickles, compares
with ``==`` and travels to worker processes as its one-line text form. Each kind offers:

- ``random(rng)``: a valid random genome;
- ``mutate(genes, rng)`` / ``crossover(a, b, rng)``: new valid genomes (inputs untouched);
- ``to_text(genes)`` / ``from_text(text)``: the one-line form the game's strategy parses;
- ``validate(genes)``: raise ``ValueError`` naming what is wrong.

``rng`` is a ``random.Random``-like object (the evolution passes Python's ``random`` module,
the generator DEAP itself draws from, so one saved state covers every draw). The protocol,
:class:`GenomeKind`, and how a genome travels to the game as text are documented for game
authors in :mod:`games.capabilities`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import registry
from games.capabilities import GenomeKind, use
from games.core import InputError

__all__ = ["GenomeKind", "make_kind"]


def make_kind(game: str, name: str, options: Mapping[str, Any] | None = None) -> GenomeKind:
    """Build the genome kind ``name`` of ``game`` (from its registry description)."""
    kinds = use(registry.get(game), "genomes").genome_kinds()
    if name not in kinds:
        raise InputError(f"unknown genome kind {name!r} for {game}; known: "
                         f"{', '.join(sorted(kinds)) or 'none'}")
    return kinds[name](dict(options or {}))
