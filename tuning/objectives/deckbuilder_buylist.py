"""Objective of evolved deck-building-model buy rules: the exact expected final score.

``candidate = {"genome": "<buy rule text>"}``; options: ``turns`` (fixed game length T) and
optionally ``cards``/``start``/``hand_size`` (the card set, thesis set by default). With
objective ``fraction_of_optimum`` the value is divided by the DP optimum of the same game.
No sampling: the model's exact policy evaluation gives the value without noise.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.core import InputError

OBJECTIVES = ("mean_score", "fraction_of_optimum")


@lru_cache(maxsize=8)
def _card_set(cards: Any, start: Any, hand_size: int) -> Any:
    from games.deckbuilder.model import make_card_set

    return make_card_set(cards, start, hand_size)


@lru_cache(maxsize=16)
def optimum(turns: int, cards: Any = None, start: Any = None, hand_size: int = 5) -> float:
    """DP-optimal expected score of a ``turns``-turn game (cached per process)."""
    from games.deckbuilder.exact import solve

    return float(solve(turns, _card_set(cards, start, hand_size), keep_policy=False).value)


def _key(options: dict[str, Any]) -> tuple[Any, Any, int]:
    cards, start = options.get("cards"), options.get("start")
    if isinstance(start, dict):
        start = ",".join(f"{k}={v}" for k, v in sorted(start.items()))
    return cards, start, int(options.get("hand_size", 5))


def _one_thread_in_workers() -> None:
    """In a worker process the evolution already runs one task per core: keep numba's
    parallel kernels to one thread there instead of oversubscribing the machine."""
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        import numba

        numba.set_num_threads(1)


def check_options(options: dict[str, Any]) -> None:
    turns = options.get("turns")
    if isinstance(turns, bool) or not isinstance(turns, int) or turns < 1:
        raise InputError(f"game.turns: a fixed game length >= 1 is needed, got {turns!r}")


def exact(candidate: dict[str, Any], options: dict[str, Any]) -> float:
    """Exact expected final score (or its fraction of the optimum) of the genome's rule."""
    from games.deckbuilder.exact import evaluate_rule
    from games.deckbuilder.rules import BuyRule

    check_options(options)
    _one_thread_in_workers()
    cs = _card_set(*_key(options))
    rule = BuyRule.parse(candidate["genome"], cs)
    value = float(evaluate_rule(rule, int(options["turns"]), cs))
    if options.get("objective") == "fraction_of_optimum":
        return value / optimum(int(options["turns"]), *_key(options))
    return value
