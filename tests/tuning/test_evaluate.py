"""Evaluation: common random numbers, per-block results, intervals, jobs-independence."""

from __future__ import annotations

import numpy as np
import pytest

from games.core import InputError
from tuning import objectives
from tuning.evaluate import derived_seed, evaluate, paired_difference

CAND = {"strategy": "bowl", "params": {"x": 0.3, "y": 0.6, "k": 5}}
WORSE = {"strategy": "bowl", "params": {"x": 0.9, "y": 0.1, "k": 2}}


def test_result_identical_for_any_number_of_jobs_and_block_size():
    one = evaluate("quadratic", CAND, {"noise": 0.2}, games=300, seed=5, block=60, jobs=1)
    two = evaluate("quadratic", CAND, {"noise": 0.2}, games=300, seed=5, block=60, jobs=2)
    big = evaluate("quadratic", CAND, {"noise": 0.2}, games=300, seed=5, block=300, jobs=1)
    assert np.array_equal(one.scores, two.scores) and np.array_equal(one.scores, big.scores)
    assert one.block_means == two.block_means and len(one.block_means) == 5
    assert one.mean == pytest.approx(np.mean(one.block_means))


def test_stderr_and_interval_match_the_samples():
    ev = evaluate("quadratic", CAND, {"noise": 0.2}, games=400, seed=2, block=100)
    assert ev.games == 400
    assert ev.stderr == pytest.approx(ev.scores.std(ddof=1) / 20.0)
    lo, hi = ev.ci95
    assert lo < ev.mean < hi and hi - lo == pytest.approx(2 * 1.959963984540054 * ev.stderr)
    # the true value 1.0 of the optimum lies within a few standard errors
    assert abs(ev.mean - 1.0) < 5 * ev.stderr


def test_common_random_numbers_make_paired_differences_precise():
    a = evaluate("quadratic", CAND, {"noise": 0.5}, games=200, seed=3, block=50)
    b = evaluate("quadratic", WORSE, {"noise": 0.5}, games=200, seed=3, block=50)
    diff = paired_difference(a, b)
    # identical noise on identical seeds cancels: the difference is exact up to rounding
    true = (0.9 - 0.3) ** 2 + (0.1 - 0.6) ** 2 / 4 + 0.01 * 9 - 0.0
    assert diff.mean == pytest.approx(true, abs=1e-9)
    assert diff.stderr < 1e-9 < a.stderr
    other_seed = evaluate("quadratic", CAND, {"noise": 0.5}, games=200, seed=4, block=50)
    assert not np.array_equal(a.scores, other_seed.scores)


def test_callback_sees_blocks_in_order_and_can_stop_early():
    seen = []

    def on_block(index, mean):
        seen.append(index)
        return index == 1

    ev = evaluate("quadratic", CAND, {}, games=500, seed=1, block=100, jobs=2, on_block=on_block)
    assert seen == [0, 1] and ev.stopped_early and ev.games == 200


def test_exact_evaluation_where_the_game_allows_it():
    from games.deckbuilder import fraction_of_optimum
    cand = {"strategy": "picky", "params": {}}
    opts = {"turns": 12, "objective": "fraction_of_optimum"}
    ev = evaluate("deckbuilder", cand, opts, games=100, seed=1, block=50)
    assert ev.exact and ev.stderr == 0.0 and ev.games == 0
    assert ev.mean == pytest.approx(fraction_of_optimum("picky", 12))
    sim = evaluate("deckbuilder", cand, opts, games=2000, seed=1, block=500, use_exact=False)
    assert abs(sim.mean - ev.mean) < 4 * sim.stderr


def test_derived_seeds_are_stable_and_distinct():
    assert derived_seed(1, "reevaluate") == derived_seed(1, "reevaluate")
    assert derived_seed(1, "reevaluate") != derived_seed(2, "reevaluate")
    assert derived_seed(1, "reevaluate") != 1


def test_unknown_game_and_zero_games_are_input_errors():
    with pytest.raises(InputError, match="unknown game"):
        evaluate("chess", CAND, {}, games=10, seed=1, block=5)
    with pytest.raises(InputError, match="at least one game"):
        evaluate("quadratic", CAND, {}, games=0, seed=1, block=5)


def test_registry_lists_the_builtin_games():
    names = objectives.games()
    assert {"deckbuilder", "dominion", "quadratic"} <= set(names)
    assert objectives.objectives("deckbuilder")[0] == "fraction_of_optimum"
