"""BuyOrder / BuyAndDeny's ``start`` (the first generation): ``greedy`` seeds it with the
line Greedy would play, so one generation of one-turn plans plays Greedy's move exactly and
longer plans are never worse than Greedy's line; ``greedy+reuse`` also seeds the previous
move's plan; ``random`` (the thesis) plays the moves it played before ``start`` existed."""

from __future__ import annotations

import numpy as np
import pytest

from games.splendor import _rules as R
from games.splendor._genetic import make_problem, order_seeds, weights_of
from games.splendor._genetic_params import BuyAndDenyParams
from games.splendor._heuristics import score
from games.splendor._plans import GOAL_BUY, GOAL_DENY, GOAL_GREEDY
from games.splendor._players import make_bot
from games.splendor._search import greedy, resolve, view
from tests.splendor.test_search import positions

ONE_GENERATION = {"population": 6, "evaluations": 6}


def _view(st) -> np.ndarray:
    root = np.empty(R.SIZE, dtype=np.int64)
    view(st.array, int(st.array[R.O_CUR]), 0, np.array([1], dtype=np.uint64), root)
    return root


def _greedy_move(root: np.ndarray, w: np.ndarray) -> int:
    return int(greedy(root, w, np.empty(R.SIZE, dtype=np.int64),
                      np.empty(R.MAX_LEGAL, dtype=np.int64)))


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


def _greedy_line(root: np.ndarray, w: np.ndarray, depth: int) -> float:
    """F from the mover's seat after ``depth`` turns of Greedy for every seat."""
    return _line(root, w, w, depth)


@pytest.mark.parametrize("name", ["buy-order", "buy-and-deny"])
@pytest.mark.parametrize("heuristic", ["alleval", "splendor-heuristic"])
def test_one_generation_of_one_turn_plans_plays_greedys_move(name, heuristic):
    """At depth 1 a plan's fitness is F after its one turn, which Greedy's move maximises
    (the seed is first in the population and keeps ties): the move is Greedy's."""
    values = {"depth": 1, **ONE_GENERATION, "heuristic": heuristic}
    w = weights_of(BuyAndDenyParams(heuristic=heuristic))
    differs = 0
    for players in (2, 3):
        for i, st in enumerate(positions(8, players)):
            expect = _greedy_move(_view(st), w)
            if heuristic == "alleval":
                assert make_bot("greedy", rng=np.random.default_rng(i)).act(st.clone()) == expect
            bot = make_bot(name, {**values, "start": "greedy"}, rng=np.random.default_rng(i))
            assert bot.act(st.clone()) == expect
            thesis = make_bot(name, values, rng=np.random.default_rng(i))
            differs += thesis.act(st.clone()) != expect
    assert differs  # the random start alone does not play Greedy's move


@pytest.mark.parametrize("start", ["greedy", "greedy+reuse"])
def test_the_seed_is_greedys_line_and_the_move_never_scores_below_it(start):
    """Deeper plans: the seeded plan is the Greedy goal first, its simulation is Greedy's
    line (every seat Greedy for ``depth`` turns), and the evolution keeps the best plan, so
    the plan played scores at least that line."""
    from games.splendor._evolve import evolve

    params = BuyAndDenyParams(depth=6, population=6, evaluations=18, start=start)
    w = weights_of(params)
    for i, st in enumerate(positions(8)):
        root = _view(st)
        problem = make_problem("buy-and-deny", params, root, w, np.array([3], dtype=np.uint64))
        assert problem.goals[-1] == (-1, GOAL_GREEDY)
        seed = problem.seeds[0]
        assert seed[0] == problem.length - 1 and sorted(seed) == list(range(problem.length))
        fit, first, read = problem.evaluate(np.array([seed], dtype=np.int64))
        assert first[0] == _greedy_move(root, w) and read[0] == 1
        assert fit[0] == pytest.approx(_greedy_line(root, w, params.depth))
        best, _ = evolve(problem, params, seed=i)
        assert best.fitness.values[0] >= fit[0]


def test_reuse_keeps_the_open_goals_of_the_previous_plan_in_order():
    cards = np.array([10, 11, 12, 10, 11, 12, -1])
    kinds = np.array([GOAL_BUY] * 3 + [GOAL_DENY] * 3 + [GOAL_GREEDY])
    greedy_first = [6, 0, 1, 2, 3, 4, 5]
    assert order_seeds(cards, kinds, 7, None) == (greedy_first,)
    # card 13 was bought, so its goal is gone; the new goals follow in goal order
    previous = [(12, GOAL_BUY), (13, GOAL_BUY), (10, GOAL_DENY), (-1, GOAL_GREEDY)]
    assert order_seeds(cards, kinds, 7, previous) == (greedy_first, [2, 3, 6, 0, 1, 4, 5])
    # a previous plan that is Greedy's line seeds it once
    assert order_seeds(cards, kinds, 7, [(-1, GOAL_GREEDY)]) == (greedy_first,)


def test_reuse_seeds_the_previous_plan_on_the_next_move():
    """Two own moves of a greedy+reuse player: the second move's problem gets the first
    move's best plan (its goals still open) as its second seed."""
    st = positions(1)[0]
    bot = make_bot("buy-and-deny", {"depth": 6, "population": 6, "evaluations": 18,
                                    "start": "greedy+reuse"}, rng=np.random.default_rng(0))
    seat = int(st.array[R.O_CUR])
    st.apply(bot.act(st))
    plan = bot._previous[seat]
    while not st.is_terminal() and (int(st.array[R.O_CUR]) != seat or st.phase != "main"):
        st.apply(st.legal_moves()[0])
    root = _view(st)
    problem = make_problem("buy-and-deny", bot.params, root, bot.w,
                           np.array([3], dtype=np.uint64), plan)
    open_goals = [g for g in plan if g in problem.goals]
    assert len(open_goals) > 1 and len(problem.seeds) == 2
    assert [problem.goals[g] for g in problem.seeds[1][:len(open_goals)]] == open_goals
    assert bot.act(st) in st.legal_moves()


THESIS_MOVES = {  # start=random, recorded before ``start`` existed (SMALL, seed = index)
    ("buy-order", 2): [20, 15, 18, 6, 21, 20], ("buy-order", 3): [5, 3, 16, 23, 1, 2],
    ("buy-and-deny", 2): [20, 16, 3, 6, 21, 16], ("buy-and-deny", 3): [5, 3, 15, 18, 20, 2],
}


@pytest.mark.parametrize("name, players", sorted(THESIS_MOVES))
def test_random_start_plays_the_thesis_moves_as_before(name, players):
    small = {"depth": 6, "population": 12, "evaluations": 60}
    moves = [make_bot(name, small, rng=np.random.default_rng(i)).act(st.clone())
             for i, st in enumerate(positions(6, players))]
    assert moves == THESIS_MOVES[(name, players)]
