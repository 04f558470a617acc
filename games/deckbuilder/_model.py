"""The card set of the single-player deck-building model: cards, starting deck, hand size.

A card is either a treasure (``value`` money when in hand) or a victory card (``points`` at
the end). Supply is unlimited and there is no discard pile: every turn the hand is drawn
uniformly without replacement from the whole deck. The card set also answers the two
questions of thesis section 4: which cards are reachable, and whether the set is efficient.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from games.core import InputError

TREASURE = "treasure"
VICTORY = "victory"


@dataclass(frozen=True)
class Card:
    """One card kind. Treasures have ``points == 0``; victory cards have ``value == 0``."""

    name: str
    kind: str
    cost: int
    value: int = 0
    points: int = 0

    @property
    def worth(self) -> int:
        """Money for a treasure, points for a victory card."""
        return self.value if self.kind == TREASURE else self.points

    def text(self) -> str:
        tag = f"t{self.value}" if self.kind == TREASURE else f"v{self.points}"
        return f"{self.name}:{tag}:c{self.cost}"


@dataclass(frozen=True)
class CardSet:
    """Cards, starting deck (card name -> copies) and hand size; validated on creation.

    The state of the model keeps one counter per treasure kind and one counter for all victory
    cards together ("slots"), since victory cards all have value 0 and only add points.
    """

    cards: tuple[Card, ...]
    start: tuple[tuple[str, int], ...]
    hand_size: int = 5

    def __post_init__(self) -> None:
        names = [c.name for c in self.cards]
        if len(set(names)) != len(names):
            raise InputError(f"card names must be unique, got {names}")
        for c in self.cards:
            if c.kind not in (TREASURE, VICTORY):
                raise InputError(f"card {c.name!r}: kind must be treasure or victory")
            if c.cost < 0:
                raise InputError(f"card {c.name!r}: cost must be >= 0, got {c.cost}")
            if c.value < 0 or c.points < 0:
                raise InputError(f"card {c.name!r}: value and points must be >= 0")
            if c.kind == TREASURE and c.points:
                raise InputError(f"card {c.name!r}: a treasure cannot carry points")
            if c.kind == VICTORY and c.value:
                raise InputError(f"card {c.name!r}: a victory card cannot carry money")
        if not any(c.kind == TREASURE for c in self.cards):
            raise InputError("the card set needs at least one treasure card")
        if not any(c.kind == VICTORY for c in self.cards):
            raise InputError("the card set needs at least one victory card")
        if self.hand_size < 1:
            raise InputError(f"hand size must be >= 1, got {self.hand_size}")
        for name, n in self.start:
            if name not in names:
                raise InputError(f"starting deck names unknown card {name!r}; cards: {names}")
            if n < 0:
                raise InputError(f"starting deck: {name} has a negative count {n}")
        size = sum(n for _, n in self.start)
        if size < self.hand_size:
            raise InputError(
                f"the starting deck has {size} cards, fewer than the hand of {self.hand_size}")

    # ------------------------------------------------------------------ derived views

    @cached_property
    def treasures(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.kind == TREASURE)

    @cached_property
    def victories(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.kind == VICTORY)

    @property
    def dims(self) -> int:
        """Number of state slots: one per treasure kind plus one for all victory cards."""
        return len(self.treasures) + 1

    def slot(self, card: Card) -> int:
        return self.treasures.index(card) if card.kind == TREASURE else self.dims - 1

    def card(self, name: str) -> Card:
        for c in self.cards:
            if c.name == name.lower() or c.name == name:
                return c
        raise InputError(f"unknown card {name!r}; cards: {', '.join(c.name for c in self.cards)}")

    @cached_property
    def start_counts(self) -> np.ndarray:
        """Starting deck per slot (treasure kinds, then all victory cards)."""
        counts = np.zeros(self.dims, dtype=np.int64)
        for name, n in self.start:
            counts[self.slot(self.card(name))] += n
        return counts

    @cached_property
    def start_points(self) -> int:
        return sum(self.card(name).points * n for name, n in self.start)

    @cached_property
    def slot_values(self) -> np.ndarray:
        vals = [c.value for c in self.treasures] + [0]
        return np.asarray(vals, dtype=np.int64)

    @property
    def max_money(self) -> int:
        return self.hand_size * max(c.value for c in self.treasures)

    @property
    def max_points(self) -> int:
        return max(c.points for c in self.victories)

    def text(self) -> str:
        """The ``--cards`` form of this set."""
        return ",".join(c.text() for c in self.cards)

    def start_text(self) -> str:
        return ",".join(f"{name}={n}" for name, n in self.start)

    # ------------------------------------------------------------------ thesis section 4

    def reachable(self) -> dict[str, bool]:
        """Card name -> reachable (in the starting deck, or affordable from a hand of
        reachable cards; supply is unlimited, so the best hand is all best treasure)."""
        reach = {name for name, n in self.start if n > 0}
        while True:
            best = max((c.value for c in self.treasures if c.name in reach), default=0)
            money = self.hand_size * best
            grown = reach | {c.name for c in self.cards if c.cost <= money}
            if grown == reach:
                return {c.name: c.name in reach for c in self.cards}
            reach = grown

    def inefficient(self) -> list[str]:
        """Cards dominated by another card of their kind: no more expensive, worth at least as
        much and strictly better in one of the two (thesis definition 4.3)."""
        out = []
        for x in self.cards:
            for y in self.cards:
                if y is x or y.kind != x.kind:
                    continue
                if (y.cost <= x.cost and y.worth > x.worth) or (
                        y.cost < x.cost and y.worth >= x.worth):
                    out.append(x.name)
                    break
        return out

    def check(self) -> dict[str, object]:
        """Reachability and efficiency report (the solver is exact either way)."""
        reach = self.reachable()
        unreachable = [n for n, ok in reach.items() if not ok]
        bad = self.inefficient()
        return {"reachable": not unreachable, "unreachable": unreachable,
                "efficient": not bad, "inefficient": bad}


def dominion_set() -> CardSet:
    """The thesis card set: Copper/Silver/Gold, Estate/Duchy/Province; 7 Copper + 3 Estate."""
    cards = (
        Card("copper", TREASURE, 0, value=1),
        Card("silver", TREASURE, 3, value=2),
        Card("gold", TREASURE, 6, value=3),
        Card("estate", VICTORY, 2, points=1),
        Card("duchy", VICTORY, 5, points=3),
        Card("province", VICTORY, 8, points=6),
    )
    return CardSet(cards, (("copper", 7), ("estate", 3)))


DEFAULT = dominion_set()


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InputError(f"{what}: {text!r} is not an integer") from None


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse ``name:t<value>:c<cost>`` (treasure) / ``name:v<points>:c<cost>`` (victory),
    comma-separated, e.g. ``copper:t1:c0,silver:t2:c3,estate:v1:c2``."""
    cards = []
    for item in (s.strip() for s in text.split(",")):
        if not item:
            continue
        parts = [p.strip().lower() for p in item.split(":")]
        if len(parts) != 3 or not parts[0] or len(parts[1]) < 2 or len(parts[2]) < 2:
            raise InputError(f"bad card {item!r}: expected name:t<value>:c<cost> "
                             "or name:v<points>:c<cost>")
        name, tag, cost = parts
        if tag[0] not in "tv" or cost[0] != "c":
            raise InputError(f"bad card {item!r}: expected name:t<value>:c<cost> "
                             "or name:v<points>:c<cost>")
        amount = _int(tag[1:], f"card {name!r} worth")
        price = _int(cost[1:], f"card {name!r} cost")
        if tag[0] == "t":
            cards.append(Card(name, TREASURE, price, value=amount))
        else:
            cards.append(Card(name, VICTORY, price, points=amount))
    if not cards:
        raise InputError("the card list is empty")
    return tuple(cards)


def parse_start(text: str) -> tuple[tuple[str, int], ...]:
    """Parse a starting deck ``copper=7,estate=3``."""
    out = []
    for item in (s.strip() for s in text.split(",")):
        if not item:
            continue
        name, sep, n = item.partition("=")
        if not sep:
            raise InputError(f"bad starting deck entry {item!r}: expected name=count")
        out.append((name.strip().lower(), _int(n.strip(), f"starting count of {name!r}")))
    return tuple(out)


def make_card_set(cards: str | Sequence[Card] | None = None,
                  start: str | Mapping[str, int] | None = None,
                  hand_size: int = 5) -> CardSet:
    """Build a card set from text or objects; missing parts default to the thesis set."""
    if cards is None and start is None and hand_size == 5:
        return DEFAULT
    card_objs = parse_cards(cards) if isinstance(cards, str) else tuple(cards or DEFAULT.cards)
    if start is None:
        start_pairs = DEFAULT.start
    elif isinstance(start, str):
        start_pairs = parse_start(start)
    else:
        start_pairs = tuple((k.lower(), int(v)) for k, v in start.items())
    return CardSet(card_objs, start_pairs, hand_size)
