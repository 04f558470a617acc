"""The small calling surface for the tuning layer and the CLI: exact values and simulation.

Strategies may be given as a name (``"picky"``), a buy-rule text (``"province@8 | gold@6"``),
a :class:`Strategy` or a :class:`BuyRule`. Exact values are cached per (strategy, turns, card
set), so an optimiser that revisits a point pays nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np

from games.core import InputError
from games.deckbuilder import _exact as exact
from games.deckbuilder._model import DEFAULT, CardSet
from games.deckbuilder._rules import BuyRule
from games.deckbuilder._strategies import Strategy, get_strategy

StrategyLike = str | Strategy | BuyRule


def resolve(strategy: StrategyLike, params: dict[str, Any] | None = None) -> Strategy:
    """Turn any accepted strategy form into a :class:`Strategy`."""
    if isinstance(strategy, Strategy):
        return strategy.with_params(params or {}) if params else strategy
    if isinstance(strategy, BuyRule):
        return Strategy(strategy.name, "rule", "ordered buy rule", None, strategy.text())
    return get_strategy(str(strategy), params)


def check_end_chance(alpha: float | None) -> float | None:
    if alpha is None:
        return None
    a = float(alpha)
    if not (0.0 < a <= 1.0):
        raise InputError(f"end chance must lie in (0, 1], got {alpha}")
    return a


@lru_cache(maxsize=64)
def optimal_value(turns: int, card_set: CardSet = DEFAULT) -> float:
    """Optimal expected final score of a ``turns``-turn game (exact DP, cached)."""
    return exact.solve(turns, card_set, keep_policy=False).value


@lru_cache(maxsize=4096)
def _rule_value(rule_text: str, turns: int, card_set: CardSet) -> float:
    return exact.evaluate_rule(BuyRule.parse(rule_text, card_set), turns, card_set)


@lru_cache(maxsize=64)
def _random_value(turns: int, card_set: CardSet) -> float:
    return exact.evaluate_random(turns, card_set)


def exact_value(strategy: StrategyLike, turns: int = 31, card_set: CardSet = DEFAULT,
                params: dict[str, Any] | None = None,
                end_chance: float | None = None) -> float:
    """Expected final score of ``strategy`` without sampling noise.

    With ``end_chance`` the game ends after each turn with that chance (geometric end); the
    value is then exact up to the bound in :func:`games.deckbuilder._geometric.solve_geometric`.
    Flat Monte Carlo has no exact value (it samples by design) and is refused.
    """
    strat = resolve(strategy, params)
    alpha = check_end_chance(end_chance)
    if alpha is not None:
        from games.deckbuilder._geometric import geometric_value

        return geometric_value(strat, alpha, card_set).value
    turns = exact.check_turns(turns)
    if strat.kind == "optimal":
        return optimal_value(turns, card_set)
    if strat.kind == "random":
        return _random_value(turns, card_set)
    if strat.kind == "rule":
        return _rule_value(strat.rule(card_set).text(), turns, card_set)
    raise InputError(f"strategy {strat.name!r} has no exact value (it samples); simulate it")


def fraction_of_optimum(strategy: StrategyLike, turns: int = 31, card_set: CardSet = DEFAULT,
                        params: dict[str, Any] | None = None) -> float:
    """exact_value / optimal_value: 1.0 means the strategy is optimal."""
    return exact_value(strategy, turns, card_set, params) / optimal_value(turns, card_set)


def simulate(strategy: StrategyLike, turns: int = 31, games: int = 1000, seed: int = 0,
             start: int = 0, card_set: CardSet = DEFAULT,
             params: dict[str, Any] | None = None,
             end_chance: float | None = None) -> np.ndarray:
    """Final scores of games ``start .. start+games-1`` of a run with root ``seed``.

    Game i always uses the seed ``games.core.game_seeds(seed, 1, i)``, so any split of a run
    into blocks gives the same scores.
    """
    from games.deckbuilder._simulation import simulate_strategy

    return simulate_strategy(resolve(strategy, params), turns, games, seed, start, card_set,
                             check_end_chance(end_chance))


def solve_summary(turns: int | None, card_set: CardSet = DEFAULT,
                  strategies: list[StrategyLike] | None = None, end_chance: float | None = None,
                  tol: float = 1e-6, max_size: int = 120,
                  notify: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The exact optimum of a game and the exact values of ``strategies`` (the dict behind
    ``tabletune solve deckbuilder``): card-set checks, optimum, values, seconds. The memory
    estimate is checked before anything is allocated: a solve that cannot fit is refused,
    a large one announced through ``notify``."""
    import time

    from games.deckbuilder._budget import check_memory

    def budget(size: int, what: str) -> None:
        note = check_memory(size, card_set, what)
        if note and notify is not None:
            notify(note)

    strats = [resolve(s) for s in strategies or []]
    for s in strats:
        if s.kind == "flatmc":
            raise InputError("flatmc samples by design and has no exact value; "
                             "use `tabletune play deckbuilder --strategy flatmc`")
    alpha = check_end_chance(end_chance)
    t0 = time.perf_counter()
    out: dict[str, Any] = {"card_set": card_set.text(), "start": card_set.start_text(),
                           **card_set.check()}
    if alpha is None:
        turns = exact.check_turns(turns)
        budget(turns, f"--turns {turns}")
        out.update({"turns": turns, "optimal": optimal_value(turns, card_set)})
        values = {s.rule_text or s.name: exact_value(s, turns, card_set) for s in strats}
    else:
        from games.deckbuilder._geometric import geometric_values, horizon

        if not 0.0 < tol < 1.0:
            raise InputError(f"--tol must lie in (0, 1), got {tol}")
        size = horizon(alpha, card_set.max_points, tol, max_size)
        budget(size, f"end chance {alpha:g} with --tol {tol:g} ({size} added cards)")
        # one sweep for the optimum and every strategy: hand probabilities are shared
        res, *others = geometric_values([resolve("optimal"), *strats], alpha, card_set, tol,
                                        max_size)
        out.update({"turns": None, "end_chance": alpha, "optimal": res.value,
                    "error_bound": res.error_bound, "truncation": res.size})
        values = {s.rule_text or s.name: r.value for s, r in zip(strats, others, strict=True)}
    out["seconds"] = time.perf_counter() - t0
    if strats:
        out["strategies"] = values
    return out
