"""The single-player deck-building model of the Leiden thesis, with an exact DP solver.

Each turn the player draws 5 cards from the whole deck (no discard pile), adds at most one
card costing at most the money in hand, and after T turns (or, with an end chance alpha,
after a geometric number of turns) scores the points in the deck.

Calling surface (all exact values are computed without sampling and cached)::

    from games.deckbuilder import exact_value, optimal_value, simulate, DEFAULT

    optimal_value(31)                         # 73.154..., optimum of a 31-turn game
    exact_value("picky", turns=31)            # exact expected score of a named strategy
    exact_value("heuristic", turns=31, params={"province_left": 22})
    exact_value("province@8 | gold@6 | duchy@5,left<=6 | silver@3", turns=31)
    fraction_of_optimum("greedy", turns=31)   # exact_value / optimal_value
    exact_value("picky", end_chance=0.1)      # geometric end (truncation, stated bound)
    simulate("picky", turns=250, games=10_000, seed=1)   # per-game scores (numpy array)

Strategies: ``random``, ``greedy``, ``expensive``, ``picky``, ``heuristic`` (params:
:class:`HeuristicParams`), ``optimal``, ``flatmc`` (params: :class:`FlatMCParams`), or any
ordered buy rule in text form (see :mod:`games.deckbuilder._rules`). Card sets: ``DEFAULT``
is the thesis set; :func:`make_card_set` builds others from text
(``"copper:t1:c0,silver:t2:c3,estate:v1:c2"``, start ``"copper=7,estate=3"``).

Lower level: :func:`solve` (optimum and policy, :class:`Solution`), :func:`evaluate_rule`,
:func:`evaluate_random`, :func:`action_shares`, :func:`solve_geometric`.

The package's public surface is what this ``__init__`` names, the description in
``game.py`` (its catalog entry) and the parts found beside it by name (``codec``,
``dealer``); every other module is private (``_name.py``) and may change without notice.
"""

from games.deckbuilder._api import (
    exact_value,
    fraction_of_optimum,
    optimal_value,
    resolve,
    simulate,
)
from games.deckbuilder._exact import (
    Solution,
    action_shares,
    evaluate_random,
    evaluate_rule,
    solve,
)
from games.deckbuilder._model import DEFAULT, Card, CardSet, make_card_set
from games.deckbuilder._rules import BuyRule, RuleEntry
from games.deckbuilder._strategies import (
    FlatMCParams,
    HeuristicParams,
    Strategy,
    get_strategy,
    heuristic_rule,
    strategy_names,
)

__all__ = [
    "DEFAULT", "BuyRule", "Card", "CardSet", "FlatMCParams", "HeuristicParams", "RuleEntry",
    "Solution", "Strategy", "action_shares", "evaluate_random", "evaluate_rule", "exact_value",
    "fraction_of_optimum", "get_strategy", "heuristic_rule", "make_card_set", "optimal_value",
    "resolve", "simulate", "solve", "strategy_names",
]


def solve_geometric(*args, **kwargs):
    """Optimum under a geometric end; see :func:`games.deckbuilder._geometric.solve_geometric`."""
    from games.deckbuilder._geometric import solve_geometric as _solve

    return _solve(*args, **kwargs)

#: what the first use of this game's numba kernels costs (games.compiling says it)
FIRST_USE_COMPILE = "a few seconds"
#: seconds of that first compile on 2 cores, roughly: `python -m games.warm` starts the
#: slowest compilers first
FIRST_USE_SECONDS = 3
