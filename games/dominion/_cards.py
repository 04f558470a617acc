"""Dominion cards as data: one row per card, compiled into integer tables for the engine.

A simple card is one line of ``CARDS`` built from the effect primitives (+cards, +actions,
+buys, +coins, coin value as treasure, victory points). A card that needs a decision gets a
``special`` code and its effect in the engine (Steward's in ``engine``, the base set's in
``effects``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from games.core import InputError


@dataclass(frozen=True)
class Card:
    """One card type: cost, types and the primitives it applies when played."""

    name: str
    cost: int
    action: bool = False
    treasure: bool = False
    coin: int = 0        # value when played as a treasure
    vp: int = 0          # victory points at game end
    cards: int = 0       # +Cards
    actions: int = 0     # +Actions
    buys: int = 0        # +Buys
    coins: int = 0       # +$ from an action
    special: int = 0     # 0 none; SPECIAL_STEWARD: choose +2 cards / +$2 / trash 2;
    #                      SPECIAL_EFFECT: an effect of its own (games.dominion._effects)
    kingdom: bool = False
    victory_type: bool = False  # a Victory card even without fixed VP (Gardens)
    attack: bool = False
    reaction: bool = False

    @property
    def key(self) -> str:
        return card_key(self.name)

    @property
    def victory(self) -> bool:
        """A Victory card (Curse, with negative VP, is not)."""
        return self.vp > 0 or self.victory_type


SPECIAL_STEWARD = 1
SPECIAL_EFFECT = 2  # an effect of its own in games.dominion._effects (the base set's cards)

# Index order is part of the engine's state layout: append new cards at the end.
CARDS: tuple[Card, ...] = (
    Card("Copper", 0, treasure=True, coin=1),
    Card("Silver", 3, treasure=True, coin=2),
    Card("Gold", 6, treasure=True, coin=3),
    Card("Estate", 2, vp=1),
    Card("Duchy", 5, vp=3),
    Card("Province", 8, vp=6),
    Card("Curse", 0, vp=-1),
    Card("Village", 3, action=True, cards=1, actions=2, kingdom=True),
    Card("Woodcutter", 3, action=True, buys=1, coins=2, kingdom=True),
    Card("Great Hall", 3, action=True, vp=1, cards=1, actions=1, kingdom=True),
    Card("Steward", 3, action=True, special=SPECIAL_STEWARD, kingdom=True),
    Card("Smithy", 4, action=True, cards=3, kingdom=True),
    Card("Worker's Village", 4, action=True, cards=1, actions=2, buys=1, kingdom=True),
    Card("Laboratory", 5, action=True, cards=2, actions=1, kingdom=True),
    Card("Market", 5, action=True, cards=1, actions=1, buys=1, coins=1, kingdom=True),
    Card("Festival", 5, action=True, actions=2, buys=1, coins=2, kingdom=True),
    Card("Bazaar", 5, action=True, cards=1, actions=2, coins=1, kingdom=True),
    Card("Harem", 6, treasure=True, coin=2, vp=2, kingdom=True),
    # The rest of the base set, 2nd edition. Rows give cost, types and the additive part of
    # each card; what a card decides or does beyond that is its special code in the engine.
    Card("Artisan", 6, action=True, special=SPECIAL_EFFECT, kingdom=True),
    Card("Bandit", 5, action=True, attack=True, special=SPECIAL_EFFECT, kingdom=True),
    Card("Bureaucrat", 4, action=True, attack=True, special=SPECIAL_EFFECT, kingdom=True),
    Card("Cellar", 2, action=True, actions=1, special=SPECIAL_EFFECT, kingdom=True),
    Card("Chapel", 2, action=True, special=SPECIAL_EFFECT, kingdom=True),
    Card("Council Room", 5, action=True, cards=4, buys=1, special=SPECIAL_EFFECT, kingdom=True),
    Card("Gardens", 4, victory_type=True, kingdom=True),
    Card("Harbinger", 3, action=True, cards=1, actions=1, special=SPECIAL_EFFECT, kingdom=True),
    Card("Library", 5, action=True, special=SPECIAL_EFFECT, kingdom=True),
    Card("Merchant", 3, action=True, cards=1, actions=1, special=SPECIAL_EFFECT, kingdom=True),
    Card("Militia", 4, action=True, coins=2, attack=True, special=SPECIAL_EFFECT, kingdom=True),
    Card("Mine", 5, action=True, special=SPECIAL_EFFECT, kingdom=True),
    Card("Moat", 2, action=True, cards=2, reaction=True, kingdom=True),
    Card("Moneylender", 4, action=True, special=SPECIAL_EFFECT, kingdom=True),
    Card("Poacher", 4, action=True, cards=1, actions=1, coins=1,
         special=SPECIAL_EFFECT, kingdom=True),
    Card("Remodel", 4, action=True, special=SPECIAL_EFFECT, kingdom=True),
    Card("Sentry", 5, action=True, cards=1, actions=1, special=SPECIAL_EFFECT, kingdom=True),
    Card("Throne Room", 4, action=True, special=SPECIAL_EFFECT, kingdom=True),
    Card("Vassal", 3, action=True, coins=2, special=SPECIAL_EFFECT, kingdom=True),
    Card("Witch", 5, action=True, cards=2, attack=True, special=SPECIAL_EFFECT, kingdom=True),
    Card("Workshop", 3, action=True, special=SPECIAL_EFFECT, kingdom=True),
)

NC = len(CARDS)


def card_key(name: str) -> str:
    """Canonical kebab-case key: "Worker's Village" -> "workers-village"."""
    out = name.strip().lower().replace("'", "").replace("’", "")
    for sep in (" ", "_"):
        out = out.replace(sep, "-")
    return out


KEYS: tuple[str, ...] = tuple(c.key for c in CARDS)
INDEX: dict[str, int] = {k: i for i, k in enumerate(KEYS)}
(COPPER, SILVER, GOLD, ESTATE, DUCHY, PROVINCE, CURSE, VILLAGE, WOODCUTTER, GREAT_HALL, STEWARD,
 SMITHY, WORKERS_VILLAGE, LABORATORY, MARKET, FESTIVAL, BAZAAR, HAREM, ARTISAN, BANDIT,
 BUREAUCRAT, CELLAR, CHAPEL, COUNCIL_ROOM, GARDENS, HARBINGER, LIBRARY, MERCHANT, MILITIA, MINE,
 MOAT, MONEYLENDER, POACHER, REMODEL, SENTRY, THRONE_ROOM, VASSAL, WITCH, WORKSHOP) = range(NC)
# The cards of the sources' kingdoms (everything before Artisan): the learned player's
# features describe these.
SOURCE_CARDS = ARTISAN
BASE_SET_KEYS: tuple[str, ...] = (
    "artisan", "bandit", "bureaucrat", "cellar", "chapel", "council-room", "festival",
    "gardens", "harbinger", "laboratory", "library", "market", "merchant", "militia", "mine",
    "moat", "moneylender", "poacher", "remodel", "sentry", "smithy", "throne-room", "vassal",
    "village", "witch", "workshop",
)

# The kingdom cards a game may use: the sources' and the whole base set.
KINGDOM_KEYS: tuple[str, ...] = tuple(c.key for c in CARDS if c.kingdom)
# Seed 001's kingdom (the Stanford report's appendix): every kingdom card but Steward.
DEFAULT_KINGDOM: tuple[str, ...] = (
    "smithy", "village", "woodcutter", "laboratory", "market", "festival", "bazaar",
    "workers-village", "great-hall", "harem",
)
# The blog's (seed 004) kingdom.
BLOG_KINGDOM: tuple[str, ...] = ("smithy", "steward")

# Integer tables read by the numba engine (module globals are compile-time constants).
COST = np.array([c.cost for c in CARDS], dtype=np.int64)
COIN = np.array([c.coin if c.treasure else 0 for c in CARDS], dtype=np.int64)
VP = np.array([c.vp for c in CARDS], dtype=np.int64)
IS_ACTION = np.array([c.action for c in CARDS], dtype=np.bool_)
IS_TREASURE = np.array([c.treasure for c in CARDS], dtype=np.bool_)
PLUS_CARDS = np.array([c.cards for c in CARDS], dtype=np.int64)
PLUS_ACTIONS = np.array([c.actions for c in CARDS], dtype=np.int64)
PLUS_BUYS = np.array([c.buys for c in CARDS], dtype=np.int64)
PLUS_COINS = np.array([c.coins for c in CARDS], dtype=np.int64)
SPECIAL = np.array([c.special for c in CARDS], dtype=np.int64)


def _action_order() -> np.ndarray:
    """Static play order of the shared action player: villages (+2 Actions) first, then
    other non-terminals, then terminals; within each group, more +Cards first (draw before
    money), then more +$, more +Buys, attacks first (Witch before Moat)."""
    acts = [i for i, c in enumerate(CARDS) if c.action]

    def rank(i: int) -> tuple:
        c = CARDS[i]
        group = 0 if c.actions >= 2 else (1 if c.actions == 1 else 2)
        draws = 2 if c.special == SPECIAL_STEWARD else (3 if c.name == "Library" else c.cards)
        return (group, -draws, -c.coins, -c.buys, not c.attack, i)

    return np.array(sorted(acts, key=rank), dtype=np.int64)


ACTION_ORDER = _action_order()


def card_index(name: str, *, context: str = "card") -> int:
    """Index of a card given any reasonable spelling; unknown names raise InputError."""
    key = card_key(name)
    if key not in INDEX:
        raise InputError(f"unknown {context} {name!r}; known cards: {', '.join(KEYS)}")
    return INDEX[key]


def initial_supply(players: int, kingdom: Sequence[str], rules: tuple[int, int, int] = (0, 10, 10)
                   ) -> np.ndarray:
    """Pile sizes at the start (int64, -1 for cards not in this game), before starting decks.

    Victory piles (Estate, Duchy, Province and victory kingdom cards) hold 8 cards with one
    or two players, 12 with three or four; Copper holds 60 - 7 per player; Curse holds
    10 per player after the first (solo games have no Curse pile, rather than an empty one
    that would count for the three-pile ending). ``rules`` changes the printed rules:
    (Provinces, 0 for the printed count; Curses per player after the first; cards of a
    kingdom pile that is not a Victory card), as a balance study tunes them.
    """
    provinces, curses_per_player, kingdom_pile = rules
    if not 1 <= players <= 4:
        raise InputError(f"players must be 1 (solo) or 2-4, got {players}")
    victory = 8 if players <= 2 else 12
    supply = np.full(NC, -1, dtype=np.int64)
    supply[COPPER] = 60 - 7 * players
    supply[SILVER] = 40
    supply[GOLD] = 30
    supply[ESTATE] = supply[DUCHY] = supply[PROVINCE] = victory
    if provinces:
        supply[PROVINCE] = provinces
    if players >= 2:
        supply[CURSE] = curses_per_player * (players - 1)
    for key in kingdom:
        i = INDEX[key]
        supply[i] = victory if CARDS[i].victory else kingdom_pile
    return supply
