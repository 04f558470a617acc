"""Our games as OpenSpiel games. Importing this module registers, with
``pyspiel.register_game``, one game per game with a turn-level State::

    import pyspiel
    import games.interop.openspiel  # registers tabletune_splendor, tabletune_thegame, ...
    game = pyspiel.load_game("tabletune_splendor", {"players": 3, "seed": 7})

One generic game and state class serve all of them through :mod:`games.interop.bridge`.
Parameters: ``players``, ``seed`` (root of the deals: the ``i``-th new initial state of a game
object is game 0 of the run with root ``game_seeds(seed, 1, i)``) and ``options`` (the game's
own options as JSON, ``"{}"`` for the defaults).

Every card drawn from a pile nobody has seen is an explicit chance outcome, chosen when it
is drawn (:mod:`games.interop.chance`, each game's draws in its package's ``dealer`` module):
the games are ``EXPLICIT_STOCHASTIC``, and a state holds no future, so a clone handed to a
stock search (MCTS, expectimax) samples what comes next as the chance nodes say, never
the real game's next cards. What is hidden now (an opponent's hand, a blind reserve) is in
the state, as in any OpenSpiel game of imperfect information; a search that must not see
it starts from :meth:`TabletuneState.resample_from_infostate` (OpenSpiel's information-set
MCTS does). The public opening (Splendor's board and nobles, a random Dominion kingdom)
comes from ``seed``. Our ``openspiel-mcts`` bot searches a determinization instead
(:meth:`TabletuneGame.wrap`: a state with its own seeded future, no chance nodes).
Observation strings and tensors show what the rules show a seat; the information-state
string adds the moves played so far, each as that seat saw it. Returns are
:meth:`Bridge.utility`: 1 / 0.5 / 0 in games with a winner, the game's own score otherwise.
States pickle (OpenSpiel's serialization of Python states), the game by its parameters.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from games.core import InputError, game_seeds
from games.interop.bridge import Bridge, codec_for, codec_games
from games.interop.chance import DEAL, Dealer, Outcomes, dealer_for

PREFIX = "tabletune_"
_Info = pyspiel.GameType.Information


#: JSON characters that OpenSpiel's game strings cannot hold inside a value, and their
#: JSON escapes (a game string splits its parameters at commas and reads parentheses and
#: '=' as structure; it has no quoting)
_UNSAFE = {",": "\\u002c", "(": "\\u0028", ")": "\\u0029", "=": "\\u003d", ";": "\\u003b"}


def options_text(options: dict[str, Any]) -> str:
    """``options`` as JSON that survives OpenSpiel's game strings: ';' between items, and
    the characters a game string reads as structure escaped inside strings (so a saved
    game or state loads again; :func:`parse_options` reads it)."""
    text = json.dumps(options, separators=(";", ":"), sort_keys=True)
    parts, inside, escaped = [], False, False
    for ch in text:
        if inside and not escaped and ch in _UNSAFE:
            parts.append(_UNSAFE[ch])
            continue
        parts.append(ch)
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == '"':
            inside = not inside
    return "".join(parts)


def parse_options(game: str, text: str) -> dict[str, Any]:
    """The options of plain JSON or of :func:`options_text` (InputError on bad ones)."""
    try:
        options = json.loads(text or "{}")
    except json.JSONDecodeError as exc:
        try:  # the game-string form: ';' between items (no raw ';' inside its strings)
            options = json.loads(text.replace(";", ","))
        except json.JSONDecodeError:
            raise InputError(f"{PREFIX}{game}: options must be JSON ({exc.msg})") from None
    if not isinstance(options, dict):
        raise InputError(f"{PREFIX}{game}: options must be a JSON object")
    return options


def bridge_for(params: dict[str, Any], game: str) -> Bridge:
    """The bridge of ``game`` under OpenSpiel game parameters (InputError on bad ones)."""
    options = parse_options(game, params.get("options") or "{}")
    return codec_for(game)(options, int(params["players"]))


def _game_type(game: str) -> pyspiel.GameType:
    bridge = codec_for(game)
    low, high = bridge.player_range
    return pyspiel.GameType(
        short_name=PREFIX + game, long_name=f"tabletune {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
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
        if bridge is None:  # kept as a game string can hold it: saved games load again
            spec["options"] = options_text(parse_options(self.game, spec["options"]))
        self.dealer: Dealer = dealer_for(self.game)(self.bridge)
        self.seed, self.dealt = int(spec["seed"]), 0
        low, high = self.bridge.utility_range()
        info = pyspiel.GameInfo(num_distinct_actions=self.bridge.num_actions(),
                                max_chance_outcomes=self.dealer.max_outcomes,
                                num_players=self.bridge.players,
                                min_utility=low, max_utility=high, utility_sum=None,
                                max_game_length=self.bridge.max_length)
        super().__init__(self.game_type, info, spec)

    game_type: pyspiel.GameType

    def new_initial_state(self) -> TabletuneState:
        return TabletuneState(self, _Held(self, chance=True))

    def max_chance_nodes_in_history(self) -> int:
        """A bound on chance draws per game (no more than decisions, ample)."""
        return 10 * self.bridge.max_length

    def deal(self) -> Any:
        """The next game's opening, its draws still to come as chance outcomes (dealt
        lazily: OpenSpiel's clone of a Python state makes a new initial state and then
        copies the original's fields over it)."""
        seed = int(game_seeds(self.seed, 1, self.dealt)[0])
        self.dealt += 1
        return self.dealer.opening(seed)

    def wrap(self, state: Any) -> TabletuneState:
        """An OpenSpiel state around one of our states with its own seeded future and no
        chance nodes (a determinization to search, a replay)."""
        return TabletuneState(self, _Held(self, state))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self.bridge, recall)


class _Held:
    """Our state, the moves each seat saw and, under chance, the step being resolved (a
    move or the deal) with the chance outcomes chosen for it so far. Copied with the
    state's own ``clone``; pickled with the game's parameters in place of the game."""

    def __init__(self, game: TabletuneGame, state: Any = None,
                 seen: list[str] | None = None, *, chance: bool = False) -> None:
        self.game, self._state, self.chance = game, state, chance
        self.seen = seen or [""] * game.bridge.players  # per seat: the moves as it saw them
        self.pending: Any = DEAL if chance and state is None else None
        self.forced: list[int] = []
        self.outcomes: Outcomes = []

    @property
    def state(self) -> Any:
        if self._state is None:
            self._state = self.game.deal()
            self.resolve()
        return self._state

    def resolve(self) -> None:
        """Settle the pending step if its outcomes suffice, else list the next ones."""
        result = self.game.dealer.resolve(self._state, self.pending, self.forced)
        if isinstance(result, list):
            self.outcomes = result
        else:
            self._state, self.pending, self.forced, self.outcomes = result, None, [], []

    def copy(self, state: Any) -> _Held:
        out = _Held(self.game, state, list(self.seen), chance=self.chance)
        out.pending, out.forced, out.outcomes = self.pending, list(self.forced), \
            list(self.outcomes)
        return out

    def __deepcopy__(self, memo: dict) -> _Held:
        return self.copy(self.state.clone())

    def __getstate__(self) -> dict:
        self.state  # noqa: B018  (deal first)
        game = self.game
        return {**self.__dict__, "game": (game.get_type().short_name, game.get_parameters())}

    def __setstate__(self, data: dict) -> None:
        self.__dict__.update(data)
        self.game = pyspiel.load_game(*data["game"])


class TabletuneState(pyspiel.State):
    """An OpenSpiel state around one of our states (``inner``)."""

    def __init__(self, game: TabletuneGame, held: _Held) -> None:
        super().__init__(game)
        self.held = held

    @property
    def inner(self) -> Any:
        """Our state (while a chance step is pending: the position before it)."""
        return self.held.state

    @property
    def bridge(self) -> Bridge:
        return self.held.game.bridge

    def current_player(self) -> int:
        p = self.inner.current_player()
        if self.held.pending is not None:
            return pyspiel.PlayerId.CHANCE
        return pyspiel.PlayerId.TERMINAL if p < 0 else p

    def chance_outcomes(self) -> Outcomes:
        self.inner  # noqa: B018  (deal first)
        return list(self.held.outcomes)

    def _legal_actions(self, player: int) -> list[int]:
        return self.bridge.legal_actions(self.inner) if player == self.current_player() else []

    def _apply_action(self, action: int) -> None:
        held = self.held
        if held.pending is not None:  # a chance outcome
            held.forced.append(int(action))
            held.resolve()
            return
        inner, bridge, seen = self.inner, self.bridge, held.seen
        move = bridge.decode(inner, int(action))
        mover, full, public = inner.current_player(), inner.move_to_string(move), \
            bridge.public(move, inner)
        for p in range(len(seen)):
            seen[p] += f"{len(inner.history)}. {full if p == mover else public} | "
        if held.chance:
            held.pending = move
            held.resolve()
        else:
            inner.apply(move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.held.game.dealer.outcome_text(int(action))
        try:
            return self.inner.move_to_string(self.bridge.decode(self.inner, int(action)))
        except ValueError:
            return f"action {action}"

    def is_terminal(self) -> bool:
        return self.held.pending is None and self.inner.is_terminal()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.bridge.players
        return self.bridge.utility(self.inner)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any
                                ) -> TabletuneState:
        """A state ``player_id`` cannot tell from this one: what it cannot see dealt at
        random (the game's :meth:`Dealer.resample`), from a generator seeded by one draw of
        ``probability_sampler``; the same information-state string for ``player_id``."""
        if self.held.pending is not None:
            raise ValueError("resample_from_infostate at a chance node")
        rng = np.random.default_rng(int(probability_sampler() * 2**53))
        inner = self.inner
        if self.held.chance:
            out = self.held.game.dealer.resample(inner, int(player_id), rng)
        else:
            out = self.bridge.determinize(inner, int(player_id), rng)
        out.history = list(inner.history)
        return TabletuneState(self.held.game, self.held.copy(out))

    def __str__(self) -> str:
        text = self.bridge.text(self.inner)
        if self.held.pending is None:
            return text
        step = self.held.pending
        step = step if step == DEAL else self.inner.move_to_string(step)
        return f"{text}\nchance: drawing for {step}, drawn {self.held.forced}"


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


def _register(names: list[str]) -> dict[str, type[TabletuneGame]]:
    out = {}
    for game in names:
        cls = type(f"Tabletune_{game}", (TabletuneGame,),
                   {"game": game, "game_type": _game_type(game)})
        if PREFIX + game not in pyspiel.registered_names():
            pyspiel.register_game(cls.game_type, cls)
        out[game] = cls
    return out


#: our OpenSpiel game classes by our game name (every game with a codec registered on
#: import; a game registered later joins on first use: :func:`game_class`)
GAMES = _register(codec_games())


def game_class(game: str) -> type[TabletuneGame]:
    """The OpenSpiel game class of ``game``, registered with OpenSpiel on first use (a
    plug-in game registered after this module was imported); InputError for a game
    without a codec."""
    if game not in GAMES:
        codec_for(game)  # one clear error for a game OpenSpiel cannot play
        GAMES.update(_register([game]))
    return GAMES[game]
