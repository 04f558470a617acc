"""``openspiel-mcts``: OpenSpiel's MCTS bot playing one of our states.

Each move it deals a determinization of the position for the seat to move (what the seat
cannot see, dealt at random: :meth:`games.interop.bridge.Bridge.determinize`), wraps it as
an OpenSpiel state and runs ``MCTSBot.step`` on it; so it never searches the real hidden
cards or the real future draws. Leaves are valued by random rollouts
(``RandomRolloutEvaluator``) or by rollouts in which every seat plays the game's heuristic
bot. All randomness comes from the injected generator.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from games.capabilities import use
from games.core import BotSpec
from games.interop._params import MCTSParams, game_rollout_bot
from games.interop.bridge import codec_for
from games.interop.openspiel import game_class


class BotRollouts(mcts.Evaluator):
    """Leaf value: the mean utility of rollouts in which every seat plays one of our bots
    (``make(rng)`` returns a fresh one); uniform priors."""

    def __init__(self, make: Any, rollouts: int, rng: np.random.Generator) -> None:
        self.make, self.rollouts, self.rng = make, rollouts, rng

    def evaluate(self, state: Any) -> np.ndarray:
        total = np.zeros(state.num_players())
        for _ in range(self.rollouts):
            inner, bot = state.inner.clone(), self.make(self.rng)
            while not inner.is_terminal():
                inner.apply(bot.act(inner))
            total += state.bridge.utility(inner)
        return total / self.rollouts

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class MCTSPlayer:
    """A bot with ``act(state) -> move`` (see the module text)."""

    def __init__(self, game: Any, options: Mapping[str, Any], players: int,
                 params: MCTSParams, rng: np.random.Generator) -> None:
        self.bridge = codec_for(game.name)(options, players)
        self.spiel = game_class(game.name)(None, bridge=self.bridge)
        self.rng = rng
        seed = int(rng.integers(2**31))
        if params.evaluator == "heuristic":
            name, players = game_rollout_bot(game), use(game, "state_players")
            evaluator: mcts.Evaluator = BotRollouts(
                lambda r: players.state_player(BotSpec(name), self.bridge.options, r),
                params.rollouts, rng)
        else:
            evaluator = mcts.RandomRolloutEvaluator(params.rollouts,
                                                    np.random.RandomState(seed))
        self.bot = mcts.MCTSBot(self.spiel, params.uct_c, params.simulations, evaluator,
                                solve=False, random_state=np.random.RandomState(seed + 1))

    def act(self, state: Any) -> Hashable:
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        root = self.bridge.determinize(state, state.current_player(), self.rng)
        return self.bridge.decode(state, self.bot.step(self.spiel.wrap(root)))
