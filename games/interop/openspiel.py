"""Our games as OpenSpiel games. Importing this module registers, with
``pyspiel.register_game``, one game per game with a turn-level State::

    import pyspiel
    import games.interop.openspiel  # registers tabletune_splendor, tabletune_thegame, ...
    game = pyspiel.load_game("tabletune_splendor", {"players": 3, "seed": 7})

One generic game and state class serve all of them through :mod:`games.interop.bridge`.
Parameters: ``players``, ``seed`` (root of the deals: the ``i``-th new initial state of a game
object is game 0 of the run with root ``game_seeds(seed, 1, i)``) and ``options`` (the game's
own options as JSON, ``"{}"`` for the defaults).

Shuffles and draws happen inside our states from their seeded generators, so every game is
``SAMPLED_STOCHASTIC``: a clone replays the same future, and a search that must not see the
future searches a determinization (:meth:`games.interop.bridge.Bridge.determinize`).
Observation strings and tensors show what the rules show a seat; the information-state
string adds the moves played so far, each as that seat saw it. Returns are
:meth:`Bridge.utility`: 1 / 0.5 / 0 in games with a winner, the game's own score otherwise.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from games.core import InputError, game_seeds
from games.interop.bridge import Bridge
from games.interop.codecs import BRIDGES

PREFIX = "tabletune_"
_Info = pyspiel.GameType.Information


def bridge_for(params: dict[str, Any], game: str) -> Bridge:
    """The bridge of ``game`` under OpenSpiel game parameters (InputError on bad ones)."""
    try:
        options = json.loads(params.get("options") or "{}")
    except json.JSONDecodeError as exc:
        raise InputError(f"{PREFIX}{game}: options must be JSON ({exc.msg})") from None
    if not isinstance(options, dict):
        raise InputError(f"{PREFIX}{game}: options must be a JSON object")
    return BRIDGES[game](options, int(params["players"]))


def _game_type(game: str) -> pyspiel.GameType:
    bridge = BRIDGES[game]
    low, high = bridge.player_range
    return pyspiel.GameType(
        short_name=PREFIX + game, long_name=f"tabletune {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=_Info.PERFECT_INFORMATION if bridge.perfect_information
        else _Info.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high, min_num_players=low,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": bridge.default_players or
                                 (2 if low <= 2 <= high else low), "seed": 0,
                                 "options": "{}"})


class TabletuneGame(pyspiel.Game):
    """One of our games under OpenSpiel (which one: the subclass's ``game``)."""

    game = ""

    def __init__(self, params: dict[str, Any] | None = None,
                 bridge: Bridge | None = None) -> None:
        spec = dict(self.game_type.parameter_specification)
        spec.update(params or {})
        if bridge is not None:  # a bridge built already (our bots: typed options)
            spec["players"] = bridge.players
        self.bridge = bridge or bridge_for(spec, self.game)
        self.seed, self.dealt = int(spec["seed"]), 0
        low, high = self.bridge.utility_range()
        info = pyspiel.GameInfo(num_distinct_actions=self.bridge.num_actions(),
                                max_chance_outcomes=0, num_players=self.bridge.players,
                                min_utility=low, max_utility=high, utility_sum=None,
                                max_game_length=self.bridge.max_length)
        super().__init__(self.game_type, info, spec)

    game_type: pyspiel.GameType

    def new_initial_state(self) -> TabletuneState:
        return TabletuneState(self, _Held(self))

    def deal(self) -> Any:
        """The next game's first position (dealt lazily: OpenSpiel's clone of a Python state
        makes a new initial state and then copies the original's fields over it)."""
        seed = int(game_seeds(self.seed, 1, self.dealt)[0])
        self.dealt += 1
        return self.bridge.new_state(seed)

    def wrap(self, state: Any) -> TabletuneState:
        """An OpenSpiel state around one of our states (a determinization, a replay)."""
        return TabletuneState(self, _Held(self, state))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self.bridge, recall)


class _Held:
    """Our state and the moves each seat saw, copied with the state's own ``clone``."""

    def __init__(self, game: TabletuneGame, state: Any = None,
                 seen: list[str] | None = None) -> None:
        self.game, self._state = game, state
        self.seen = seen or [""] * game.bridge.players  # per seat: the moves as it saw them

    @property
    def state(self) -> Any:
        if self._state is None:
            self._state = self.game.deal()
        return self._state

    def __deepcopy__(self, memo: dict) -> _Held:
        return _Held(self.game, self.state.clone(), list(self.seen))


class TabletuneState(pyspiel.State):
    """An OpenSpiel state around one of our states (``inner``)."""

    def __init__(self, game: TabletuneGame, held: _Held) -> None:
        super().__init__(game)
        self.held = held

    @property
    def inner(self) -> Any:
        return self.held.state

    @property
    def bridge(self) -> Bridge:
        return self.held.game.bridge

    def current_player(self) -> int:
        p = self.inner.current_player()
        return pyspiel.PlayerId.TERMINAL if p < 0 else p

    def _legal_actions(self, player: int) -> list[int]:
        return self.bridge.legal_actions(self.inner) if player == self.current_player() else []

    def _apply_action(self, action: int) -> None:
        inner, bridge, seen = self.inner, self.bridge, self.held.seen
        move = bridge.decode(inner, int(action))
        mover, full, public = inner.current_player(), inner.move_to_string(move), \
            bridge.public(move, inner)
        for p in range(len(seen)):
            seen[p] += f"{len(inner.history)}. {full if p == mover else public} | "
        inner.apply(move)

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return self.inner.move_to_string(self.bridge.decode(self.inner, int(action)))
        except ValueError:
            return f"action {action}"

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        if not self.inner.is_terminal():
            return [0.0] * self.bridge.players
        return self.bridge.utility(self.inner)

    def __str__(self) -> str:
        return self.bridge.text(self.inner)


class Observer:
    """OpenSpiel's observer protocol: ``tensor``/``dict`` set by :meth:`set_from`, strings by
    :meth:`string_from` (with perfect recall: the moves so far as the seat saw them)."""

    def __init__(self, bridge: Bridge, perfect_recall: bool) -> None:
        self.bridge, self.perfect_recall = bridge, perfect_recall
        self.tensor = np.zeros(bridge.tensor_size(), dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TabletuneState, player: int) -> None:
        self.tensor[:] = self.bridge.tensor(state.inner, player)

    def string_from(self, state: TabletuneState, player: int) -> str:
        text = self.bridge.observation(state.inner, player)
        if not self.perfect_recall:
            return text
        return text + "\nmoves: " + state.held.seen[player]


def _register() -> dict[str, type[TabletuneGame]]:
    out = {}
    for game in BRIDGES:
        cls = type(f"Tabletune_{game}", (TabletuneGame,),
                   {"game": game, "game_type": _game_type(game)})
        if PREFIX + game not in pyspiel.registered_names():
            pyspiel.register_game(cls.game_type, cls)
        out[game] = cls
    return out


#: our OpenSpiel game classes by our game name (registered on import)
GAMES = _register()
