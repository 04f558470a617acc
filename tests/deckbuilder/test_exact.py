"""The exact DP against brute-force enumeration of hands and actions on tiny games."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from games.deckbuilder import (
    DEFAULT,
    BuyRule,
    evaluate_random,
    evaluate_rule,
    exact_value,
    fraction_of_optimum,
    make_card_set,
    optimal_value,
    solve,
)
from games.deckbuilder._model import TREASURE
from games.deckbuilder._rules import best_affordable

TINY = make_card_set("copper:t1:c0,silver:t2:c2,estate:v1:c1,duchy:v2:c3",
                     "copper=3,estate=2", hand_size=3)
# an inefficient set: "brass" costs like silver but is worth less; "jewel" is unreachable
# from small hands until silver is bought
ODD = make_card_set("copper:t1:c0,brass:t1:c2,silver:t2:c2,jewel:t4:c5,estate:v1:c1,"
                    "duchy:v3:c4", "copper=3,estate=2", hand_size=3)


def brute(cs, turns, policy):
    """Expected final score by enumerating every hand (cards as distinct objects) and, for
    ``policy=None``, every action; otherwise ``policy(cs, deck, left, money)`` -> list of
    (card or None, weight)."""

    @cache
    def value(deck: tuple[str, ...], left: int) -> float:
        if left == 0:
            return 0.0
        hands = list(itertools.combinations(range(len(deck)), cs.hand_size))
        total = 0.0
        for hand in hands:
            money = sum(cs.card(deck[i]).value for i in hand)
            if policy is None:
                options = [None] + [c.name for c in cs.cards if c.cost <= money]
                best = max(gain(deck, left, o) for o in options)
            else:
                best = sum(w * gain(deck, left, o) for o, w in policy(cs, deck, left, money))
            total += best
        return total / len(hands)

    def gain(deck, left, card):
        if card is None:
            return value(deck, left - 1)
        pts = cs.card(card).points
        return pts + value(tuple(sorted(deck + (card,))), left - 1)

    deck0 = tuple(sorted(n for n, k in cs.start for _ in range(k)))
    return cs.start_points + value(deck0, turns)


def random_policy(cs, deck, left, money):
    opts = [None]
    for kind in (TREASURE, "victory"):
        c = best_affordable(cs, kind, money)
        if c is not None:
            opts.append(c.name)
    return [(o, 1 / len(opts)) for o in opts]


def rule_policy(rule):
    def pol(cs, deck, left, money):
        for e in rule.entries:
            card = cs.card(e.card)
            held = (sum(1 for x in deck if cs.card(x).kind == "victory")
                    if card.kind == "victory" else deck.count(card.name))
            if (money >= max(e.money, card.cost) and e.left_min <= left <= e.left_max
                    and held < e.count_below):
                return [(card.name, 1.0)]
        return [(None, 1.0)]
    return pol


@pytest.mark.parametrize("cs", [TINY, ODD], ids=["tiny", "inefficient"])
@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_dp_equals_brute_force(cs, turns):
    assert solve(turns, cs).value == pytest.approx(brute(cs, turns, None), abs=1e-12)


@pytest.mark.parametrize("cs", [TINY, ODD], ids=["tiny", "inefficient"])
def test_policy_evaluation_equals_brute_force(cs):
    rules = ["duchy@3 | silver@2,count<4 | estate@1,left<=1",
             "estate@1,left>=2 | copper@0,left<=2 | silver@2"]
    for text in rules:
        rule = BuyRule.parse(text, cs)
        for turns in (1, 3):
            want = brute(cs, turns, rule_policy(rule))
            assert evaluate_rule(rule, turns, cs) == pytest.approx(want, abs=1e-12)
    assert evaluate_random(3, cs) == pytest.approx(brute(cs, 3, random_policy), abs=1e-12)


def test_thesis_values_and_orderings():
    # T = 1: 3 points owned, plus a Duchy when all five cards are Copper, else an Estate
    assert optimal_value(1) == pytest.approx(3 + 3 * 21 / 252 + (1 - 21 / 252))
    assert exact_value("greedy", 2) == pytest.approx(optimal_value(2))
    for t in (5, 15, 31):
        opt = optimal_value(t)
        for name in ("random", "greedy", "expensive", "picky", "heuristic"):
            assert exact_value(name, t) <= opt + 1e-9
    assert exact_value("expensive", 10) > exact_value("picky", 10)
    assert exact_value("picky", 31) > exact_value("expensive", 31)


def test_tuned_heuristic_reaches_99_percent_of_optimum():
    params = {"province_left": 22, "duchy_over_gold_left": 11, "duchy_left": 15,
              "estate_over_silver_left": 6, "estate_left": 9}
    assert fraction_of_optimum("heuristic", 31, params=params) >= 0.99
    assert fraction_of_optimum("heuristic", 31) < 0.99  # the default leaves room to tune


def test_optimal_policy_uses_three_actions_on_efficient_set():
    # thesis theorem 4.6: only pass / best treasure / best victory card are ever optimal
    sol = solve(12, DEFAULT)
    for b, money in enumerate(sol.thresholds):
        allowed = {-1}
        for kind in (TREASURE, "victory"):
            c = best_affordable(DEFAULT, kind, money)
            if c is not None:
                allowed.add(DEFAULT.cards.index(c))
        for layer in sol.policy:
            assert set(layer[:, b].tolist()) <= allowed
