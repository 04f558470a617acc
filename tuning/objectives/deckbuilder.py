"""Deck-building model objective: exact expected score, or its fraction of the DP optimum.

The model allows exact policy evaluation, so ``exact`` gives the value of any rule-based
strategy (named strategies, the tunable ``heuristic`` rule, buy-rule genomes) with no sampling
noise; ``run_block`` simulates games for strategies that have no exact value (flat Monte
Carlo) and for checks against the exact figures.

[game] options: ``turns`` (fixed game length T, default 31) or ``end_chance`` (geometric end),
``cards`` / ``start`` / ``hand_size`` (the card set; the thesis set by default).
Objectives: ``fraction_of_optimum`` (value / DP optimum of the same game) or ``mean_score``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from games.core import InputError

OBJECTIVES = ("fraction_of_optimum", "mean_score")
GAME_KEYS = ("turns", "end_chance", "cards", "start", "hand_size")
_EVAL_KEYS = ("games", "block", "seed", "opponents", "baseline", "reevaluate_top",
              "reevaluate_games", "jobs", "backend", "address", "objective", "strategy")


def strategies() -> dict[str, type | None]:
    """Named strategies; ``heuristic`` and ``flatmc`` carry tunable parameters."""
    from games.deckbuilder import FlatMCParams, HeuristicParams, strategy_names
    out: dict[str, type | None] = {name: None for name in strategy_names()}
    out["heuristic"] = HeuristicParams
    out["flatmc"] = FlatMCParams
    return out


@lru_cache(maxsize=8)
def _card_set(cards: Any, start: Any, hand_size: int) -> Any:
    from games.deckbuilder import make_card_set
    return make_card_set(cards, start, hand_size)


def _game(options: dict[str, Any]) -> tuple[int, Any, float | None]:
    start = options.get("start")
    if isinstance(start, dict):
        start = ",".join(f"{k}={v}" for k, v in sorted(start.items()))
    cards = options.get("cards")
    if isinstance(cards, list):
        cards = ",".join(str(c) for c in cards)
    card_set = _card_set(cards, start, int(options.get("hand_size", 5)))
    end = options.get("end_chance")
    return int(options.get("turns", 31)), card_set, None if end is None else float(end)


def check_options(options: dict[str, Any]) -> None:
    """Reject unknown [game] keys, bad game lengths, end chances and card sets."""
    for key in options:
        if key not in GAME_KEYS and key not in _EVAL_KEYS:
            raise InputError(f"game.{key}: unknown option for deckbuilder; allowed: "
                             f"{', '.join(GAME_KEYS)}")
    turns = options.get("turns", 31)
    if isinstance(turns, bool) or not isinstance(turns, int) or turns < 1:
        raise InputError(f"game.turns: expected a game length >= 1, got {turns!r}")
    end = options.get("end_chance")
    if end is not None and (isinstance(end, bool) or not isinstance(end, int | float)
                            or not 0 < end <= 1):
        raise InputError(f"game.end_chance: expected a number in (0, 1], got {end!r}")
    if end is not None and options.get("objective") == "fraction_of_optimum":
        raise InputError("game.end_chance: fraction_of_optimum needs a fixed game length; "
                         "use objective = \"mean_score\" with an end chance")
    try:
        _game(options)
    except (TypeError, ValueError) as exc:
        raise InputError(f"game: bad card set ({exc})") from None


def _strategy(candidate: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
    if "genome" in candidate:
        return str(candidate["genome"]), None
    return str(candidate.get("strategy", "heuristic")), dict(candidate.get("params") or {})


def _optimum(turns: int, card_set: Any) -> float:
    from games.deckbuilder import optimal_value
    return float(optimal_value(turns, card_set))


def exact(candidate: dict[str, Any], options: dict[str, Any]) -> float | None:
    """Exact value of the candidate, or None for strategies that sample (flat Monte Carlo)."""
    from games.deckbuilder import exact_value, resolve
    name, params = _strategy(candidate)
    strat = resolve(name, params)
    if strat.kind == "flatmc":
        return None
    turns, card_set, end = _game(options)
    value = float(exact_value(strat, turns, card_set, end_chance=end))
    if options.get("objective") == "fraction_of_optimum":
        return value / _optimum(turns, card_set)
    return value


def run_block(candidate: dict[str, Any], options: dict[str, Any], seed: int, start: int,
              count: int) -> np.ndarray:
    """Simulated final scores of games ``start .. start+count-1`` (scaled by the optimum for
    ``fraction_of_optimum``, so their mean estimates the same quantity as ``exact``)."""
    from games.deckbuilder.api import simulate  # (package attribute: shadowed by a module)
    name, params = _strategy(candidate)
    turns, card_set, end = _game(options)
    scores = np.asarray(simulate(name, turns, count, seed, start, card_set, params,
                                 end_chance=end), dtype=float)
    if options.get("objective") == "fraction_of_optimum":
        scores = scores / _optimum(turns, card_set)
    return scores


def baselines(options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Thesis strategies and the untuned heuristic rule, all exactly evaluated."""
    out = {"heuristic, default parameters": {"strategy": "heuristic", "params": {}}}
    for name in ("picky", "expensive", "greedy", "random"):
        out[name] = {"strategy": name, "params": {}}
    return out


def report_notes(options: dict[str, Any], data: dict[str, Any]) -> list[str]:
    """The DP optimum and the best rule's expected score in points, for study reports."""
    best = data.get("best") or {}
    if options.get("end_chance") is not None or "mean" not in best:
        return []
    turns, card_set, _ = _game(options)
    optimum = _optimum(turns, card_set)
    if options.get("objective") == "fraction_of_optimum":
        points, fraction = best["mean"] * optimum, best["mean"]
    else:
        points, fraction = best["mean"], best["mean"] / optimum
    how = "exact" if best.get("exact") else f"estimated on {best.get('games', 0):,} games"
    return [f"DP optimum at T = {turns}: {optimum:.3f} points expected. Best rule (trial "
            f"{best.get('trial')}): {points:.3f} points, {100 * fraction:.2f}% of the optimum "
            f"({how})."]
