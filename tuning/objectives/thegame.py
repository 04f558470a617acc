"""The Game objective: win rate (or cards left) of a value-function player over seeded deals.

Game i of a seed set is always the same deal (games.core.game_seeds), so every candidate of
a study plays the same games (common random numbers) and a block's result does not depend
on which worker plays it.

[game] options: ``depth`` (search depth d, default 0), ``players`` (1-5, default 1),
``expert`` (lay at least 3 a turn, default false), ``short_turn`` (the seed's end-of-game
convention, default true; it changes cards left, never a win).
Objectives: ``win_rate`` (1 per won game, else 0), ``cards_left`` (direction minimize),
``under_10`` (1 when fewer than 10 cards are left).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from games.core import InputError

OBJECTIVES = ("win_rate", "cards_left", "under_10")
GAME_KEYS = ("depth", "players", "expert", "short_turn")
_EVAL_KEYS = ("games", "block", "seed", "opponents", "baseline", "reevaluate_top",
              "reevaluate_games", "jobs", "backend", "address", "objective", "strategy")


def strategies() -> dict[str, type | None]:
    """Every player of The Game with its params dataclass."""
    from games.thegame import PLAYERS
    return {name: spec.params_type for name, spec in PLAYERS.items()}


def check_options(options: dict[str, Any]) -> None:
    """Reject unknown [game] keys and bad depths, table sizes and flags."""
    for key in options:
        if key not in GAME_KEYS and key not in _EVAL_KEYS:
            raise InputError(f"game.{key}: unknown option for thegame; allowed: "
                             f"{', '.join(GAME_KEYS)}")
    depth = options.get("depth", 0)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= 4:
        raise InputError(f"game.depth: expected an integer search depth 0..4, got {depth!r}")
    players = options.get("players", 1)
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 5:
        raise InputError(f"game.players: expected 1..5 players, got {players!r}")
    for key in ("expert", "short_turn"):
        if key in options and not isinstance(options[key], bool):
            raise InputError(f"game.{key}: expected true or false, got {options[key]!r}")


def run_block(candidate: dict[str, Any], options: dict[str, Any], seed: int, start: int,
              count: int) -> np.ndarray:
    """Per-game scores of games ``start .. start+count-1`` for the candidate player."""
    from games.thegame import play_block
    if "genome" in candidate:
        raise InputError("thegame has no genomes: give a strategy and params")
    batch = play_block(str(candidate.get("strategy", "recovery-fallback")),
                       dict(candidate.get("params") or {}), int(options.get("depth", 0)),
                       int(seed), int(start), int(count),
                       players=int(options.get("players", 1)),
                       expert=bool(options.get("expert", False)),
                       short_turn=bool(options.get("short_turn", True)))
    left = batch.cards_left
    objective = options.get("objective", "win_rate")
    if objective == "cards_left":
        return left.astype(float)
    if objective == "under_10":
        return (left < 10).astype(float)
    return (left == 0).astype(float)


def baselines(options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The seed's players with their published parameters."""
    return {
        "recovery-fallback (seed parameters)": {"strategy": "recovery-fallback", "params": {}},
        "recovery-distance (seed parameters)": {"strategy": "recovery-distance", "params": {}},
    }
