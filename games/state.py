"""The turn-level API that search players (Minimax, random search, online GAs, learned
players) use: a state that can be copied, its legal moves listed, a move applied and the
result read. Fast batch kernels stay beside it for matches.

A game implements the small private hooks; the base class does the bookkeeping (history,
validation of moves, terminal checks), as OpenSpiel's ``State`` does.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence

Move = Hashable


class State(ABC):
    """One position of a game. Moves are hashable plain values (ints or tuples).

    Beside the hooks below, a state declares what a match played through it records
    (:func:`games.interop._match.play_states`): ``rounds`` where the game counts rounds
    (else ``None``, and the match counts decisions) and ``capped`` once a cap rather than
    the rules ended the game; :meth:`describe` writes the whole position where the game
    has a text of its own (OpenSpiel's ``str(state)``)."""

    #: rounds played, where the game counts them (a property of the game's state); None:
    #: it does not, and a match records the decisions played instead
    rounds: int | None = None
    #: True once a cap on the game's length (not its rules) ended it
    capped: bool = False

    def __init__(self) -> None:
        self.history: list[Move] = []

    # ---- hooks a game writes
    @abstractmethod
    def current_player(self) -> int:
        """Seat to move (-1 once the game is over)."""

    @abstractmethod
    def _legal_moves(self) -> Sequence[Move]:
        """Legal moves of the player to move (never empty while the game runs: a game
        whose rules leave a player without a move offers an explicit pass)."""

    @abstractmethod
    def _apply(self, move: Move) -> None:
        """Play ``move`` in place."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game has ended."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Per seat: 1 win, 0.5 shared first place, 0 loss (only meaningful when terminal)."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (history included)."""

    def scores(self) -> list[float]:
        """The game's own score per seat (points, or cards left in The Game); by default
        the returns."""
        return self.returns()

    def move_to_string(self, move: Move) -> str:
        """A readable form of ``move`` for traces."""
        return str(move)

    def describe(self) -> str | None:
        """The whole position as text, for people (traces, OpenSpiel's ``str(state)``);
        None where the game writes none (the bridge then shows seat 0's view)."""
        return None

    def turns_played(self) -> int:
        """What a match records as this game's turns: its ``rounds`` where the game counts
        them, else the decisions played."""
        return len(self.history) if self.rounds is None else int(self.rounds)

    # ---- bookkeeping
    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to move (empty once the game is over)."""
        return [] if self.is_terminal() else list(self._legal_moves())

    def apply(self, move: Move) -> None:
        """Play a legal move; ValueError for a move that is not legal here."""
        if self.is_terminal():
            raise ValueError("the game is over")
        if move not in self._legal_moves():
            raise ValueError(f"illegal move {self.move_to_string(move)}")
        self._apply(move)
        self.history.append(move)

    def child(self, move: Move) -> State:
        """A copy with ``move`` played."""
        nxt = self.clone()
        nxt.apply(move)
        return nxt
