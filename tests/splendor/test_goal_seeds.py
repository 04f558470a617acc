"""BuyOrder / BuyAndDeny's ``seeds``: the first generation also holds the plans that
pursue one goal and then let Greedy play, for the goals whose first move scores best one
turn ahead; ``seeds=0`` (the default) leaves the first generation as it was."""

from __future__ import annotations

import numpy as np
import pytest

from games.core import InputError, make_params
from games.splendor import _rules as R
from games.splendor._genetic import make_problem, weights_of
from games.splendor._genetic_params import BuyAndDenyParams
from games.splendor._goal_seeds import goal_rows, rank_goals
from games.splendor._heuristics import score
from games.splendor._plans import GOAL_GREEDY, new_table, order_goals, seek, table_size
from games.splendor._players import make_bot
from games.splendor._search import resolve
from games.splendor._seeded import seeded_choice
from tests.splendor.test_genetic_start import _greedy_move, _view
from tests.splendor.test_search import positions

W = weights_of(BuyAndDenyParams(heuristic="splendor-heuristic"))


def _goals(root: np.ndarray, deny: bool = True) -> tuple[np.ndarray, np.ndarray, int]:
    cards = np.zeros(28, dtype=np.int64)
    kinds = np.zeros(28, dtype=np.int64)
    n = int(order_goals(root, int(root[R.O_CUR]), deny, cards, kinds))
    cards[n], kinds[n] = -1, GOAL_GREEDY
    return cards, kinds, n + 1


def _first_move(root: np.ndarray, card: int, kind: int) -> int:
    return int(seek(root, int(root[R.O_CUR]), card, kind, W,
                    np.empty(R.MAX_LEGAL, dtype=np.int64), np.empty(R.SIZE, dtype=np.int64)))


def _one_turn(root: np.ndarray, m: int) -> float:
    line = root.copy()
    p = int(root[R.O_CUR])
    R.apply_move(line, m)
    resolve(line, p, W)
    return float(score(line, p, W))


@pytest.mark.parametrize("players", [2, 3])
def test_ranked_goals_play_distinct_moves_other_than_greedys_best_first(players):
    ranked_some = False
    for st in positions(10, players):
        root = _view(st)
        cards, kinds, length = _goals(root)
        keys, answers = new_table(64)
        order = np.empty(length, dtype=np.int64)
        n = int(rank_goals(root, cards, kinds, length, W, keys, answers,
                           np.zeros(1, dtype=np.int64), order))
        firsts = [_first_move(root, cards[g], kinds[g]) for g in order[:n]]
        assert all(m >= 0 for m in firsts) and len(set(firsts)) == n
        assert _greedy_move(root, W) not in firsts
        values = [_one_turn(root, m) for m in firsts]
        assert values == sorted(values, reverse=True)
        # every goal with a move left out plays a move already ranked (or Greedy's)
        every = {_first_move(root, cards[g], kinds[g]) for g in range(length - 1)}
        assert every - {-1, -2} <= set(firsts) | {_greedy_move(root, W)}
        ranked_some |= n > 0
    assert ranked_some


def test_goal_rows_pursue_the_goal_then_greedy():
    assert goal_rows(np.array([2, 0]), 5, 4).tolist() == [[2, 4, 0, 1, 3], [0, 4, 1, 2, 3]]
    assert goal_rows(np.array([0]), 3, -1).tolist() == [[0, 1, 2]]


def test_the_first_generation_holds_greedys_line_then_the_ranked_goal_seeds():
    params = BuyAndDenyParams(depth=5, population=6, evaluations=6, start="greedy", seeds=5,
                              heuristic="splendor-heuristic")
    plain = BuyAndDenyParams(depth=5, population=6, evaluations=6, start="greedy",
                             heuristic="splendor-heuristic")
    for st in positions(6):
        root = _view(st)
        stream = np.array([3], dtype=np.uint64)
        problem = make_problem("buy-and-deny", params, root, W, stream)
        before = make_problem("buy-and-deny", plain, root, W, stream)
        assert problem.seeds[:len(before.seeds)] == before.seeds
        greedy_goal = problem.length - 1
        extra = problem.seeds[len(before.seeds):]
        assert len(extra) <= 5
        for plan in extra:
            assert plan[1] == greedy_goal and sorted(plan) == list(range(problem.length))
        _, first, _ = problem.evaluate(np.array(problem.seeds, dtype=np.int64))
        assert len(set(first.tolist())) == len(problem.seeds)


def test_one_generation_of_seeds_plays_the_best_seeded_plan():
    """With the population all seeds the evolution draws nothing: the move is the first
    move of the best seeded plan (Greedy's line first, so it wins ties)."""
    values = {"depth": 5, "population": 4, "evaluations": 4, "start": "greedy", "seeds": 3,
              "heuristic": "splendor-heuristic"}
    params = BuyAndDenyParams(**values)
    for i, st in enumerate(positions(6)):
        root = _view(st)
        problem = make_problem("buy-and-deny", params, root, W, np.array([3], dtype=np.uint64))
        if len(problem.seeds) < params.population:
            continue
        fit, first, _ = problem.evaluate(np.array(problem.seeds, dtype=np.int64))
        bot = make_bot("buy-and-deny", values, rng=np.random.default_rng(i))
        assert bot.act(st.clone()) == int(first[int(np.argmax(fit))])


def test_seeds_out_of_range_are_refused():
    with pytest.raises(InputError, match="seeds"):
        make_params(BuyAndDenyParams, {"seeds": 28})


@pytest.mark.parametrize("start, population", [("greedy", 13), ("greedy+reuse", 13),
                                               ("random", 4)])
def test_the_compiled_generation_of_seeds_is_the_general_one(start, population):
    """One compiled call builds the same goals and seeds as ``make_problem`` (the previous
    plan reused in its order) and plays the best seeded plan as the evolution does; with
    fewer seeds than the population it simulates nothing and says so (-1)."""
    from games.splendor._evolve import evolve

    params = BuyAndDenyParams(depth=3, population=population, evaluations=population,
                              start=start, seeds=12, heuristic="splendor-heuristic")
    chosen = short = 0
    for st in positions(16):
        root = _view(st)
        stream = np.array([3], dtype=np.uint64)
        length = int(order_goals(root, int(root[R.O_CUR]), True, np.zeros(28, dtype=np.int64),
                                 np.zeros(28, dtype=np.int64))) + (start != "random")
        previous = None
        if start == "greedy+reuse":  # every goal, in reverse, and one that is gone
            first = make_problem("buy-and-deny", params, root, W, stream)
            previous = [(99, 0), *reversed(first.goals)]
        problem = make_problem("buy-and-deny", params, root, W, stream, previous)
        cards, kinds, best = (np.zeros(28, dtype=np.int64) for _ in range(3))
        pc = np.array([g[0] for g in previous or []], dtype=np.int64)
        pk = np.array([g[1] for g in previous or []], dtype=np.int64)
        n, m, got = seeded_choice(root, True, start != "random", previous is not None, pc, pk,
                                  12, population, 3, W, W, stream, table_size(39), cards,
                                  kinds, best)
        assert got == length == problem.length and n == len(problem.seeds)
        goals = zip(cards[:got].tolist(), kinds[:got].tolist(), strict=True)
        assert list(goals) == list(problem.goals)
        if n < population:
            assert m == -1
            short += 1
            continue
        plan, _ = evolve(problem, params, seed=0)
        assert m == plan.first and best[:got].tolist() == list(plan)
        chosen += 1
    assert chosen and (short or start != "random")
