"""A toy two-player deck-builder, added exactly as a new game is: one package (this folder:
``game.py`` registers the description, ``codec.py`` and ``dealer.py`` are its OpenSpiel
parts, found by presence) and one line naming it (here ``TABLETUNE_GAMES``, which the
contract suite's conftest sets; a built-in game's line is in ``games/catalog.py``). It shows
that a new game gets the whole contract suite, the CLI, both optimisers, OpenSpiel,
PettingZoo and OpenSpiel's MCTS bot without an edit to ``games/`` or ``tuning/``.

Each player starts with 7 Coppers (1 coin) and 3 Estates (1 point) and draws 5 cards a turn
from a reshuffled deck; a turn buys at most one card: a Province (cost 8, 6 points), Gold
(cost 6, 3 coins) or Silver (cost 3, 2 coins). The game ends when the 8 Provinces are gone or
after 40 rounds (capped); most points wins, equal points share.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from games import registry
from games.core import BotSpec, game_seeds, tunable
from games.state import State

COINS = {"copper": 1, "silver": 2, "gold": 3}
POINTS = {"estate": 1, "province": 6}
COST = {"silver": 3, "gold": 6, "province": 8}
#: every card, in the order of the chance outcomes and observations (``dealer.py``, ``codec.py``)
CARDS = ("copper", "silver", "gold", "estate", "province")


@dataclasses.dataclass(frozen=True)
class MoneyParams:
    """Buy a Province from ``province_at`` coins, Gold from ``gold_at``."""

    province_at: int = tunable(8, 8, 12, integer=True)
    gold_at: int = tunable(6, 6, 8, integer=True)


class ToyState(State):
    """The turn-level API of the toy: a move is the card bought ("pass" buys nothing)."""

    def __init__(self, rng: np.random.Generator, cap: int) -> None:
        super().__init__()
        self.rng, self.cap = rng, cap
        self.decks = [["copper"] * 7 + ["estate"] * 3 for _ in range(2)]
        self.provinces, self.turn, self.player = 8, 0, 0
        self.hand = self._draw()

    def _draw(self) -> list[str]:
        deck = self.decks[self.player]
        return [deck[i] for i in self.rng.permutation(len(deck))[:5]]

    def money(self) -> int:
        return sum(COINS.get(c, 0) for c in self.hand)

    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.player

    def _legal_moves(self) -> list[str]:
        money = self.money()
        return ["pass"] + [c for c in ("silver", "gold", "province") if COST[c] <= money
                           and (c != "province" or self.provinces > 0)]

    def _apply(self, move: str) -> None:
        if move != "pass":
            self.decks[self.player].append(move)
            self.provinces -= move == "province"
        self.player = 1 - self.player
        self.turn += self.player == 0
        if not self.is_terminal():
            self.hand = self._draw()

    def is_terminal(self) -> bool:
        return (self.provinces == 0 and self.player == 0) or self.turn >= self.cap

    def points(self) -> list[int]:
        return [sum(POINTS.get(c, 0) for c in d) for d in self.decks]

    def scores(self) -> list[float]:
        return [float(p) for p in self.points()]

    def returns(self) -> list[float]:
        p = self.points()
        return [1.0 if p[k] > p[1 - k] else 0.5 if p[k] == p[1 - k] else 0.0 for k in (0, 1)]

    def clone(self) -> ToyState:
        twin = ToyState.__new__(ToyState)
        twin.history = list(self.history)
        twin.rng = np.random.Generator(np.random.PCG64())
        twin.rng.bit_generator.state = self.rng.bit_generator.state
        twin.cap, twin.provinces, twin.turn, twin.player = (self.cap, self.provinces,
                                                            self.turn, self.player)
        twin.decks = [list(d) for d in self.decks]
        twin.hand = list(self.hand)
        return twin


def choose(bot: BotSpec, state: ToyState, params: Any,
           rng: np.random.Generator | None = None) -> str:
    """The move of a bot: Big Money by thresholds, or a uniformly random legal move (drawn
    from ``rng``, by default the state's own)."""
    moves = state.legal_moves()
    if bot.name == "random":
        return moves[int((state.rng if rng is None else rng).integers(len(moves)))]
    money = state.money()
    for card, at in (("province", params.province_at), ("gold", params.gold_at),
                     ("silver", 3)):
        if card in moves and money >= at:
            return card
    return "pass"


@dataclasses.dataclass
class ToyPlayer:
    """One of the toy's bots deciding on a ToyState, move by move (beside OpenSpiel's)."""

    bot: BotSpec
    params: Any
    rng: np.random.Generator

    def act(self, state: ToyState) -> str:
        return choose(self.bot, state, self.params, self.rng)


class ToyGame(registry.Game):
    name = "toy-deckbuilder"
    summary = "a toy two-player deck-builder (tests only)"
    player_counts = (2,)
    options = (registry.Option("cap", int, 40, "rounds before a game is capped", low=1),)
    default_opponents = ("big-money",)
    golden_bots = ("big-money", "random")
    rollout_bot = "big-money"

    def bots(self) -> dict[str, registry.BotInfo]:
        return {"big-money": registry.BotInfo("big-money", "thresholds", MoneyParams),
                "random": registry.BotInfo("random", "uniform legal moves")}

    def new_state(self, options: Mapping[str, Any], seed: int, players: int) -> ToyState:
        rng = np.random.Generator(np.random.PCG64(int(game_seeds(seed, 1)[0])))
        return ToyState(rng, int(options.get("cap", 40)))

    def state_player(self, spec: BotSpec, options: Mapping[str, Any],
                     rng: np.random.Generator) -> ToyPlayer:
        return ToyPlayer(spec, registry.params_of(self, spec), rng)

    def play(self, bots: Sequence[BotSpec], options: Mapping[str, Any], seed: int, start: int,
             count: int, *, rotate: bool = True) -> registry.Outcomes:
        seating = registry.seating_for(start, count, len(bots), rotate=rotate)
        params = [registry.params_of(self, b) for b in bots]
        outcome = np.zeros((count, 2), dtype=np.int8)
        score = np.zeros((count, 2))
        turns = np.zeros(count, dtype=np.int64)
        capped = np.zeros(count, dtype=np.bool_)
        for i, s in enumerate(game_seeds(seed, count, start)):
            state = ToyState(np.random.Generator(np.random.PCG64(int(s))),
                             int(options.get("cap", 40)))
            while not state.is_terminal():
                b = seating[i, state.player]
                state.apply(choose(bots[b], state, params[b]))
            score[i] = state.points()
            outcome[i] = [int(2 * r - 1) for r in state.returns()]
            turns[i], capped[i] = state.turn, state.provinces > 0
        return registry.Outcomes(start, seating, outcome, score, turns, capped)

    def invariants(self, options: Mapping[str, Any], seed: int, count: int) -> None:
        out = self.play([BotSpec("random"), BotSpec("random")], self.check_options(options),
                        seed, 0, count)
        assert np.all(out.score >= 3)  # the starting Estates never leave a deck
        assert np.all((out.outcome == 0).sum(axis=1) != 1)  # a share is always mutual


registry.register(ToyGame())
