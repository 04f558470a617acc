"""NTBEA, the N-Tuple Bandit Evolutionary Algorithm (Lucas, Liu and Perez-Liebana 2018), as an
Optuna sampler.

The search space is a grid: every dimension has a finite list of values (an int range, a
categorical's choices, a float range with a step). A model of n-tuples holds, for each chosen
set of dimensions and each combination of their values, how often it was played and the mean
result (by default each dimension alone, every pair, and all of them together, as in the
published algorithm). A new trial starts from where the search is (the last trial given
parameters), draws ``neighbours`` points that differ from it in one or more dimensions, and
plays the one whose tuples promise most: the mean over tuples of each tuple's mean plus
``exploration * sqrt(log(1 + trials) / (n + 0.5))``, so a combination never played is tried
before one that is known. :meth:`NTBEASampler.recommend` gives the point the model holds best.

The model is rebuilt from the study's trials each time a trial is sampled, never kept in the
process: it works the same on the journal and PostgreSQL storages, from several workers and
processes, and after a run is killed and resumed. Pruned trials count with the mean of the
blocks they played. Results are scaled to [0, 1] by the range seen so far, so
``exploration`` means the same for a win rate and a mean score.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import optuna
from optuna.distributions import (
    BaseDistribution,
    CategoricalDistribution,
    FloatDistribution,
    IntDistribution,
)
from optuna.trial import FrozenTrial, TrialState

from games.core import InputError
from tuning._spec import NTBEA_MAX_VALUES as MAX_VALUES
from tuning._spec import NtbeaSettings

__all__ = ["NTBEASampler", "NtbeaSettings", "grid_values"]

#: added to a tuple's count in the exploration term (a combination never played scores high)
EPSILON = 0.5


def grid_values(name: str, distribution: BaseDistribution) -> list[Any]:
    """The values of one dimension on the grid NTBEA searches; InputError for a float range
    without a step (NTBEA plays a grid: the spec states it)."""
    if isinstance(distribution, CategoricalDistribution):
        return list(distribution.choices)
    if isinstance(distribution, IntDistribution):
        count = (distribution.high - distribution.low) // distribution.step + 1
        if count > MAX_VALUES:
            raise InputError(f"space.{name}: {count} values are too many for sampler 'ntbea' "
                             f"(at most {MAX_VALUES:,}); give a larger step")
        return list(range(distribution.low, distribution.high + 1, distribution.step))
    if isinstance(distribution, FloatDistribution):
        if distribution.step is None:
            raise InputError(f"space.{name}: sampler 'ntbea' searches a grid; give the float "
                             "parameter a step")
        count = int(round((distribution.high - distribution.low) / distribution.step)) + 1
        if count > MAX_VALUES:
            raise InputError(f"space.{name}: {count} values are too many for sampler 'ntbea' "
                             f"(at most {MAX_VALUES:,}); give a larger step")
        return [min(distribution.high, distribution.low + i * distribution.step)
                for i in range(count)]
    raise InputError(f"space.{name}: sampler 'ntbea' cannot search {distribution!r}")


def _tuples(sizes: Sequence[int | str], dims: int) -> list[tuple[int, ...]]:
    """The sets of dimensions the model keeps statistics for (each once)."""
    import itertools

    out: list[tuple[int, ...]] = []
    for size in sizes:
        k = dims if size == "all" else min(int(size), dims)
        for combo in itertools.combinations(range(dims), k):
            if combo not in out:
                out.append(combo)
    return out


def _result(trial: FrozenTrial) -> float | None:
    """A finished trial's result: its value, or for a pruned one the mean of its blocks."""
    if trial.state == TrialState.COMPLETE and trial.value is not None:
        return float(trial.value)
    if trial.state == TrialState.PRUNED and trial.intermediate_values:
        return float(np.mean(list(trial.intermediate_values.values())))
    return None


class NTBEASampler(optuna.samplers.BaseSampler):
    """NTBEA over a grid given as Optuna distributions (``space``; ``grids``: the values of
    a float with no step, by name), one trial at a time.

    ``seed`` seeds the draws of one trial (the study wraps the sampler so that each trial has
    a seed of its own); parameters outside ``space`` are drawn at random."""

    def __init__(self, space: dict[str, BaseDistribution],
                 settings: NtbeaSettings = NtbeaSettings(), seed: int | None = None,
                 grids: dict[str, list[Any]] | None = None) -> None:
        self._names = sorted(space)
        self._space = {n: space[n] for n in self._names}
        grids = grids or {}
        self._grid = [list(grids[n]) if n in grids else grid_values(n, space[n])
                      for n in self._names]
        self._settings = settings
        self._tuples = _tuples(settings.tuples, len(self._names))
        self._rng = np.random.default_rng(seed)
        self._fallback = optuna.samplers.RandomSampler(seed=None if seed is None
                                                       else seed % 2**32)

    def reseed_rng(self) -> None:
        self._rng = np.random.default_rng()
        self._fallback.reseed_rng()

    def infer_relative_search_space(self, study: optuna.Study,
                                    trial: FrozenTrial) -> dict[str, BaseDistribution]:
        return dict(self._space)

    # ---- the model
    def _index(self, params: dict[str, Any]) -> tuple[int, ...] | None:
        """A trial's point as grid indices (None if a value is off the grid)."""
        out = []
        for name, values in zip(self._names, self._grid, strict=True):
            if name not in params:
                return None
            value = params[name]
            try:
                out.append(values.index(value))
            except ValueError:
                near = [i for i, v in enumerate(values) if isinstance(v, (int, float))
                        and isinstance(value, (int, float)) and math.isclose(v, value,
                                                                             rel_tol=1e-9,
                                                                             abs_tol=1e-12)]
                if not near:
                    return None
                out.append(near[0])
        return tuple(out)

    def _model(self, points: list[tuple[int, ...]], results: list[float]
               ) -> list[dict[tuple[int, ...], list[float]]]:
        """Per tuple: combination of values -> [count, sum of scaled results]."""
        low, high = min(results), max(results)
        span = high - low
        stats: list[dict[tuple[int, ...], list[float]]] = [{} for _ in self._tuples]
        for point, result in zip(points, results, strict=True):
            scaled = 0.5 if span == 0 else (result - low) / span
            for table, dims in zip(stats, self._tuples, strict=True):
                cell = table.setdefault(tuple(point[d] for d in dims), [0.0, 0.0])
                cell[0] += 1
                cell[1] += scaled
        return stats

    def _score(self, stats: list[dict[tuple[int, ...], list[float]]], point: tuple[int, ...],
               total: int, exploration: float) -> float:
        k, log_n = exploration, math.log(1 + total)
        score = 0.0
        for table, dims in zip(stats, self._tuples, strict=True):
            count, summed = table.get(tuple(point[d] for d in dims), (0.0, 0.0))
            mean = summed / count if count else 0.0
            score += mean + k * math.sqrt(log_n / (count + EPSILON))
        return score / len(self._tuples)

    def _neighbour(self, point: tuple[int, ...]) -> tuple[int, ...]:
        dims = len(point)
        chance = self._settings.mutation or 1.0 / dims
        movable = [d for d in range(dims) if len(self._grid[d]) > 1]
        if not movable:
            return point
        change = [d for d in movable if self._rng.random() < chance]
        if not change:
            change = [movable[int(self._rng.integers(len(movable)))]]
        out = list(point)
        for d in change:
            other = int(self._rng.integers(len(self._grid[d]) - 1))
            out[d] = other if other < point[d] else other + 1
        return tuple(out)

    def _random_point(self) -> tuple[int, ...]:
        return tuple(int(self._rng.integers(len(values))) for values in self._grid)

    def sample_relative(self, study: optuna.Study, trial: FrozenTrial,
                        search_space: dict[str, BaseDistribution]) -> dict[str, Any]:
        if not search_space or not self._names:
            return {}
        trials = study.get_trials(deepcopy=False)
        sign = -1.0 if study.direction == optuna.study.StudyDirection.MINIMIZE else 1.0
        points, results, current = [], [], None
        for other in sorted(trials, key=lambda t: t.number):
            if other.number >= trial.number:
                continue
            point = self._index(other.params)
            if point is None:
                continue
            if other.state in (TrialState.RUNNING, TrialState.COMPLETE, TrialState.PRUNED):
                current = point  # where the search is: the last point given out
            result = _result(other)
            if result is not None:
                points.append(point)
                results.append(sign * result)
        if current is None:
            chosen = self._random_point()
        else:
            stats = self._model(points, results) if points else [{} for _ in self._tuples]
            best, best_score = None, -math.inf
            for _ in range(self._settings.neighbours):
                candidate = self._neighbour(current)
                score = self._score(stats, candidate, len(points),
                                    self._settings.exploration)
                if score > best_score:
                    best, best_score = candidate, score
            chosen = best if best is not None else current
        return {name: self._grid[d][chosen[d]] for d, name in enumerate(self._names)}

    def recommend(self, study: optuna.Study,
                  trials: Sequence[FrozenTrial] | None = None) -> dict[str, Any] | None:
        """The point NTBEA recommends: among the points played, the one whose tuples have
        the best mean (no exploration term); None before any trial has a result.
        ``trials``: the study's trials the model is built from (default: all)."""
        sign = -1.0 if study.direction == optuna.study.StudyDirection.MINIMIZE else 1.0
        points, results = [], []
        for other in (study.get_trials(deepcopy=False) if trials is None else trials):
            point, result = self._index(other.params), _result(other)
            if point is not None and result is not None:
                points.append(point)
                results.append(sign * result)
        if not points:
            return None
        stats = self._model(points, results)
        best = max(sorted(set(points)), key=lambda p: self._score(stats, p, len(points), 0.0))
        return {name: self._grid[d][best[d]] for d, name in enumerate(self._names)}

    def sample_independent(self, study: optuna.Study, trial: FrozenTrial, param_name: str,
                           param_distribution: BaseDistribution) -> Any:
        return self._fallback.sample_independent(study, trial, param_name, param_distribution)
