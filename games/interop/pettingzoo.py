"""Our games as PettingZoo AEC environments with action masks::

    from games.interop.pettingzoo import env
    e = env("splendor", players=2, seed=7)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, done, cut, info = e.last()
        e.step(None if done or cut else e.action_space(agent).sample(obs["action_mask"]))

An observation is ``{"observation": float32 vector, "action_mask": int8 vector}``: the
vector is what the rules show the agent (:meth:`games.interop.bridge.Bridge.tensor`), the
mask marks the legal action ids of a fixed :class:`gymnasium.spaces.Discrete` space. Rewards
come at the end, all at once: :meth:`Bridge.utility` (1 / 0.5 / 0 where the game has a
winner, the game's own score otherwise). An action outside the mask raises ValueError; a
finished agent steps with ``None``, as PettingZoo's AEC protocol has it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from games.core import InputError, game_seeds
from games.interop.bridge import codec_for, codec_games


def env(game: str, players: int | None = None, options: Mapping[str, Any] | None = None,
        seed: int = 0, render_mode: str | None = None) -> TabletuneEnv:
    """The AEC environment of ``game`` (InputError naming the known games otherwise)."""
    known = codec_games()
    if game not in known:
        raise InputError(f"unknown game {game!r} for PettingZoo; known: {', '.join(known)}")
    return TabletuneEnv(game, players, options or {}, seed, render_mode)


class TabletuneEnv(AECEnv):
    """One of our games, one decision per step (see the module text)."""

    metadata = {"render_modes": ["ansi"], "name": "tabletune", "is_parallelizable": False}

    def __init__(self, game: str, players: int | None, options: Mapping[str, Any],
                 seed: int, render_mode: str | None) -> None:
        super().__init__()
        from games import registry
        counts = registry.get(game).player_counts
        players = players or (2 if 2 in counts else counts[0])
        self.bridge = codec_for(game)(options, players)
        self.metadata = {**self.metadata, "name": f"tabletune_{game}"}
        self.render_mode, self.seed, self.dealt = render_mode, seed, 0
        self.possible_agents = [f"player_{p}" for p in range(self.bridge.players)]
        n, size = self.bridge.num_actions(), self.bridge.tensor_size()
        box = spaces.Box(-np.inf, np.inf, (size,), dtype=np.float32)
        self._obs = spaces.Dict({"observation": box,
                                 "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8)})
        self._act = spaces.Discrete(n)
        self.state: Any = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs

    def action_space(self, agent: str) -> spaces.Space:
        return self._act

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new deal: game 0 of the run with root ``seed``, or without one the next game
        of the environment's own seed."""
        if seed is None:
            seed = int(game_seeds(self.seed, 1, self.dealt)[0])
            self.dealt += 1
        self.state = self.bridge.new_state(int(seed))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self.possible_agents.index(agent)
        mask = (self.bridge.mask(self.state) if self.state.current_player() == p else
                np.zeros(self.bridge.num_actions(), dtype=np.int8))
        return {"observation": self.bridge.tensor(self.state, p), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: give a legal action id, not None")
        move = self.bridge.decode(self.state, int(action))  # ValueError outside the mask
        self.state.apply(move)
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_terminal():
            for agent_, value in zip(self.possible_agents, self.bridge.utility(self.state),
                                     strict=True):
                self.rewards[agent_] = float(value)
                self.terminations[agent_] = True
            self._accumulate_rewards()
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self.possible_agents[self.state.current_player()]

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.bridge.text(self.state)
        return None

    def close(self) -> None:
        pass
