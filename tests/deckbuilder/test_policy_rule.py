"""The optimal policy's action shares and the buy rule derived from them."""

from __future__ import annotations

import numpy as np
import pytest

from games.core import InputError
from games.deckbuilder import DEFAULT, BuyRule, action_shares, evaluate_rule, make_card_set, solve
from games.deckbuilder._model import VICTORY
from games.deckbuilder._policy_rule import agreement, policy_shares, rule_from_policy
from games.deckbuilder._rules import picky_rule

TINY = make_card_set("copper:t1:c0,silver:t2:c2,estate:v1:c1,duchy:v2:c3",
                     "copper=3,estate=2", hand_size=3)


def test_shares_match_the_exact_action_shares():
    sol = solve(15)
    sh = policy_shares(sol, floor=0.0)
    assert np.allclose(sh.share.sum(axis=(1, 2)), 1.0)
    kinds = np.zeros((15, 3))
    kinds[:, 0] = sh.share[:, :, 0].sum(axis=1)
    for k, card in enumerate(DEFAULT.cards):
        kinds[:, 2 if card.kind == VICTORY else 1] += sh.share[:, :, k + 1].sum(axis=1)
    assert np.allclose(kinds, action_shares(sol), atol=1e-12)


def test_derived_rule_is_within_a_tenth_of_a_percent_at_t31():
    sol = solve(31)
    sh = policy_shares(sol)
    rule = rule_from_policy(sh)
    assert rule.text() == ("province@8,left<=22 | gold@6,left<=30,left>=12 | duchy@5,left<=15"
                           " | silver@3,left>=7 | estate@2,left<=9")
    value = evaluate_rule(rule, 31)
    assert 0.999 * sol.value <= value <= sol.value + 1e-9
    assert BuyRule.parse(rule.text(), DEFAULT) == BuyRule(rule.entries)
    assert agreement(sh, rule) > 0.98 > agreement(sh, picky_rule(DEFAULT))


@pytest.mark.parametrize("turns", [1, 3, 6])
def test_derived_rule_on_another_card_set(turns):
    sol = solve(turns, TINY)
    sh = policy_shares(sol, floor=0.0)
    rule = rule_from_policy(sh)
    assert {e.card for e in rule.entries} <= {c.name for c in TINY.cards}
    value = evaluate_rule(rule, turns, TINY)
    assert value <= sol.value + 1e-9
    assert value >= 0.97 * sol.value
    if turns == 1:  # one turn left: the best victory card the hand affords, always
        assert rule.text() == "duchy@3 | estate@1"
        assert agreement(sh, rule) == pytest.approx(1.0)


def test_a_solution_without_policy_is_refused():
    with pytest.raises(InputError, match="kept its policy"):
        policy_shares(solve(5, keep_policy=False))
