"""The bots and match-ups of the cross-check: buy lists in our grammar and their kingdoms.

The buy lists are the shared plan's (issue 28); the named bots of :mod:`games.dominion._bots`
follow the same lists (a test holds them equal), so each match-up plays the same strategy in
both engines. A match-up's kingdom is the kingdom cards its bots' buy lists name.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core import InputError
from games.dominion._cards import CARDS, INDEX
from games.dominion._strategy import parse_strategy

BOTS: dict[str, str] = {
    "big-money": "province | gold | silver",
    "smithy-big-money": "province@money>15 | duchy@gains<=4 | estate@gains<=2 | gold"
                        " | duchy@gains<=6 | smithy:1 | smithy:2@cards>=16 | silver",
    "big-money-ultimate": "province@money>18 | duchy@gains<=4 | estate@gains<=2 | gold"
                          " | duchy@gains<=6 | silver",
    "double-witch": "province | gold | witch:2 | silver",
    "double-militia": "province | gold | militia:2 | silver",
    "laboratory-big-money": "province | gold | laboratory | silver",
    "council-room-big-money": "province | gold | council-room:1 | silver",
    "moneylender-big-money": "province | gold | moneylender:1 | silver",
    "bandit-big-money": "province | gold | bandit:1 | silver",
    "bureaucrat-big-money": "province | gold | bureaucrat:1 | silver",
    "moat-big-money": "province | gold | moat:2 | silver",
    "chapel-witch": "province | gold | witch:1 | chapel:1 | silver",
    "workshop-gardens": "province | gardens | workshop | estate@gains<=6 | copper",
    # the standard Workshop/Gardens player: its Workshops gain by its gain list
    "workshop-gardens-standard": "workshop:8 | gardens | estate@empty>=1 | copper"
                                 " | gain: gardens | workshop | estate | silver",
    # beyond the plan: bots that between them buy every other card of the base set
    "library-money": "province | gold | library:2 | silver",
    "throne-smithy": "province | gold | throne-room:1 | smithy:2 | silver",
    "festival-smithy": "province | gold | festival:2 | smithy:1 | silver",
    "market-merchant": "province | gold | market | merchant:2 | silver",
    "sentry-harbinger": "province | gold | sentry:1 | harbinger:2 | silver",
    "mine-remodel": "province | gold | mine:1 | remodel:1 | silver",
    "artisan-cellar": "province | artisan:1 | gold | cellar:1 | silver",
    "village-poacher-vassal": "province | gold | village:1 | poacher:1 | vassal:2 | silver",
}

#: The shared plan's match-ups, two players each (seats rotated game by game).
MATCHUPS: tuple[tuple[str, str], ...] = (
    ("double-witch", "big-money"),
    ("double-militia", "big-money"),
    ("laboratory-big-money", "big-money"),
    ("council-room-big-money", "big-money"),
    ("moneylender-big-money", "big-money"),
    ("bandit-big-money", "big-money"),
    ("bureaucrat-big-money", "big-money"),
    ("chapel-witch", "big-money"),
    ("moat-big-money", "double-witch"),
    ("workshop-gardens", "big-money"),
    ("double-witch", "double-militia"),
    ("smithy-big-money", "big-money"),
)


#: Beyond the plan: with the plan's match-ups, every card of the base set is played.
EXTRA_MATCHUPS: tuple[tuple[str, str], ...] = tuple(
    (bot, "big-money") for bot in ("library-money", "throne-smithy", "festival-smithy",
                                   "market-merchant", "sentry-harbinger", "mine-remodel",
                                   "artisan-cellar", "village-poacher-vassal"))


def buylist_text(bot: str) -> str:
    """The buy list of a cross-check bot (one line naming the known bots otherwise)."""
    if bot not in BOTS:
        raise InputError(f"unknown cross-check bot {bot!r}; known: {', '.join(BOTS)}")
    return BOTS[bot]


def kingdom_of(bots: Sequence[str]) -> tuple[str, ...]:
    """The kingdom cards the bots' buy lists name, in card-index order."""
    keys = {k for b in bots for k in parse_strategy(buylist_text(b)).cards}
    return tuple(sorted((k for k in keys if CARDS[INDEX[k]].kingdom), key=INDEX.__getitem__))
