"""The per-game part of the bridge (:mod:`games.interop.bridge`): action ids, what a seat sees
and a determinization, for each game with a turn-level State. (Which draws are chance
outcomes under OpenSpiel: each game's ``dealer`` module (:func:`games.interop.chance.dealer_for`).)

- Splendor: a move code is its own id; a seat sees the game's honest view
  (:meth:`SplendorState.view`: deck order and opponents' blind reserves hidden).
- The Game: ``(card, pile)`` is ``(card - 2) * 4 + pile``, ending a turn is the last id; a
  seat sees its own hand, the piles and the draw pile's size (the order of the draw pile and
  the other hands are hidden). Utility: minus the cards left, the game's own score.
- Deck-building model: ``pass`` is 0, card ``i`` of the set is ``i + 1``; solo and fully
  seen but for the future draws. Utility: the deck's points.
- Dominion: ``verb card`` is ``verb index * cards + card``, then the card-less verbs; a seat
  sees what :meth:`DominionState.view` keeps (its own deck as a set, opponents' hands and
  draw piles as sizes, their discard piles as size and top card; what a player looks at
  alone, such as the card Library drew while its owner decides on it, as a size).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from games.interop.bridge import Bridge, counts
from games.state import State


class SplendorBridge(Bridge):
    game = "splendor"
    player_range = (2, 4)

    def num_actions(self) -> int:
        from games.splendor.rules import M_PAID, M_TAKE, N_PAYMENTS
        return M_PAID + M_TAKE * N_PAYMENTS

    @property
    def max_length(self) -> int:
        return int(self.options.cap) * self.players * 6 + 10

    def encode(self, move: Hashable) -> int:
        return int(move)

    def observation(self, state: Any, player: int) -> str:
        # the honest view's array in full: compact, and hiding exactly what the view hides
        # (its describe() is readable but costs more than the rest of a step)
        return f"seat {player}: " + " ".join(map(str, state.view(player).array.tolist()))

    def text(self, state: Any) -> str:
        return " ".join(map(str, state.array.tolist()))

    def tensor_size(self) -> int:
        from games.splendor.rules import SIZE
        return SIZE

    def tensor(self, state: Any, player: int) -> np.ndarray:
        return state.view(player).array.astype(np.float32)

    def determinize(self, state: Any, player: int, rng: np.random.Generator) -> State:
        return state.view(player, sampled=True, rng=rng)


class TheGameBridge(Bridge):
    game = "thegame"
    max_length = 2 * 98 + 10
    player_range = (1, 5)
    default_players = 1

    def __init__(self, options: Any, players: int) -> None:
        # the table's size is an option of the game, which the player count sets
        super().__init__({**dict(options), "players": players}, players)

    def check_players(self, players: int) -> int:
        return int(self.options.players)

    def num_actions(self) -> int:
        return 98 * 4 + 1

    def encode(self, move: Hashable) -> int:
        card, pile = move
        return 98 * 4 if pile < 0 else (card - 2) * 4 + pile

    def utility_range(self) -> tuple[float, float]:
        return -98.0, 0.0

    def utility(self, state: Any) -> list[float]:
        return [-s for s in state.scores()]

    def observation(self, state: Any, player: int) -> str:
        g = state
        others = [len(h) for q, h in enumerate(g.hands) if q != player]
        return (f"seat {player}, seat {g.current_player()} to move; piles up "
                f"{g.tops[0]} {g.tops[1]}, down {g.tops[2]} {g.tops[3]}; "
                f"hand {' '.join(map(str, g.hands[player]))}; "
                f"laid this turn {g.laid_now} of {g.minimum}; draw pile "
                f"{len(g.draw)}; other hands {others}")

    def tensor_size(self) -> int:
        return 100 + 4 + 5

    def tensor(self, state: Any, player: int) -> np.ndarray:
        g = state
        out = np.zeros(self.tensor_size(), dtype=np.float32)
        out[:100] = counts(g.hands[player], 100)
        out[100:104] = np.asarray(g.tops, dtype=np.float32) / 100.0
        out[104:] = (len(g.draw) / 98.0, g.laid_now, g.minimum,
                     float(g.current_player() == player), g.cards_left() / 98.0)
        return out

    def determinize(self, state: Any, player: int, rng: np.random.Generator) -> State:
        out = state.clone()
        others = [q for q in range(len(out.hands)) if q != player]
        pool = list(out.draw) + [c for q in others for c in out.hands[q]]
        pool = [pool[i] for i in rng.permutation(len(pool))]
        for q in others:
            k = len(out.hands[q])
            out.hands[q], pool = sorted(pool[:k]), pool[k:]
        out.draw = pool
        return out


class DeckbuilderBridge(Bridge):
    game = "deckbuilder"
    perfect_information = True  # solo and seen whole, but for the future draws

    def __init__(self, options: Any, players: int) -> None:
        super().__init__(options, players)
        self.cards = self.new_state(0).card_set  # the set the options describe
        self.index = {c.name: i + 1 for i, c in enumerate(self.cards.cards)}

    @property
    def max_length(self) -> int:
        return int(self.options.turns) + 1

    def num_actions(self) -> int:
        return len(self.cards.cards) + 1

    def encode(self, move: Hashable) -> int:
        return self.index.get(move, 0)

    def utility_range(self) -> tuple[float, float]:
        start = sum(k * self.cards.card(n).points for n, k in self.cards.start)
        best = max(c.points for c in self.cards.cards)
        low = min([0] + [c.points for c in self.cards.cards])
        return float(start + low * self.options.turns), float(start + best * self.options.turns)

    def utility(self, state: Any) -> list[float]:
        return state.scores()

    def observation(self, state: Any, player: int) -> str:
        s = state
        owned = ", ".join(f"{n} {k}" for n, k in s.counts.items())
        return f"turn {s.turn + 1} of {s.turns}; money {s.money}; deck {owned}"

    def tensor_size(self) -> int:
        return len(self.cards.cards) + 2

    def tensor(self, state: Any, player: int) -> np.ndarray:
        s = state
        return np.asarray(list(s.counts.values()) + [s.money, s.turn],
                          dtype=np.float32)

    def determinize(self, state: Any, player: int, rng: np.random.Generator) -> State:
        out = state.clone()
        out.rng = np.random.default_rng(int(rng.integers(2**63)))
        return out


class DominionBridge(Bridge):
    game = "dominion"
    player_range = (1, 4)

    def __init__(self, options: Any, players: int) -> None:
        super().__init__(options, players)
        from games.dominion.cards import NC
        from games.dominion.turns.moves import (
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
        from games.dominion.cards import INDEX
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
        from games.dominion.cards import CARDS
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
                elif name == "discard":
                    top = CARDS[cards[-1]].key if cards else "-"
                    parts.append(f"discard {len(cards)} top {top}")
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
            top = zones[2][1][-1:]
            parts += [counts(zones[3][1], nc), counts(zones[4][1], nc), counts(top, nc),
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


BRIDGES: dict[str, type[Bridge]] = {b.game: b for b in (SplendorBridge, TheGameBridge,
                                                        DeckbuilderBridge, DominionBridge)}
