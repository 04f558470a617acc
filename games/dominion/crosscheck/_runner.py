"""Seeded pyminion games of a match-up, seats rotated, scored by our tie rule.

Game ``i`` of a run with root ``seed`` shuffles with ``random.Random(game_seeds(seed, ., i))``
and seats bot ``(k + i) % len(bots)`` in seat ``k`` (:func:`games.outcomes.seating_for`),
so any split of a run into blocks gives the same games, as with our engine's ``play``. The
supply is pyminion's basic piles plus exactly the match-up's kingdom cards; kingdom Victory
piles hold 8 cards with two players and 12 with more, as the rulebook says (pyminion's own
``Game`` makes every kingdom pile 10 cards and fills the kingdom up to ten random cards;
``stock_piles=True`` keeps its 10). Games longer than ``cap`` rounds stop, like ours.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from games.core import game_seeds
from games.dominion.crosscheck._lineup import buylist_text, kingdom_of
from games.dominion.crosscheck._players import CARD, SeededDeck, make_player
from games.dominion.crosscheck._pyminion import BigMoney, CardType, Game, Pile, Player, base
from games.dominion.crosscheck._rules import seat_outcomes
from games.outcomes import Outcomes, seating_for


class CrossGame(Game):
    """pyminion's game with a fixed kingdom, no random fill, no stdout log and fixed seats."""

    def __init__(self, players: list, kingdom: Sequence[str], stock_piles: bool = False):
        super().__init__(players, expansions=[base.base_set],
                         kingdom_cards=[CARD[k] for k in kingdom], random_order=False,
                         log_stdout=False)
        self.stock_piles = stock_piles

    def _create_kingdom_piles(self) -> list[Pile]:
        victory = 8 if len(self.players) <= 2 else 12
        return [Pile([card] * (10 if self.stock_piles or CardType.Victory not in card.type
                               else victory))
                for card in self.kingdom_cards or []]


def play_one(game: CrossGame, cap: int) -> tuple[list[int], list[int], bool]:
    """Play ``game`` to its end (Provinces or three piles) or ``cap`` rounds: VP and turns
    per seat, and whether the cap stopped it."""
    game.start()
    players = game.players
    while True:
        for player in players:
            player.take_turn(game)
            game.card_cost_reduction = 0
            if game.is_over():
                return ([p.get_victory_points() for p in players],
                        [p.turns for p in players], False)
        if players[-1].turns >= cap:
            return [p.get_victory_points() for p in players], [p.turns for p in players], True


def play(bots: Sequence[str], seed: int, start: int, count: int, *,
         kingdom: Sequence[str] | None = None, cap: int = 100,
         stock_piles: bool = False) -> Outcomes:
    """Games ``start .. start+count-1`` of cross-check bots ``bots`` (names of
    :data:`._lineup.BOTS`) in pyminion, as :class:`Outcomes` (VP as the score, rounds as
    turns, plies in ``extra``). ``kingdom`` defaults to the cards the bots' buy lists name."""
    lists = [buylist_text(b) for b in bots]
    kingdom = kingdom_of(bots) if kingdom is None else tuple(kingdom)
    seats = len(bots)
    seating = seating_for(start, count, seats)
    outcome = np.zeros((count, seats), dtype=np.int8)
    vp = np.zeros((count, seats), dtype=np.float64)
    rounds = np.zeros(count, dtype=np.int64)
    plies = np.zeros(count, dtype=np.int64)
    capped = np.zeros(count, dtype=np.bool_)
    for i, s in enumerate(game_seeds(seed, count, start)):
        rng = random.Random(int(s))
        players = [make_player(f"{bots[b]}#{k}", lists[b], rng)
                   for k, b in enumerate(seating[i])]
        points, turns, capped[i] = play_one(CrossGame(players, kingdom, stock_piles), cap)
        outcome[i] = seat_outcomes(points, turns)
        vp[i] = points
        rounds[i] = turns[0]
        plies[i] = sum(turns)
    return Outcomes(start, seating, outcome, vp, rounds, capped, extra={"plies": plies})


def big_money_pair(rng: random.Random, own: bool) -> list[Player]:
    """Two Big Money players shuffling with ``rng``: pyminion's own example bot
    (``own``), or our buy list ``province | gold | silver`` on :mod:`._players`' decider;
    timing both shows what the decider costs pyminion."""
    if not own:
        return [make_player(f"big-money#{k}", buylist_text("big-money"), rng)
                for k in range(2)]
    players: list[Player] = [BigMoney(f"big_money#{k}") for k in range(2)]
    for player in players:
        player.deck = SeededDeck(rng)
    return players
