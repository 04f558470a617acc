"""BuyOrder / BuyAndDeny's ``opponent``: the other seats inside a plan are played by
Greedy with the named F instead of the player's own; ``same`` (the default) and naming the
player's own F play the same moves."""

from __future__ import annotations

import numpy as np
import pytest

from games.splendor._genetic import make_problem, weights_named, weights_of
from games.splendor._genetic_params import BuyAndDenyParams
from games.splendor._players import make_bot
from tests.splendor.test_genetic_start import _line, _view
from tests.splendor.test_search import positions

OWN = "splendor-heuristic"


@pytest.mark.parametrize("players", [2, 3])
def test_greedys_line_models_the_other_seats_with_the_named_f(players):
    params = BuyAndDenyParams(depth=5, population=2, evaluations=2, tournament=1, start="greedy",
                              heuristic=OWN, opponent="alleval")
    own, other = weights_of(params), weights_named("alleval")
    differ = 0
    for st in positions(20, players):
        root = _view(st)
        problem = make_problem("buy-and-deny", params, root, own, np.array([3], dtype=np.uint64))
        fit, _, _ = problem.evaluate(np.array(problem.seeds[:1], dtype=np.int64))
        assert fit[0] == pytest.approx(_line(root, own, other, params.depth))
        differ += _line(root, own, own, params.depth) != pytest.approx(fit[0])
    assert differ  # the model changes some plan's value


def test_naming_the_players_own_f_plays_as_same():
    values = {"depth": 5, "population": 4, "evaluations": 8, "start": "greedy",
              "heuristic": OWN}
    for i, st in enumerate(positions(8)):
        same = make_bot("buy-and-deny", values, rng=np.random.default_rng(i))
        named = make_bot("buy-and-deny", {**values, "opponent": OWN},
                         rng=np.random.default_rng(i))
        assert same.act(st.clone()) == named.act(st.clone())
