"""Genome of a deck-building-model buy rule: an ordered list of conditional entries.

Each gene is one entry ``(card, money, left_max, left_min, count_below)`` of the model's
``BuyRule``: buy ``card`` when the hand holds at least ``money`` (and the card's cost), the
turns left (this one included) lie in ``[left_min, left_max]`` and the deck holds fewer
than ``count_below`` of it; 0 switches a condition off. The first matching entry is bought,
else the player passes. Text form: the model's rule language, e.g.
``province@8 | duchy@5,left<=6 | gold@6 | silver@3``.

Mutation nudges a money threshold, a turn window or a count limit (or switches it on or
off), swaps two entries, changes a card, inserts or deletes an entry; crossover splices the
two lists at random cut points. Every operator returns a valid genome.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core import InputError
from games.options import own_keys

MAX_MONEY = 15  # five Golds


@dataclass(frozen=True)
class BuyListOptions:
    """The ``[genome]`` keys of the ``deckbuilder-buylist`` kind, with their defaults."""

    max_entries: int = 8  # entries of a rule at most
    max_count: int = 30  # the largest count_below a random entry draws
    seed_genomes: tuple[str, ...] = ()  # rules (as text) in the first population


class DeckbuilderBuyList:
    """The ``deckbuilder-buylist`` genome kind: the card set and game length of the game's
    checked options (``DeckbuilderGame.buylist_kind`` builds it), its own options
    max_entries, max_count and seed_genomes."""

    name = "deckbuilder-buylist"

    def __init__(self, options: dict[str, Any], card_set: Any, turns: int) -> None:
        self.card_set = card_set
        self.cards = tuple(c.name for c in self.card_set.cards)
        self.cost = {c.name: c.cost for c in self.card_set.cards}
        self.turns = int(turns)
        own: BuyListOptions = own_keys(BuyListOptions, options)
        self.max_entries = own.max_entries
        self.max_count = own.max_count
        if self.turns < 1 or self.max_entries < 1 or self.max_count < 1:
            raise InputError("turns, max_entries and max_count must be >= 1")
        self.seeds = [self.from_text(t) for t in own.seed_genomes]

    # ------------------------------------------------------------------ construction

    def _entry(self, rng: Any) -> tuple[str, int, int, int, int]:
        card = rng.choice(self.cards)
        money = self.cost[card] + (rng.randint(0, 3) if rng.random() < 0.3 else 0)
        left_max = rng.randint(1, self.turns) if rng.random() < 0.4 else 0
        left_min = rng.randint(1, self.turns) if rng.random() < 0.15 else 0
        if left_max and left_min > left_max:
            left_min, left_max = left_max, left_min
        count = rng.randint(1, self.max_count) if rng.random() < 0.2 else 0
        return (card, min(money, MAX_MONEY), left_max, left_min, count)

    def random(self, rng: Any) -> list[Any]:
        return [self._entry(rng) for _ in range(rng.randint(1, min(5, self.max_entries)))]

    def seed_genomes(self) -> list[list[Any]]:
        return [list(g) for g in self.seeds]

    # ------------------------------------------------------------------ operators

    def _nudge(self, value: int, low: int, high: int, rng: Any, off: bool) -> int:
        """Move a value by a small step; a switched-off condition (0) gets a random value."""
        if off and value == 0:
            return rng.randint(low, high)
        if off and rng.random() < 0.15:
            return 0
        return min(high, max(low, value + rng.choice((-3, -2, -1, 1, 2, 3))))

    def mutate(self, genes: list[Any], rng: Any) -> list[Any]:
        """One edit, sometimes two (to step over plateaus of the exact fitness)."""
        out = self._mutate_once(genes, rng)
        return self._mutate_once(out, rng) if rng.random() < 0.3 else out

    def _mutate_once(self, genes: list[Any], rng: Any) -> list[Any]:
        entries = [list(e) for e in genes]
        op = rng.randrange(7)
        i = rng.randrange(len(entries))
        e = entries[i]
        if op == 0:
            e[1] = self._nudge(e[1], self.cost[e[0]], MAX_MONEY, rng, off=False)
        elif op == 1:
            e[2] = self._nudge(e[2], 1, self.turns, rng, off=True)
        elif op == 2:
            e[3] = self._nudge(e[3], 1, self.turns, rng, off=True)
        elif op == 3:
            e[4] = self._nudge(e[4], 1, self.max_count, rng, off=True)
        elif op == 4 and len(entries) > 1:
            j = rng.randrange(len(entries))
            entries[i], entries[j] = entries[j], entries[i]
        elif op == 5 and len(entries) < self.max_entries:
            entries.insert(rng.randint(0, len(entries)), list(self._entry(rng)))
        elif op == 6 and len(entries) > 1:
            del entries[i]
        else:
            e[0] = rng.choice(self.cards)
        return [self._repair(x) for x in entries]

    def _repair(self, e: list[Any]) -> tuple[str, int, int, int, int]:
        """Keep an edited entry valid: money covers the cost, the turn window is ordered."""
        card, money, left_max, left_min, count = e
        money = min(MAX_MONEY, max(money, self.cost[card]))
        if left_max and left_min > left_max:
            left_min, left_max = left_max, left_min
        return (card, money, left_max, left_min, count)

    def crossover(self, a: list[Any], b: list[Any], rng: Any) -> tuple[list[Any], list[Any]]:
        ca, cb = rng.randint(0, len(a)), rng.randint(0, len(b))
        x = (list(a[:ca]) + list(b[cb:]))[: self.max_entries] or [a[0]]
        y = (list(b[:cb]) + list(a[ca:]))[: self.max_entries] or [b[0]]
        return x, y

    # ------------------------------------------------------------------ text form

    def to_text(self, genes: list[Any]) -> str:
        parts = []
        for card, money, left_max, left_min, count in genes:
            text = f"{card}@{money}"
            if left_max:
                text += f",left<={left_max}"
            if left_min:
                text += f",left>={left_min}"
            if count:
                text += f",count<{count}"
            parts.append(text)
        return " | ".join(parts)

    def from_text(self, text: str) -> list[Any]:
        from games.deckbuilder._rules import NO_LIMIT, BuyRule

        rule = BuyRule.parse(text, self.card_set)
        genes = [(e.card, e.money, 0 if e.left_max >= NO_LIMIT else e.left_max, e.left_min,
                  0 if e.count_below >= NO_LIMIT else e.count_below) for e in rule.entries]
        try:
            self.validate(genes)
        except ValueError as exc:
            raise InputError(f"buy rule {text!r} is outside the genome: {exc}") from None
        return genes

    def validate(self, genes: list[Any]) -> None:
        if not 1 <= len(genes) <= self.max_entries:
            raise ValueError(f"{len(genes)} entries; allowed 1..{self.max_entries}")
        for card, money, left_max, left_min, count in genes:
            if card not in self.cost:
                raise ValueError(f"unknown card {card!r}; cards: {self.cards}")
            if not self.cost[card] <= money <= MAX_MONEY:
                raise ValueError(f"{card}: money {money} outside {self.cost[card]}..{MAX_MONEY}")
            if not (0 <= left_max <= self.turns and 0 <= left_min <= self.turns):
                raise ValueError(f"{card}: turn window outside 0..{self.turns}")
            if left_max and left_min > left_max:
                raise ValueError(f"{card}: empty turn window {left_min}..{left_max}")
            if not 0 <= count <= self.max_count:
                raise ValueError(f"{card}: count limit {count} outside 0..{self.max_count}")
