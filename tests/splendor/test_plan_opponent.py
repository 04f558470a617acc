"""BuyOrder / BuyAndDeny's ``opponent``: the other seats inside a plan are played by
Greedy with the named F instead of the player's own; ``same`` (the default) and naming the
player's own F play the same moves."""

from __future__ import annotations

import numpy as np
import pytest

from games.splendor import rules as R
from games.splendor.genetic import make_problem, weights_named, weights_of
from games.splendor.genetic_params import BuyAndDenyParams
from games.splendor.heuristics import score
from games.splendor.players import make_bot
from games.splendor.search import resolve
from tests.splendor.test_genetic_start import _greedy_move, _view
from tests.splendor.test_search import positions

OWN = "splendor-heuristic"


def _line(root: np.ndarray, own: np.ndarray, other: np.ndarray, depth: int) -> float:
    """F after ``depth`` turns: the mover plays Greedy with ``own``, the others with
    ``other`` (their returns and nobles too)."""
    line = root.copy()
    me = int(root[R.O_CUR])
    for _ in range(depth):
        if line[R.O_DONE]:
            break
        p = int(line[R.O_CUR])
        w = own if p == me else other
        R.apply_move(line, _greedy_move(line, w))
        resolve(line, p, w)
    return float(score(line, me, own))


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
