"""Dominion's bots playing the turn-level State move by move
(:class:`games.dominion._state.DominionState`), for matches beside OpenSpiel's bots
(:mod:`games.interop._match`) and for search players that need a rollout policy.

A bot here is the engine's own bot: its compiled tables (:func:`games.dominion._bots.compile_bots`)
and the one policy of :mod:`games.dominion._policy`, asked at the State's pending decision.
So every bot plays the same through the State as in whole games (buy lists, named bots,
strategies with play orders and settings, the scored heuristic, learned models, the random
bot); a game played by bots through the State is the engine's game with the same seed. (A
random or exploring bot draws from a stream of its own here, seeded by the match, where
whole games let it draw from the game's stream: its games differ, its play does not.)
"""

from __future__ import annotations

import numpy as np

from games.core import BotSpec
from games.dominion._bots import CompiledBots, build_bot, compile_bots
from games.dominion._kernel import new_record
from games.dominion._layout import END_RULES, LP_END_RULE, LP_TIEBREAK
from games.dominion._moves import MOVES, Move


class PolicyPlayer:
    """One bot with ``act(state) -> move``: the policy's choice at the pending decision.
    ``rng`` seeds the stream a random or exploring bot draws from."""

    def __init__(self, spec: BotSpec, rng: np.random.Generator) -> None:
        self.spec = spec
        self.brng = np.array([int(rng.integers(2**63))], dtype=np.uint64)
        self._tables: dict[bytes, tuple[CompiledBots, np.ndarray]] = {}
        self._record = new_record(0)

    def tables(self, state) -> tuple[CompiledBots, np.ndarray]:
        """The bot's tables for ``state``'s supply and rules (built once per game kind)."""
        key = state.supply0.tobytes() + bytes([END_RULES[state.end_rule], state.tiebreak])
        if key not in self._tables:
            from games.dominion._play import playable_order
            comp = compile_bots([self.spec], state.supply0)
            comp.lparams[:, LP_END_RULE] = END_RULES[state.end_rule]
            comp.lparams[:, LP_TIEBREAK] = 1.0 if state.tiebreak else 0.0
            self._tables[key] = (comp, playable_order(comp.porder, state.supply0))
        return self._tables[key]

    def act(self, state) -> Move:
        from games.dominion._policy import choose
        comp, order = self.tables(state)
        seats = np.zeros(state.n, dtype=np.int64)
        code = choose(state.mach, state.opts, state.n_options, seats, comp.rules, comp.nrules,
                      comp.amode, comp.bmode, comp.fparams, comp.weights, comp.lparams,
                      comp.dparams, order, state.zones, state.pinfo, state.piles_, state.ts,
                      self.brng, *self._record)
        return MOVES[int(code)]


def state_player(spec: BotSpec, rng: np.random.Generator) -> PolicyPlayer:
    """Any Dominion bot as a move-by-move player (its tables are built, and checked
    against the game's kingdom, when it first plays a game)."""
    build_bot(spec)  # an unknown bot or a bad strategy text stops here (InputError)
    return PolicyPlayer(spec, rng)
