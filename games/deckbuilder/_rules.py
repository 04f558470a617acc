"""Ordered buy rules: the strategy family that exact evaluation, simulation and tuning share.

A rule is a list of entries; each turn the first entry whose conditions hold is bought,
otherwise the player passes. One entry reads ``CARD@M`` plus optional conditions::

    province@8 | duchy@5,left<=6 | gold@6 | estate@2,left<=2 | silver@3,count<6

- ``@M``: money in hand at least M (and at least the card's cost);
- ``left<=K`` / ``left>=K``: turns left including this one (a fixed-length game's last turn
  has left = 1);
- ``count<K``: the deck holds fewer than K copies of this card; for a victory card, fewer
  than K victory cards of any kind (the model tracks victory cards as one count).

Greedy, Expensive and Picky are buy rules too, built from the card set.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from games.core import InputError
from games.deckbuilder._model import TREASURE, VICTORY, CardSet

NO_LIMIT = 1 << 30


@dataclass(frozen=True)
class RuleEntry:
    """Buy ``card`` when money >= ``money`` and left_min <= turns left <= left_max and the
    deck holds fewer than ``count_below`` of it."""

    card: str
    money: int = 0
    left_max: int = NO_LIMIT
    left_min: int = 0
    count_below: int = NO_LIMIT

    def text(self) -> str:
        out = f"{self.card}@{self.money}"
        if self.left_max < NO_LIMIT:
            out += f",left<={self.left_max}"
        if self.left_min > 0:
            out += f",left>={self.left_min}"
        if self.count_below < NO_LIMIT:
            out += f",count<{self.count_below}"
        return out

    @property
    def uses_turns(self) -> bool:
        return self.left_max < NO_LIMIT or self.left_min > 0


def _number(token: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"buy rule: bad token {token!r} ({text!r} is not an integer)") from None
    if value < 0:
        raise InputError(f"buy rule: bad token {token!r} (negative number)")
    return value


def parse_entry(text: str, card_set: CardSet | None = None) -> RuleEntry:
    parts = [p.strip() for p in text.split(",")]
    head = parts[0]
    card, sep, money = head.partition("@")
    card = card.strip().lower()
    if not sep or not card:
        raise InputError(f"buy rule: bad token {head!r} (expected CARD@MONEY, e.g. gold@6)")
    if card_set is not None:
        names = [c.name for c in card_set.cards]
        if card not in names:
            raise InputError(f"buy rule: bad token {head!r} (unknown card {card!r}; "
                             f"cards: {', '.join(names)})")
    entry = {"card": card, "money": _number(head, money.strip())}
    for tok in parts[1:]:
        t = tok.replace(" ", "").lower()
        if t.startswith("left<="):
            entry["left_max"] = _number(tok, t[6:])
        elif t.startswith("left>="):
            entry["left_min"] = _number(tok, t[6:])
        elif t.startswith("count<"):
            entry["count_below"] = _number(tok, t[6:])
        else:
            raise InputError(f"buy rule: bad token {tok!r} (expected left<=K, left>=K "
                             "or count<K)")
    return RuleEntry(**entry)


@dataclass(frozen=True)
class BuyRule:
    """An ordered list of :class:`RuleEntry`; first match wins, else pass."""

    entries: tuple[RuleEntry, ...]
    name: str = "rule"

    @classmethod
    def parse(cls, text: str, card_set: CardSet | None = None, name: str = "rule") -> BuyRule:
        items = [s for s in (p.strip() for p in text.split("|")) if s]
        return cls(tuple(parse_entry(s, card_set) for s in items), name)

    def text(self) -> str:
        return " | ".join(e.text() for e in self.entries)

    def __str__(self) -> str:
        return self.text()

    @property
    def uses_turns(self) -> bool:
        return any(e.uses_turns for e in self.entries)

    def compile(self, card_set: CardSet) -> CompiledRule:
        return CompiledRule.build(self, card_set)


@dataclass(frozen=True)
class CompiledRule:
    """Array form of a buy rule for the kernels (slots, points, thresholds, limits)."""

    rule: BuyRule
    slot: np.ndarray
    points: np.ndarray
    threshold: np.ndarray  # effective money threshold: max(M, cost)
    left_min: np.ndarray
    left_max: np.ndarray
    cap: np.ndarray  # -1 = no limit
    card_index: np.ndarray

    @classmethod
    def build(cls, rule: BuyRule, cs: CardSet) -> CompiledRule:
        cards = [cs.card(e.card) for e in rule.entries]
        idx = {c.name: i for i, c in enumerate(cs.cards)}
        return cls(
            rule,
            np.array([cs.slot(c) for c in cards], dtype=np.int64),
            np.array([c.points for c in cards], dtype=np.float64),
            np.array([max(e.money, c.cost) for e, c in zip(rule.entries, cards, strict=True)],
                     dtype=np.int64),
            np.array([e.left_min for e in rule.entries], dtype=np.int64),
            np.array([min(e.left_max, NO_LIMIT) for e in rule.entries], dtype=np.int64),
            np.array([e.count_below if e.count_below < NO_LIMIT else -1
                      for e in rule.entries], dtype=np.int64),
            np.array([idx[c.name] for c in cards], dtype=np.int64),
        )

    def active(self, left: int) -> np.ndarray:
        return (self.left_min <= left) & (left <= self.left_max)


def _best_first(cards, key) -> list:
    return sorted(cards, key=key, reverse=True)


def greedy_rule(cs: CardSet) -> BuyRule:
    """Most expensive affordable victory card, else most expensive affordable treasure."""
    vic = _best_first(cs.victories, lambda c: (c.cost, c.points))
    tre = _best_first(cs.treasures, lambda c: (c.cost, c.value))
    return BuyRule(tuple(RuleEntry(c.name, c.cost) for c in vic + tre), "greedy")


def expensive_rule(cs: CardSet) -> BuyRule:
    """Most expensive affordable card (a treasure first on equal cost)."""
    order = _best_first(cs.cards, lambda c: (c.cost, c.kind == TREASURE, c.worth))
    return BuyRule(tuple(RuleEntry(c.name, c.cost) for c in order), "expensive")


def picky_rule(cs: CardSet) -> BuyRule:
    """The most expensive victory card if affordable, else the best affordable treasure."""
    top = max(cs.victories, key=lambda c: (c.cost, c.points))
    tre = _best_first(cs.treasures, lambda c: (c.cost, c.value))
    return BuyRule(tuple(RuleEntry(c.name, c.cost) for c in [top] + tre), "picky")


def best_affordable(cs: CardSet, kind: str, money: int):
    """The thesis's "most expensive affordable" card of a kind (ties: worth more), or None."""
    pool = cs.treasures if kind == TREASURE else cs.victories
    ok = [c for c in pool if c.cost <= money]
    return max(ok, key=lambda c: (c.cost, c.worth)) if ok else None


__all__ = ["BuyRule", "RuleEntry", "CompiledRule", "greedy_rule", "expensive_rule",
           "picky_rule", "best_affordable", "TREASURE", "VICTORY", "NO_LIMIT"]
