"""DEAP creator classes, created exactly once for the whole project.

DEAP's ``creator.create`` adds classes to the ``deap.creator`` module; creating them twice
warns and replaces them, which breaks pickled individuals. Every module that needs an
individual imports it from here. Checkpoints store plain genes and fitness values, never
these classes, so a checkpoint does not depend on them.
"""

from __future__ import annotations

from typing import Any

from deap import base, creator

if not hasattr(creator, "TabletuneFitnessMax"):
    creator.create("TabletuneFitnessMax", base.Fitness, weights=(1.0,))
if not hasattr(creator, "TabletuneFitnessMin"):
    creator.create("TabletuneFitnessMin", base.Fitness, weights=(-1.0,))
if not hasattr(creator, "TabletuneIndividualMax"):
    creator.create("TabletuneIndividualMax", list, fitness=creator.TabletuneFitnessMax)
if not hasattr(creator, "TabletuneIndividualMin"):
    creator.create("TabletuneIndividualMin", list, fitness=creator.TabletuneFitnessMin)

FitnessMax = creator.TabletuneFitnessMax
FitnessMin = creator.TabletuneFitnessMin
IndividualMax = creator.TabletuneIndividualMax
IndividualMin = creator.TabletuneIndividualMin


def individual_class(direction: str) -> Any:
    """The individual class (a list of genes with a one-objective fitness) for a direction."""
    if direction == "maximize":
        return IndividualMax
    if direction == "minimize":
        return IndividualMin
    raise ValueError(f"direction must be 'maximize' or 'minimize', not {direction!r}")


def make_individual(genes: list[Any], direction: str = "maximize",
                    fitness: float | None = None) -> Any:
    """An individual holding a copy of ``genes``, with its fitness set when given."""
    ind = individual_class(direction)(list(genes))
    if fitness is not None:
        ind.fitness.values = (float(fitness),)
    return ind
