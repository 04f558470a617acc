"""Dominion's OpenSpiel/PettingZoo codec (the per-game part of :mod:`games.interop.bridge`,
found by presence as ``CODEC``): ``verb card`` is ``verb index * cards + card``, then the
card-less verbs; a seat sees what :meth:`DominionState.view` keeps (its own deck as a set,
opponents' hands, draw piles and discard piles as sizes; what a player looks at alone, such
as the card Library drew while its owner decides on it, as a size). Which draws are chance
outcomes: :mod:`games.dominion.dealer`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from games.interop.bridge import Bridge, counts
from games.state import State


class DominionBridge(Bridge):
    game = "dominion"
    player_range = (1, 4)

    def __init__(self, options: Any, players: int) -> None:
        super().__init__(options, players)
        from games.dominion._cards import NC
        from games.dominion._moves import (
            CARD_VERBS,
            DONE,
            END_ACTIONS,
            END_TURN,
            PLAY_TREASURES,
            STEWARD_OPTIONS,
        )
        self.nc, self.verbs = NC, {v: i for i, v in enumerate(CARD_VERBS)}
        plain = (END_ACTIONS, PLAY_TREASURES, END_TURN, DONE, *STEWARD_OPTIONS)
        self.plain = {tuple(m): len(CARD_VERBS) * NC + i for i, m in enumerate(plain)}

    @property
    def max_length(self) -> int:
        return int(self.options.cap) * self.players * 400

    def num_actions(self) -> int:
        return len(self.verbs) * self.nc + len(self.plain)

    def encode(self, move: Hashable) -> int:
        from games.dominion._cards import INDEX
        verb, card = move
        if (verb, card) in self.plain:
            return self.plain[(verb, card)]
        return self.verbs[verb] * self.nc + INDEX[card]

    def public(self, move: Hashable, state: Any) -> str:
        verb = move[0]
        return "topdeck" if verb in ("topdeck", "keep") else str(move)

    def _zones(self, state: Any, player: int) -> list[tuple[str, list[int], bool]]:
        """(name, cards, seen by the other seats as cards rather than as a size) for every
        zone of ``player``. What a player looks at (Sentry's two cards, the card Library
        drew while its owner decides whether to set it aside) only its owner sees."""
        s = state
        return [("hand", s.hand[player], False), ("deck", s.deck[player], False),
                ("discard", s.discard[player], False), ("play", s.play[player], True),
                ("aside", s.aside[player], True), ("looking", s.looking[player], False)]

    def observation(self, state: Any, player: int) -> str:
        from games.dominion._cards import CARDS
        s = state

        def names(cards: list[int]) -> str:
            return ",".join(CARDS[c].key for c in sorted(cards)) or "-"

        lines = [f"seat {player}; seat {s.current_player()} to move; turn of seat "
                 f"{s.active}, phase {s.phase}, actions {s.actions}, buys {s.buys}, "
                 f"${s.coins}; turns {s.turns}",
                 "supply " + " ".join(f"{CARDS[c].key}:{s.supply[c]}"
                                      for c in s.piles),
                 "trash " + names(s.trash)]
        for q in range(self.players):
            parts = []
            for name, cards, seen in self._zones(state, q):
                if q == player and name == "deck":
                    parts.append(f"deck {{{names(cards)}}}")  # its order is hidden
                elif q == player or seen:
                    parts.append(f"{name} [{names(cards)}]")
                else:
                    parts.append(f"{name} {len(cards)}")
            lines.append(f"seat {q}: " + "; ".join(parts))
        if s.current_player() == player:
            lines.append("moves " + ", ".join(map(str, s.legal_moves())))
        return "\n".join(lines)

    def tensor_size(self) -> int:
        return 6 * self.nc + 3 * (3 * self.nc + 4) + 2 * self.nc + 8

    def tensor(self, state: Any, player: int) -> np.ndarray:
        s, nc = state, self.nc
        parts = [counts(cards, nc) for _, cards, _ in self._zones(state, player)]
        for k in range(1, 4):
            q = (player + k) % self.players
            if k >= self.players:
                parts.append(np.zeros(3 * nc + 4, dtype=np.float32))
                continue
            zones = self._zones(state, q)
            parts += [counts(zones[3][1], nc), counts(zones[4][1], nc), counts([], nc),
                      np.asarray([len(z[1]) for z in (zones[0], zones[1], zones[2],
                                                      zones[5])], dtype=np.float32)]
        parts += [counts([], nc) + np.maximum(np.asarray(s.supply, dtype=np.float32), 0),
                  counts(s.trash, nc),
                  np.asarray([s.phase, s.actions, s.buys, s.coins,
                              (s.active - player) % self.players,
                              float(s.current_player() == player),
                              s.turns[player], float(s.done)], dtype=np.float32)]
        return np.concatenate(parts)

    def determinize(self, state: Any, player: int, rng: np.random.Generator) -> State:
        return state.view(player, rng)


#: the game's codec, found by :func:`games.interop.bridge.codec_for`
CODEC = DominionBridge
