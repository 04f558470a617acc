"""Simulation against exact values; reproducibility of seeded runs."""

from __future__ import annotations

import numpy as np
import pytest

from games.core import Z95, Estimate, game_seeds
from games.deckbuilder import exact_value, simulate, solve
from games.deckbuilder._geometric import solve_geometric
from games.deckbuilder._simulation import simulate_solution


def test_optimal_policy_simulation_lands_in_its_interval():
    sol = solve(12)
    est = Estimate.from_samples(simulate_solution(sol, game_seeds(7, 20_000)))
    lo, hi = est.ci95
    assert lo <= sol.value <= hi


@pytest.mark.parametrize("name", ["random", "greedy", "expensive", "picky", "heuristic"])
def test_simple_strategies_agree_with_exact_values(name):
    est = Estimate.from_samples(simulate(name, turns=15, games=20_000, seed=11))
    exact = exact_value(name, 15)
    # 99% interval: five comparisons at once
    assert abs(est.mean - exact) <= 2.576 * est.stderr
    assert est.stderr > 0


def test_buy_rule_with_limits_agrees_with_exact_value():
    rule = "province@8 | duchy@5,left<=4 | gold@6,count<5 | silver@3 | estate@2,left<=2"
    est = Estimate.from_samples(simulate(rule, turns=20, games=20_000, seed=3))
    assert abs(est.mean - exact_value(rule, 20)) <= Z95 * est.stderr


def test_geometric_end_agrees_with_simulation_and_fixed_turns():
    assert solve_geometric(1.0).value == pytest.approx(solve(1).value)
    res = solve_geometric(0.5)
    assert res.error_bound < 1e-5
    for name in ("picky", "random"):
        est = Estimate.from_samples(simulate(name, games=20_000, seed=5, end_chance=0.5))
        assert abs(est.mean - exact_value(name, end_chance=0.5)) <= 2.576 * est.stderr
        assert exact_value(name, end_chance=0.5) <= res.value + 1e-9


def test_runs_reproduce_whatever_the_blocks():
    whole = simulate("random", turns=25, games=300, seed=9)
    parts = np.concatenate([simulate("random", turns=25, games=100, seed=9, start=s)
                            for s in (0, 100, 200)])
    assert np.array_equal(whole, parts)
    assert not np.array_equal(whole, simulate("random", turns=25, games=300, seed=10))


def test_flat_monte_carlo_beats_random():
    mc = Estimate.from_samples(simulate("flatmc", turns=10, games=100, seed=1,
                                        params={"rollouts": 20}))
    assert mc.mean > exact_value("random", 10) + 4 * mc.stderr
    assert mc.mean <= exact_value("optimal", 10) + 4 * mc.stderr


def test_simulate_stays_the_function_after_the_simulation_module_loads():
    import games.deckbuilder._simulation  # noqa: F401  (the engine module, loaded by simulate)
    from games.deckbuilder import simulate

    assert callable(simulate) and simulate("picky", turns=5, games=3, seed=1).shape == (3,)
