"""Dominion objective: per-game scores of a candidate bot against fixed opponents.

A candidate is the tunable heuristic bot (``{"strategy": "heuristic", "params": {...}}``), any
named bot (``{"strategy": "big-money"}``) or a buy list (``{"genome": "province | gold"}``).
Game i of a seed set uses ``game_seeds(seed, ., i)`` with seats rotated by ``i``, so every
candidate meets the same shuffles (common random numbers) and seat advantage cancels.
The per-game score is 1 for a win, 1/2 for a shared first place, 0 for a loss.

[game] options: ``kingdom`` (comma-separated cards or a list; default seed 001's ten),
``end_rule`` ("standard" | "provinces"), ``tiebreak`` (bool), ``cap`` (turns per player).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from games.core import InputError

OBJECTIVES = ("win_rate",)
GAME_KEYS = ("kingdom", "end_rule", "tiebreak", "cap")
_EVAL_KEYS = ("games", "block", "seed", "opponents", "baseline", "reevaluate_top",
              "reevaluate_games", "jobs", "backend", "address", "objective", "strategy")


def strategies() -> dict[str, type | None]:
    """The tunable heuristic bot plus every named bot (no parameters)."""
    from games.dominion import HeuristicParams, bot_names
    out: dict[str, type | None] = {name: None for name in bot_names()}
    out["heuristic"] = HeuristicParams
    return out


def _config(options: dict[str, Any]) -> Any:
    from games.dominion import GameConfig
    return GameConfig(kingdom=options.get("kingdom"),
                      end_rule=str(options.get("end_rule", "standard")),
                      tiebreak=bool(options.get("tiebreak", True)),
                      cap=int(options.get("cap", 100))).checked()


def _opponents(options: dict[str, Any]) -> list[Any]:
    from games.dominion import spec_from_text
    names = options.get("opponents") or ["big-money-ultimate"]
    return [spec_from_text(str(n)) for n in names]


def _bot(candidate: dict[str, Any]) -> Any:
    from games.dominion import BotSpec
    if "genome" in candidate:
        return BotSpec("candidate", buylist=str(candidate["genome"]))
    name = str(candidate.get("strategy", "heuristic"))
    return BotSpec(name, dict(candidate.get("params") or {}))


def check_options(options: dict[str, Any]) -> None:
    """Reject unknown [game] keys, bad kingdoms, rules, opponents and player counts."""
    for key in options:
        if key not in GAME_KEYS and key not in _EVAL_KEYS:
            raise InputError(f"game.{key}: unknown option for dominion; allowed: "
                             f"{', '.join(GAME_KEYS)}")
    try:
        _config(options)
    except (TypeError, ValueError) as exc:
        raise InputError(f"game: {exc}") from None
    try:
        opponents = _opponents(options)
    except InputError as exc:
        raise InputError(f"evaluation.opponents: {exc}") from None
    if not 1 <= len(opponents) <= 3:
        raise InputError("evaluation.opponents: dominion takes 1 to 3 opponents (2-4 players)")


def run_block(candidate: dict[str, Any], options: dict[str, Any], seed: int, start: int,
              count: int) -> np.ndarray:
    """Scores (1 / 0.5 / 0) of the candidate in games ``start .. start+count-1``."""
    from games.dominion import play_games
    bots = [_bot(candidate), *_opponents(options)]
    res = play_games(bots, seed, start, count, config=_config(options), rotate=True)
    return res.bot_score()[:, 0]


def baselines(options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Reference candidates for reports: the untuned heuristic bot and the Big Money family."""
    opponents = {str(n) for n in options.get("opponents") or ["big-money-ultimate"]}
    out: dict[str, dict[str, Any]] = {
        "heuristic, default coefficients": {"strategy": "heuristic", "params": {}}}
    for name in ("big-money", "smithy-big-money"):
        if name not in opponents:
            out[name] = {"strategy": name, "params": {}}
    return out


def comparisons(options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The best candidate against other opponents (Big Money when it is not the opponent)."""
    opponents = [str(n) for n in options.get("opponents") or ["big-money-ultimate"]]
    if opponents == ["big-money"]:
        return {"vs big-money-ultimate": {"opponents": ["big-money-ultimate"]}}
    return {"vs big-money": {"opponents": ["big-money"]}}


def report_notes(options: dict[str, Any], data: dict[str, Any]) -> list[str]:
    """How a Dominion win rate is scored, and the best bot against each opponent."""
    opponents = ", ".join(str(n) for n in options.get("opponents") or ["big-money-ultimate"])
    out = [f"Every row is a win rate against {opponents} (a win scores 1, a shared first "
           "place 1/2, a loss 0; seats alternate game by game): each candidate and baseline "
           "bot takes the candidate's seat; rows named 'best, vs ...' put the best bot "
           "against another opponent instead."]
    best = data.get("best") or {}
    if "mean" in best:
        lo, hi = best["ci95"]
        verdict = ("its 95% interval excludes 50%" if lo > 0.5 or hi < 0.5
                   else "its 95% interval includes 50%")
        out.append(f"Best bot (trial {best.get('trial')}) against {opponents}: "
                   f"{100 * best['mean']:.2f}% (95% CI {100 * lo:.2f}..{100 * hi:.2f}%) over "
                   f"{best.get('games', 0):,} fresh games; {verdict}.")
    for c in data.get("comparisons", []):
        lo, hi = c["ci95"]
        out.append(f"The same bot {c['label']}: {100 * c['mean']:.2f}% (95% CI "
                   f"{100 * lo:.2f}..{100 * hi:.2f}%) over {c.get('games', 0):,} fresh games.")
    return out
