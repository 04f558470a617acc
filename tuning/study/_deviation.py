"""The one-step deviation check of a study's best: is any neighbour better beyond noise?

A search stops somewhere; whether it stopped at a local optimum is a question games can
answer. Each neighbour of the best moves one parameter one step (an integer by its step, a
float by its declared step or a tenth of its range, on the log scale for a log parameter, a
categorical to the choice before or after it), clipped to the range. The best and every
neighbour play the same games (common seeds: game i of the check is the same deal for
each), so their per-block differences are paired and their noise mostly cancels. A
neighbour is better beyond noise when the lower end of its difference's interval is above
0, the interval widened for the number of neighbours (Bonferroni, 95% for the family).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from statistics import NormalDist
from typing import Any

import numpy as np

from tuning._spec import ParamSpec


def neighbours(params: Sequence[ParamSpec], best: Mapping[str, Any]
               ) -> list[tuple[str, str, dict[str, Any]]]:
    """(parameter, ``-``/``+`` or the new choice, the neighbour's values) for each one-step
    move of one parameter that stays in range."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    for p in params:
        if p.name not in best:
            continue
        value = best[p.name]
        for sign, moved in _moves(p, value):
            if moved != value:
                out.append((p.name, sign, {**best, p.name: moved}))
    return out


def _moves(p: ParamSpec, value: Any) -> list[tuple[str, Any]]:
    if p.type == "categorical":
        choices = list(p.choices or ())
        i = choices.index(value) if value in choices else -1
        return [(f"={choices[j]}", choices[j]) for j in (i - 1, i + 1)
                if i >= 0 and 0 <= j < len(choices)]
    low, high = float(p.low), float(p.high)
    if p.type == "int":
        step = int(p.step or 1)
        return [(s, int(min(high, max(low, value + d * step))))
                for s, d in (("-", -1), ("+", 1))]
    if p.log and low > 0:
        factor = (high / low) ** 0.1
        return [("-", max(low, value / factor)), ("+", min(high, value * factor))]
    step = float(p.step) if p.step else (high - low) / 10
    return [(s, min(high, max(low, value + d * step))) for s, d in (("-", -1), ("+", 1))]


def paired(best: Any, other: Any) -> tuple[float, float]:
    """Mean and standard error of ``other - best`` over their common blocks (games
    weighted), from two evaluations of the same seed set and block layout."""
    if best.exact and other.exact:  # exact values: no noise to pair away
        return other.mean - best.mean, 0.0
    a = np.asarray(best.block_means, dtype=float)
    b = np.asarray(other.block_means, dtype=float)
    w = np.asarray(best.block_games, dtype=float)
    n = min(len(a), len(b))
    a, b, w = a[:n], b[:n], w[:n]
    d = b - a
    mean = float((d * w).sum() / w.sum())
    if n < 2:
        return mean, float("inf")
    var = float((w * (d - mean) ** 2).sum() / w.sum()) * n / (n - 1)
    return mean, math.sqrt(var / n)


def check(spec: Any, best_params: Mapping[str, Any], evaluate: Callable[[list[dict]], list],
          maximize: bool = True) -> dict[str, Any]:
    """The deviation check of ``best_params`` in ``spec``'s search space (its ``space``:
    name -> ParamSpec): ``evaluate(list of params)`` plays each set of values on the same
    seeds (the best first) and returns their evaluations."""
    moves = neighbours(list(spec.space.values()), best_params)
    evals = evaluate([dict(best_params)] + [values for _, _, values in moves])
    base = evals[0]
    z = NormalDist().inv_cdf(1 - 0.025 / max(1, len(moves)))
    rows = []
    for (name, sign, values), e in zip(moves, evals[1:], strict=True):
        diff, se = paired(base, e)
        gain = diff if maximize else -diff
        lo, hi = gain - z * se, gain + z * se
        exact = se == 0.0  # exact values: better means better, by any margin above rounding
        rows.append({"parameter": name, "move": sign, "value": values[name],
                     "mean": e.mean, "gain": gain, "gain_ci": [lo, hi],
                     "better": bool(gain > 1e-12 if exact else lo > 0),
                     "worse": bool(gain < -1e-12 if exact else hi < 0)})
    better = [r for r in rows if r["better"]]
    return {"best": dict(best_params), "best_mean": base.mean, "games": base.games,
            "neighbours": rows, "z": z,
            "verdict": ("a neighbour is better beyond noise: " + ", ".join(
                f"{r['parameter']} {r['move']} ({r['gain']:+.4f})" for r in better))
            if better else "no neighbour is better beyond noise: a local optimum at this "
                           "resolution"}
