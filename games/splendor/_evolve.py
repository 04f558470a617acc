"""One move's evolution with DEAP: the loop of the online genetic players.

The only module of ``games`` that imports DEAP (it is imported when a genetic player first
moves, so importing the engine stays numpy/numba only). DEAP's operators draw from Python's
``random`` module; for each move the module's functions are pointed at a private
``random.Random`` seeded from the player's injected generator (the draws a seeded module
would make) and pointed back afterwards, so the evolution is a function of (position, seed)
alone, a match gives the same games in any process, with any number of workers, and the
module's own state is never touched (saving and restoring it cost some 50 microseconds a
move, a sixth of a move at Minimax(3)'s time).

The loop is DEAP's ``eaSimple`` with ``varAnd`` written out, so each child remembers how it
was made (and only children that change are copied): tournament selection, crossover of
consecutive pairs with ``cxpb``, mutation with ``mutpb``, then only the changed chromosomes
are simulated (one numba call per generation). The best plan ever seen (a one-place hall of
fame) gives the move. Per generation it records the evaluations and the best fitness and,
with ``detail``, what the thesis measured: the share of distinct chromosomes and of
distinct expressed prefixes, and how often crossover and mutation made a child better than
its parents. Times are wall seconds (a CPU clock costs microseconds a reading here); on a
shared machine preemption falls on every section alike, so the shares hold.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

import numpy as np
from deap import base, tools

from games.splendor._genetic_params import GeneticParams


class PlanFitness(base.Fitness):
    """One maximised objective: F at the end of the plan."""

    weights = (1.0,)


class Plan(list):
    """A chromosome (list of int genes) with its fitness, the first move it plays and the
    number of genes its simulation read."""

    def __init__(self, genes: Any = ()) -> None:
        super().__init__(genes)
        # what PlanFitness() gives, without its checks of the weights (an abc isinstance)
        self.fitness = PlanFitness.__new__(PlanFitness)
        self.fitness.wvalues = ()
        self.first = -1
        self.expressed = 0


def clone(plan: Plan) -> Plan:
    """A copy with the same fitness (what DEAP's deepcopy gives, without its cost)."""
    other = Plan.__new__(Plan)
    other.extend(plan)
    fitness = PlanFitness.__new__(PlanFitness)
    fitness.wvalues = plan.fitness.wvalues
    other.fitness = fitness
    other.first = plan.first
    other.expressed = plan.expressed
    return other


@dataclass
class GenerationStats:
    """One generation: evaluations made, best and mean fitness, diversity, operator yield."""

    evaluated: int
    best: float
    mean: float = float("nan")
    distinct: float = float("nan")  # share of distinct chromosomes
    distinct_expressed: float = float("nan")  # ... of distinct expressed prefixes
    cx_children: int = 0  # evaluated children of a crossover
    cx_better: int = 0  # ... fitter than the better parent
    mut_children: int = 0  # evaluated children of a mutation alone
    mut_better: int = 0  # ... fitter than their parent


@dataclass
class MoveStats:
    """One move's evolution and where its time went (seconds)."""

    generations: list[GenerationStats] = field(default_factory=list)
    evaluations: int = 0
    seconds: float = 0.0  # the whole evolution
    simulation: float = 0.0  # inside the numba plan simulations
    deap: float = 0.0  # inside DEAP: initialisation, selection, crossover, mutation, clones


#: scores a batch: (gene matrix) -> (fitness, first move, genes read); may rewrite genes
Evaluator = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class Problem:
    """What one move evolves: chromosome length, gene range, kind and its simulator."""

    length: int
    alphabet: int  # genes lie in [0, alphabet)
    permutation: bool
    evaluate: Evaluator
    rewrites: bool = False  # the simulator repairs genes (copy them back)
    seeds: tuple = ()  # chromosomes that open the first generation (the rest random)
    goals: tuple = ()  # what each gene value stands for (permutations of goals)


class Operators:
    """DEAP's operators of one problem, called directly: a ``base.Toolbox`` built every move
    and its partials cost a few percent of a move at Minimax(3)'s time. The same calls in
    the same order, so the same draws from ``random`` as the toolbox made."""

    def __init__(self, problem: Problem, p: GeneticParams) -> None:
        self.length = problem.length
        self.top = problem.alphabet - 1
        self.permutation = problem.permutation
        self.tournament = p.tournament

    def genes(self) -> list[int]:
        n = self.length
        if self.permutation:
            return random.sample(range(n), n)
        top = self.top
        return [random.randint(0, top) for _ in range(n)]

    def mate(self, a: Plan, b: Plan) -> None:
        if self.permutation:
            tools.cxOrdered(a, b)
        else:
            tools.cxTwoPoint(a, b)

    def mutate(self, plan: list, indpb: float) -> None:
        if self.permutation:
            tools.mutShuffleIndexes(plan, indpb)
        else:
            tools.mutUniformInt(plan, 0, self.top, indpb)

    def select(self, pop: list[Plan], k: int) -> list[Plan]:
        return tools.selTournament(pop, k, self.tournament)


def _mutate(tb: Operators, plan: Plan, p: GeneticParams, permutation: bool) -> None:
    """Mutate in place: any gene, or only the expressed prefix (and the gene after it)."""
    if p.mutation == "all":
        if len(plan) >= 2 or not permutation:
            tb.mutate(plan, indpb=p.indpb)
        return
    k = min(len(plan), max(2, plan.expressed + 1))
    if k < 2 and permutation:
        return
    head = plan[:k]
    tb.mutate(head, indpb=max(p.indpb, 1.0 / k))
    plan[:k] = head


def _evaluate(problem: Problem, plans: list[Plan], stats: MoveStats) -> None:
    if not plans:
        return
    genes = np.fromiter(chain.from_iterable(plans), dtype=np.int64,
                        count=len(plans) * problem.length).reshape(len(plans), problem.length)
    t = time.perf_counter()
    fit, first, read = problem.evaluate(genes)
    stats.simulation += time.perf_counter() - t
    stats.evaluations += len(plans)
    # wvalues set directly: what ``fitness.values = (f,)`` stores with weight 1.0
    for plan, f, m, r in zip(plans, fit.tolist(), first.tolist(), read.tolist(),
                             strict=True):
        plan.fitness.wvalues = (f,)
        plan.first = m
        plan.expressed = r
    if problem.rewrites:
        for plan, row in zip(plans, genes.tolist(), strict=True):
            plan[:] = row


def _vary(tb: Operators, kids: list[Plan], p: GeneticParams, permutation: bool,
          can_cross: bool) -> tuple[list, list]:
    """DEAP's varAnd in place over the selected ``kids`` (shared until changed: a clone on
    first write); per child the better parent's fitness before a crossover, and the
    parent's before a mutation alone."""
    owned = [False] * len(kids)

    def mine(i: int) -> Plan:
        if not owned[i]:
            kids[i] = clone(kids[i])
            owned[i] = True
        return kids[i]

    cx_parent: list = [None] * len(kids)
    mut_parent: list = [None] * len(kids)
    if can_cross:
        for i in range(1, len(kids), 2):
            if random.random() < p.cxpb:
                a, b = mine(i - 1), mine(i)
                best = max(a.fitness.values[0], b.fitness.values[0])
                tb.mate(a, b)
                del a.fitness.values, b.fitness.values
                cx_parent[i - 1] = cx_parent[i] = best
    if p.mutation:
        for i in range(len(kids)):
            if random.random() < p.mutpb:
                kid = mine(i)
                if kid.fitness.valid:
                    mut_parent[i] = kid.fitness.values[0]
                _mutate(tb, kid, p, permutation)
                del kid.fitness.values
    return cx_parent, mut_parent


def _generation(pop: list[Plan], evaluated: int, detail: bool) -> GenerationStats:
    values = [p.fitness.values[0] for p in pop]
    if not detail:
        return GenerationStats(evaluated, max(values))
    return GenerationStats(
        evaluated=evaluated, best=max(values), mean=sum(values) / len(values),
        distinct=len({tuple(p) for p in pop}) / len(pop),
        distinct_expressed=len({tuple(p[:p.expressed]) for p in pop}) / len(pop))


_STREAM = random.Random()
#: the ``random`` module's functions (bound to its hidden generator) that DEAP may call
_DRAWS = tuple(name for name, f in vars(random).items()
               if getattr(f, "__self__", None) is random._inst)  # type: ignore[attr-defined]
_OURS = tuple(getattr(_STREAM, name) for name in _DRAWS)


def evolve(problem: Problem, p: GeneticParams, seed: int,
           detail: bool = False) -> tuple[Plan, MoveStats]:
    """Run one move's evolution; the best plan ever simulated and the move's statistics
    (diversity and operator yield too with ``detail``; they cost time)."""
    if p.generations == 1 and len(problem.seeds) >= p.population:
        return _run(problem, p, detail)  # seeds only: nothing to draw, nothing to seed
    _STREAM.seed(seed)
    saved = [getattr(random, name) for name in _DRAWS]
    for name, f in zip(_DRAWS, _OURS, strict=True):
        setattr(random, name, f)
    try:
        return _run(problem, p, detail)
    finally:
        for name, f in zip(_DRAWS, saved, strict=True):
            setattr(random, name, f)


def _run(problem: Problem, p: GeneticParams, detail: bool) -> tuple[Plan, MoveStats]:
    stats = MoveStats()
    t0 = time.perf_counter()
    tb = Operators(problem, p)
    pop = [Plan(g) for g in problem.seeds[:p.population]]
    pop += [Plan(tb.genes()) for _ in range(p.population - len(pop))]
    stats.deap += time.perf_counter() - t0
    _evaluate(problem, pop, stats)
    best = _best(pop, None)
    stats.generations.append(_generation(pop, len(pop), detail))
    can_cross = p.crossover and problem.length >= 2
    for _gen in range(1, p.generations):
        t = time.perf_counter()
        kids = tb.select(pop, len(pop))
        cx_parent, mut_parent = _vary(tb, kids, p, problem.permutation, can_cross)
        stats.deap += time.perf_counter() - t
        fresh = [k for k in kids if not k.fitness.valid]
        _evaluate(problem, fresh, stats)
        row = _generation(kids, len(fresh), detail)
        for i, kid in enumerate(kids if detail else ()):
            f = kid.fitness.values[0]
            if cx_parent[i] is not None:
                row.cx_children += 1
                row.cx_better += f > cx_parent[i]
            elif mut_parent[i] is not None:
                row.mut_children += 1
                row.mut_better += f > mut_parent[i]
        stats.generations.append(row)
        pop[:] = kids
        best = _best(pop, best)
    stats.seconds = time.perf_counter() - t0
    return best, stats


def _best(pop: list[Plan], best: Plan | None) -> Plan:
    """The best plan ever seen, as a one-place ``tools.HallOfFame`` keeps it: the first of
    ``pop`` when there is none yet, then any plan whose fitness is not at most the best's
    (DEAP's ``>``), in population order. Plans are never changed once evaluated (a child is
    a copy), so the record holds the plan itself, not a deep copy."""
    if best is None:
        best = pop[0]
    value = best.fitness.wvalues
    for plan in pop:
        if not plan.fitness.wvalues <= value:
            best, value = plan, plan.fitness.wvalues
    return best
