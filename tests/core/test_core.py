"""Shared result types, seeding and declared parameters."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from games.core import (
    Estimate,
    InputError,
    MatchResult,
    Record,
    game_rng,
    game_seeds,
    make_params,
    param_ranges,
    parse_param_assignments,
    rotated_seatings,
    seed_blocks,
    tunable,
    wilson_interval,
)


def test_game_seeds_do_not_depend_on_chunking():
    whole = game_seeds(42, 100)
    parts = np.concatenate([game_seeds(42, c, s) for s, c in seed_blocks(100, 7)])
    assert np.array_equal(whole, parts)
    assert len(set(whole.tolist())) == 100
    assert not np.array_equal(game_seeds(43, 100), whole)


def test_game_rng_reproduces():
    a = game_rng(5, 17).integers(0, 1 << 30, 10)
    b = game_rng(5, 17).integers(0, 1 << 30, 10)
    c = game_rng(5, 18).integers(0, 1 << 30, 10)
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_estimate_interval_covers_mean_of_normal_samples():
    rng = np.random.default_rng(0)
    est = Estimate.from_samples(rng.normal(3.0, 2.0, 10_000))
    lo, hi = est.ci95
    assert lo < 3.0 < hi
    assert est.stderr == pytest.approx(2.0 / 100, rel=0.05)


def test_record_score_and_interval():
    r = Record(wins=60, ties=20, losses=20)
    assert r.games == 100 and r.score == pytest.approx(0.7)
    lo, hi = r.score_ci
    assert lo < 0.7 < hi and hi - lo < 0.2
    # all-tie record has zero variance
    assert Record(0, 10, 0).score_estimate.stderr == 0.0


def test_wilson_interval_bounds():
    lo, hi = wilson_interval(0, 100)
    assert lo == 0.0 and 0 < hi < 0.05
    lo, hi = wilson_interval(50, 100)
    assert lo < 0.5 < hi


def test_match_result_rotation_and_merge():
    bots = ["a", "b"]
    seatings = [s for _, s in rotated_seatings(bots, 4)]
    assert seatings == [["a", "b"], ["b", "a"], ["a", "b"], ["b", "a"]]
    m1, m2 = MatchResult(bots), MatchResult(bots)
    m1.record_game(["a", "b"], [1, -1], turns=10)
    m2.record_game(["b", "a"], [0, 0], turns=12, capped=True)
    m1.merge(m2)
    d = m1.to_dict()
    assert d["games"] == 2 and d["capped_games"] == 1 and d["mean_turns"] == 11
    assert d["bots"]["a"]["wins"] == 1 and d["bots"]["a"]["ties"] == 1
    assert m1.per_seat["a"][1].ties == 1 and m1.per_seat["b"][0].ties == 1


@dataclasses.dataclass
class _Params:
    alpha: float = tunable(3.5, 1.0, 10.0)
    depth: int = tunable(0, 0, 3, integer=True)
    mode: str = tunable("x", choices=["x", "y"])


def test_params_declared_and_checked():
    assert set(param_ranges(_Params)) == {"alpha", "depth", "mode"}
    p = make_params(_Params, {"alpha": "2.5", "depth": "2"})
    assert p.alpha == 2.5 and p.depth == 2
    with pytest.raises(InputError, match="outside its range"):
        make_params(_Params, {"alpha": 11})
    with pytest.raises(InputError, match="unknown parameter"):
        make_params(_Params, {"beta": 1})
    with pytest.raises(InputError, match="not an integer"):
        make_params(_Params, {"depth": 1.5})
    with pytest.raises(InputError, match="not one of"):
        make_params(_Params, {"mode": "z"})
    with pytest.raises(InputError, match="name=value"):
        parse_param_assignments(["alpha"])
