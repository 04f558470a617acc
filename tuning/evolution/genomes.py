"""Genome kinds that DEAP evolves (each game offers its own through
:meth:`games.registry.Game.genome_kinds`): plain gene lists, their operators and their text form.

A genome is a plain Python list of genes (ints, strings, tuples), so it pickles, compares
with ``==`` and travels to worker processes as its one-line text form. Each kind offers:

- ``random(rng)``: a valid random genome;
- ``mutate(genes, rng)`` / ``crossover(a, b, rng)``: new valid genomes (inputs untouched);
- ``to_text(genes)`` / ``from_text(text)``: the one-line form the game's strategy parses;
- ``validate(genes)``: raise ``ValueError`` naming what is wrong.

``rng`` is a ``random.Random``-like object (the evolution passes Python's ``random`` module,
the generator DEAP itself draws from, so one saved state covers every draw).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from games import registry
from games.core import InputError


class GenomeKind(Protocol):
    """What the evolution needs from a genome kind."""

    name: str

    def random(self, rng: Any) -> list[Any]: ...

    def mutate(self, genes: list[Any], rng: Any) -> list[Any]: ...

    def crossover(self, a: list[Any], b: list[Any], rng: Any) -> tuple[list[Any], list[Any]]:
        ...

    def to_text(self, genes: list[Any]) -> str: ...

    def from_text(self, text: str) -> list[Any]: ...

    def validate(self, genes: list[Any]) -> None: ...

    def seed_genomes(self) -> list[list[Any]]: ...


def make_kind(game: str, name: str, options: Mapping[str, Any] | None = None) -> GenomeKind:
    """Build the genome kind ``name`` of ``game`` (from its registry description)."""
    kinds = registry.get(game).genome_kinds()
    if name not in kinds:
        raise InputError(f"unknown genome kind {name!r} for {game}; known: "
                         f"{', '.join(sorted(kinds)) or 'none'}")
    return kinds[name](dict(options or {}))
