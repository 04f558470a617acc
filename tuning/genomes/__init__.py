"""Genome kinds that DEAP evolves: plain gene lists, their operators and their text form.

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

import importlib
from collections.abc import Mapping
from typing import Any, Protocol

from games.core import InputError

#: genome kind name -> "module:factory"; factories take the spec's [genome] table.
KINDS: dict[str, str] = {
    "deckbuilder-buylist": "tuning.genomes.deckbuilder_buylist:make_kind",
    "dominion-buylist": "tuning.genomes.dominion_buylist:make_kind",
}

#: genome kind name -> objective adapter that scores its genomes (None: the game's adapter)
OBJECTIVE_MODULES: dict[str, str | None] = {
    "deckbuilder-buylist": "tuning.objectives.deckbuilder_buylist",
    "dominion-buylist": "tuning.objectives.dominion_buylist",
}


def objective_reference(kind: str) -> str | None:
    """The objective adapter module of a genome kind, if it has its own."""
    return OBJECTIVE_MODULES.get(kind)


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


def make_kind(name: str, options: Mapping[str, Any] | None = None) -> GenomeKind:
    """Build the genome kind ``name`` with its options (the spec's [genome] table)."""
    if name not in KINDS:
        raise InputError(f"unknown genome kind {name!r}; known: {', '.join(sorted(KINDS))}")
    module, factory = KINDS[name].split(":")
    return getattr(importlib.import_module(module), factory)(dict(options or {}))
