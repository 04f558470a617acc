"""The generic bridge between a :class:`games.state.State` and the fixed integer action
space, observations and returns that OpenSpiel and PettingZoo want.

A :class:`Bridge` is bound to one game, its checked options and a player count. The per-game
part is small and lives beside the game, as its ``codec`` part (``CODEC`` in
``games/<game>/codec.py``, a subclass of :class:`Bridge`; :func:`codec_for` finds it by
presence): the action id of a move, what a seat sees (as a string and as a fixed-size
tensor), the utility and one sampled completion of what a seat cannot see (a
determinization for search bots). Legal action ids are decoded through the state's own
legal moves, so no game needs a decoder.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from games.core import InputError
from games.state import State


class Bridge:
    """One game under one set of options and one player count (see the module text)."""

    #: registry name of the game
    game: str = ""
    #: OpenSpiel's max_game_length may not be exceeded: a bound on decisions per game
    max_length: int = 1000
    #: fewest and most players (OpenSpiel asks before any game is loaded)
    player_range: tuple[int, int] = (1, 1)
    #: players when none are named (0: two where the game allows two, else the fewest)
    default_players: int = 0
    #: True where a seat sees the whole position (only the future draws are unknown)
    perfect_information: bool = False

    def __init__(self, options: Mapping[str, Any], players: int) -> None:
        from games import registry

        self.registry_game = registry.get(self.game)
        self.options = self.registry_game.check_options(dict(options))
        self.players = self.check_players(players)

    # ---- what a game writes
    def check_players(self, players: int) -> int:
        """The player count (InputError when the game is not played by that many)."""
        counts = self.registry_game.player_counts
        if players not in counts:
            raise InputError(f"{self.game} is played by {', '.join(map(str, counts))} "
                             f"players, got {players}")
        return players

    def num_actions(self) -> int:
        """Size of the fixed action space (ids 0 .. num_actions - 1)."""
        raise NotImplementedError

    def encode(self, move: Hashable) -> int:
        """The action id of a move."""
        raise NotImplementedError

    def observation(self, state: State, player: int) -> str:
        """What ``player`` sees now, as text (hidden cards hidden)."""
        raise NotImplementedError

    def tensor_size(self) -> int:
        raise NotImplementedError

    def tensor(self, state: State, player: int) -> np.ndarray:
        """What ``player`` sees now, as a float32 vector of :meth:`tensor_size`."""
        raise NotImplementedError

    def utility_range(self) -> tuple[float, float]:
        """Smallest and largest value :meth:`utility` can give."""
        return 0.0, 1.0

    def utility(self, state: State) -> list[float]:
        """Per seat, as the game scores a finished game (default: 1 win, 0.5 shared, 0 loss)."""
        return [float(v) for v in state.returns()]

    def public(self, move: Hashable, state: State) -> str:
        """How the other seats see ``move`` played in ``state`` (default: all of it)."""
        return state.move_to_string(move)

    def determinize(self, state: State, player: int, rng: np.random.Generator) -> State:
        """One position consistent with what ``player`` sees, hidden cards dealt at random
        (and a fresh random future): the root a search bot may search from."""
        raise NotImplementedError

    def text(self, state: State) -> str:
        """The whole position as text (OpenSpiel's ``str(state)``)."""
        text = state.describe()
        return text if text is not None else self.observation(state, 0)

    # ---- generic
    def new_state(self, seed: int) -> State:
        """Game 0 of the run with root ``seed`` (the game's own ``new_state``)."""
        return self.registry_game.new_state(self.options, seed, self.players)

    def legal_actions(self, state: State) -> list[int]:
        """Sorted legal action ids of the player to move."""
        return sorted(self.encode(m) for m in state.legal_moves())

    def decode(self, state: State, action: int) -> Hashable:
        """The legal move with id ``action``; ValueError for an id that is not legal."""
        for move in state.legal_moves():
            if self.encode(move) == action:
                return move
        raise ValueError(f"{self.game}: action {action} is not legal here")

    def mask(self, state: State) -> np.ndarray:
        """1 for each legal action id (int8, :meth:`num_actions` long)."""
        out = np.zeros(self.num_actions(), dtype=np.int8)
        out[self.legal_actions(state)] = 1
        return out


def counts(cards: list[int], size: int) -> np.ndarray:
    """How many of each card id (float32, ``size`` long)."""
    return np.bincount(np.asarray(cards, dtype=np.int64), minlength=size)[:size].astype(
        np.float32)


def codec_for(game: str) -> type[Bridge]:
    """The codec a game offers: its ``codec`` part (``CODEC`` in ``games/<game>/codec.py``
    for a built-in game, :mod:`games.capabilities`), found by presence. InputError naming
    the games that offer one otherwise."""
    from games import registry
    from games.capabilities import part

    codec = part(registry.get(game), "codec") if game in registry.names() else None
    if codec is None:
        raise InputError(f"game {game!r} has no OpenSpiel/PettingZoo codec; games with one: "
                         f"{', '.join(codec_games())}")
    return codec


def codec_games() -> list[str]:
    """Every registered game that OpenSpiel and PettingZoo can play (it offers the
    ``openspiel`` capability: a State, a codec and a dealer), sorted by name."""
    from games import registry
    from games.capabilities import offers

    return [name for name in registry.names() if offers(registry.get(name), "openspiel")]
