"""Parameters of the online genetic players (the thesis's chapter 5) and their checks.

Every player runs one evolution per move: ``population`` chromosomes, ``evaluations``
simulated plans in all (``evaluations // population`` generations, the first one the random
start), plans ``depth`` turns long (every seat's turns; the searcher's are the genes).
Operators: ``crossover+mutation`` (DEAP's ``varAnd`` order: crossover with ``cxpb`` on
consecutive pairs, then mutation with ``mutpb``), ``mutation`` and ``crossover`` alone,
``restricted-mutation`` (mutation only, confined to the genes the plan expressed) and
``crossover+restricted``: the variants of the thesis's Table 5.1.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core import InputError, tunable

OPERATORS = ("crossover+mutation", "mutation", "crossover", "restricted-mutation",
             "crossover+restricted")
HEURISTIC_NAMES = ("alleval", "alleval2", "splendor-heuristic")
ILLEGAL = ("skip", "repair")
STARTS = ("random", "greedy", "greedy+reuse")
OPPONENTS = ("same", *HEURISTIC_NAMES)  # same: the player's own F (the thesis)


@dataclass(frozen=True)
class GeneticParams:
    """What every online genetic player shares (defaults: the thesis's depth-10 runs)."""

    depth: int = tunable(10, 1, 40, integer=True, doc="turns per plan, every seat's")
    population: int = tunable(100, 2, 100000, integer=True, log=True,
                              doc="chromosomes per generation")
    evaluations: int = tunable(2000, 2, 10_000_000, integer=True, log=True,
                               doc="plans simulated per move (generations x population)")
    cxpb: float = tunable(0.5, 0.0, 1.0, doc="crossover probability of a pair")
    mutpb: float = tunable(0.2, 0.0, 1.0, doc="mutation probability of a chromosome")
    indpb: float = tunable(0.1, 0.0, 1.0, doc="per-gene probability inside a mutation")
    tournament: int = tunable(3, 1, 1000, integer=True, doc="tournament size of selection")
    operators: str = tunable("crossover+mutation", choices=OPERATORS,
                             doc="variation: " + ", ".join(OPERATORS))
    heuristic: str = tunable("alleval", choices=HEURISTIC_NAMES,
                             doc="F scoring plan ends and modelling the opponent")

    def __post_init__(self) -> None:
        if self.evaluations < self.population:
            raise InputError(f"parameter 'evaluations': {self.evaluations} is below the "
                             f"population ({self.population}); a move evaluates at least "
                             "one whole generation")
        if self.tournament > self.population:
            raise InputError(f"parameter 'tournament': {self.tournament} is above the "
                             f"population ({self.population})")

    @property
    def generations(self) -> int:
        """Generations per move, the random start included."""
        return self.evaluations // self.population

    @property
    def crossover(self) -> bool:
        return self.operators.startswith("crossover")

    @property
    def mutation(self) -> str:
        """'' (none), 'all' (any gene) or 'expressed' (only genes the plan read)."""
        return _MUTATION[self.operators]


_MUTATION = {"crossover+mutation": "all", "mutation": "all", "crossover": "",
             "restricted-mutation": "expressed", "crossover+restricted": "expressed"}


@dataclass(frozen=True)
class IndexMoveParams(GeneticParams):
    """IndexMove: genes are indices into the legal moves of the position reached."""

    heuristic: str = tunable("alleval2", choices=HEURISTIC_NAMES,
                             doc="F scoring plan ends and modelling the opponent")


@dataclass(frozen=True)
class ExactMoveParams(IndexMoveParams):
    """ExactMove: genes are exact moves; an illegal one is skipped or repaired."""

    illegal: str = tunable("skip", choices=ILLEGAL,
                           doc="illegal gene: skip it, or repair it and the genes after it")


@dataclass(frozen=True)
class BuyOrderParams(GeneticParams):
    """BuyOrder: a permutation of the known cards; BuySeeker plays towards each in turn.

    ``start`` (beyond the thesis, whose start is ``random``): ``greedy`` adds one goal,
    "Greedy plays from here on", to the permutation (so a plan is a prefix of goals, then
    Greedy with F) and seeds the first generation with the plan that starts with it, the
    line Greedy would play; ``greedy+reuse`` also seeds it with the previous move's best
    plan, its goals still open kept in order (the plan shifted by the turns played since).
    ``seeds`` (beyond the thesis; 0 plays as before) adds to the first generation, after
    those, the plans that pursue one goal and then let Greedy play, for the ``seeds`` goals
    whose first move scores best with F one turn ahead (:mod:`games.splendor._goal_seeds`).
    ``opponent`` (beyond the thesis): the F with which Greedy plays the other seats inside a
    plan; ``same`` (the thesis) is the player's own F.
    """

    start: str = tunable("random", choices=STARTS,
                         doc="first generation: " + ", ".join(STARTS))
    seeds: int = tunable(0, 0, 27, integer=True,
                         doc="first generation: plans pursuing the best-looking goals, then Greedy")
    opponent: str = tunable("same", choices=OPPONENTS,
                            doc="F of the Greedy that plays the other seats in a plan: "
                                + ", ".join(OPPONENTS))


@dataclass(frozen=True)
class BuyAndDenyParams(BuyOrderParams):
    """BuyAndDeny: a permutation of buy goals and deny (reserve) goals."""


GENETIC_PARAMS: dict[str, type] = {
    "index-move": IndexMoveParams, "exact-move": ExactMoveParams,
    "buy-order": BuyOrderParams, "buy-and-deny": BuyAndDenyParams,
}
GENETIC_SUMMARIES = {
    "index-move": "IndexMove GA: genes index the legal moves (DEAP every move), allEval2",
    "exact-move": "ExactMove GA: genes are exact moves, illegal skipped or repaired, allEval2",
    "buy-order": "BuyOrder GA: permutation of cards, BuySeeker plays them (DEAP), allEval",
    "buy-and-deny": "BuyAndDeny GA: permutation of buy and deny goals (DEAP), allEval",
}
GENETIC_POSITIONAL = {name: ("depth", "population", "evaluations") for name in GENETIC_PARAMS}
#: small settings the contract suite plays every bot with
GENETIC_EXAMPLES = {name: f"{name}:depth=4,population=8,evaluations=16"
                    for name in GENETIC_PARAMS}
