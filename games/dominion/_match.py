"""Dominion's batch of games in one process: the rules of a batch and the kernel call.

Game ``i`` of a run with root seed ``S`` always uses seed ``game_seeds(S, ., i)`` and the
shared seat rotation (:func:`games.outcomes.seating_for`: seat k holds bot
``(k + i) % players``), so any split of the indices over workers gives the same games.
Matches go through the game's one entry point, ``DominionGame.play`` (a block of games as
:class:`games.outcomes.Outcomes`), spread over workers by :func:`games.blocks.map_blocks`
or the tuning layer's match. :func:`_play_games` is the kernel call beneath it; its raw
arrays are no results type of their own (``.outcomes()`` makes them the generic one), and
beside them it hands the learned player's trainer its training samples.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from games.core import InputError, game_seeds
from games.dominion._bots import BotSpec, compile_bots
from games.dominion._cards import initial_supply
from games.dominion._kernel import new_record, new_state
from games.dominion._layout import END_RULES, LP_END_RULE, LP_TIEBREAK
from games.dominion._options import GameConfig
from games.dominion._play import run_games
from games.outcomes import Outcomes, seating_for


@dataclass
class _KernelRun:
    """The kernel's raw arrays for games ``start .. start+count-1`` (row i = game start+i),
    not a results type: :meth:`outcomes` gives the one every game returns.

    ``seating[i, k]``: index (into the bots list) of the bot in seat k; ``outcome[i, k]``:
    1 win, 0 shared first place, -1 loss for seat k; ``vp[i, k]``; ``turns[i]``: rounds
    played (turns of the first player); ``plies[i]``: turns of all players together;
    ``capped[i]``: the game hit the turn cap; ``features`` / ``meta``: the learned player's
    training samples (active feature indices; game row, seat) when asked for, else empty.
    """

    start: int
    seating: np.ndarray
    outcome: np.ndarray
    vp: np.ndarray
    turns: np.ndarray
    plies: np.ndarray
    capped: np.ndarray
    features: np.ndarray
    meta: np.ndarray

    def outcomes(self) -> Outcomes:
        """These games as :class:`games.outcomes.Outcomes`: VP as the score, plies in
        ``extra``."""
        return Outcomes(self.start, self.seating, self.outcome, self.vp.astype(np.float64),
                        self.turns, self.capped, extra={"plies": self.plies})


def _play_games(bots: Sequence[BotSpec], seed: int, start: int, count: int,
                kingdom: tuple[str, ...] | str | None = None, players: int | None = None, *,
                rotate: bool = True, config: GameConfig | None = None,
                record_rows: int = 0) -> _KernelRun:
    """Play games ``start .. start+count-1`` of the run with root ``seed``: the kernel call
    beneath ``DominionGame.play``; its arrays become :class:`Outcomes` by ``.outcomes()``.

    One bot per seat (``players`` defaults to ``len(bots)``); a mirror lists a bot twice.
    Results depend only on (bots, seed, game index, rules), never on how a run is split.
    ``record_rows > 0`` keeps up to that many training samples of learned bots that record
    (``features``: active feature indices, ``meta``: game row, seat).
    """
    cfg = config or GameConfig()
    if kingdom is not None:
        cfg = replace(cfg, kingdom=kingdom)
    cfg = cfg.checked()
    n = len(bots)
    players = n if players is None else players
    solo = cfg.solo_provinces > 0
    if solo:
        if n != 1 or players != 1:
            raise InputError("solo games take exactly one bot")
        if not 1 <= cfg.solo_provinces <= 8:
            raise InputError("solo target must be 1-8 Provinces")
    elif not 2 <= players <= 4:
        raise InputError(f"players must be 2-4 (use solo mode for one), got {players}")
    if n != players:
        raise InputError(f"{players} players need {players} bots, got {n}")
    supply = initial_supply(players, cfg.kingdom,
                            (cfg.provinces, cfg.curses_per_player, cfg.kingdom_pile))
    comp = compile_bots(bots, supply)
    comp.lparams[:, LP_END_RULE] = END_RULES[cfg.end_rule]
    comp.lparams[:, LP_TIEBREAK] = 1.0 if cfg.tiebreak else 0.0
    seeds = game_seeds(seed, count, start)
    seating = seating_for(start, count, n, rotate=rotate)
    outcome = np.zeros((count, players), dtype=np.int8)
    vp = np.zeros((count, players), dtype=np.int64)
    turns = np.zeros(count, dtype=np.int64)
    plies = np.zeros(count, dtype=np.int64)
    capped = np.zeros(count, dtype=np.bool_)
    rec = new_record(record_rows)
    run_games(seeds, seating, comp.rules, comp.nrules, comp.amode, comp.bmode, comp.fparams,
              comp.weights, comp.lparams, comp.dparams, comp.porder, supply,
              END_RULES[cfg.end_rule], cfg.tiebreak,
              cfg.cap, cfg.solo_provinces, cfg.hand_size, outcome, vp, turns, plies, capped,
              *new_state(players, supply), *rec)
    kept = int(rec[2][0]) if record_rows > 0 else 0
    return _KernelRun(start, seating, outcome, vp, turns, plies, capped, rec[0][:kept],
                      rec[1][:kept])
