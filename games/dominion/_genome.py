"""Genome of the Dominion buy-list bot: victory thresholds plus an ordered card:count list.

Genes: ``genes[0] = (P, D, E, M)``: a Province is wanted once at most P Provinces are left
and the player's treasures are worth at least M coins in total (M = 0: no money gate), a
Duchy once at most D gains remain to the end of the game, an Estate at most E; ``genes[1:]``
are ``(card, limit, gate)`` entries in priority order. ``limit`` 0 means no copy limit, else
buy while owning fewer than ``limit``. ``gate`` is the entry's one condition: for a treasure
or kingdom card ``cards >= gate`` (0: none; a second Smithy only once the deck has grown),
for a Duchy or Estate entry ``gains <= gate`` (a late Duchy after Gold, as Big Money
Ultimate buys). The text form is the engine's buy-list language, e.g.
``province@<=8@money>=16 | duchy@gains<=4 | estate@gains<=2 | gold | duchy@gains<=6 |
smithy:1 | smithy:2@cards>=16 | silver`` (Smithy Big Money itself).

Mutation nudges a threshold, changes a count, nudges a gate, swaps two entries, replaces,
inserts or deletes an entry; crossover mixes thresholds field by field and splices the two
lists at random cut points. Every operator returns a valid genome (tested property-wise).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core import InputError
from games.dominion._kingdoms import parse_kingdom
from games.options import own_keys

TREASURES = ("silver", "gold")
VICTORY = ("duchy", "estate")  # list entries that carry a gains gate
MAX_PROVINCES = 8  # two players: 8 Provinces in the supply
MONEY_LEVELS = (0,) + tuple(range(10, 25))  # no gate, or a total-money gate of 10..24
CARD_GATES = (0,) + tuple(range(10, 31))  # no gate, or own at least 10..30 cards
GAINS_GATES = tuple(range(1, MAX_PROVINCES + 3))  # late victory entries: 1..10 gains left


@dataclass(frozen=True)
class BuyListOptions:
    """The ``[genome]`` keys of the ``dominion-buylist`` kind, with their defaults (beside
    the game's ``kingdom``, which names the cards its genes may buy)."""

    max_entries: int = 8  # entries of a list at most
    max_limit: int = 8  # the largest copy limit of a random entry
    seed_genomes: tuple[str, ...] = ()  # lists (as text) in the first population


class DominionBuyList:
    """The ``dominion-buylist`` genome kind; options: kingdom, max_entries, max_limit."""

    name = "dominion-buylist"

    def __init__(self, options: dict[str, Any]) -> None:
        # no kingdom given: the game's own default (parse_kingdom(None))
        self.kingdom = parse_kingdom(options.get("kingdom"))
        self.cards = TREASURES + tuple(k for k in self.kingdom if k not in TREASURES)
        self.entry_cards = self.cards + VICTORY
        own: BuyListOptions = own_keys(BuyListOptions, options)
        self.max_entries, self.max_limit = own.max_entries, own.max_limit
        if self.max_entries < 1 or self.max_limit < 1:
            raise InputError("max_entries and max_limit must be >= 1")
        self.seeds = [self.from_text(t) for t in own.seed_genomes]

    # ------------------------------------------------------------------ construction

    def _gate(self, card: str, rng: Any) -> int:
        if card in VICTORY:
            return rng.choice(GAINS_GATES)
        return 0 if rng.random() < 0.7 else rng.choice(CARD_GATES[1:])

    def _entry(self, rng: Any) -> tuple[str, int, int]:
        # victory entries are rarer: one draw in ten
        card = rng.choice(VICTORY) if rng.random() < 0.1 else rng.choice(self.cards)
        limit = 0 if rng.random() < 0.4 else rng.randint(1, self.max_limit)
        return (card, limit, self._gate(card, rng))

    def random(self, rng: Any) -> list[Any]:
        # start near sensible play (Provinces always wanted, late Duchies and Estates);
        # mutation reaches every other threshold
        money = 0 if rng.random() < 0.6 else rng.choice(MONEY_LEVELS)
        head = (rng.randint(5, MAX_PROVINCES), rng.randint(0, 6), rng.randint(0, 3), money)
        n = rng.randint(1, min(5, self.max_entries))
        return [head] + [self._entry(rng) for _ in range(n)]

    def seed_genomes(self) -> list[list[Any]]:
        return [list(g) for g in self.seeds]

    # ------------------------------------------------------------------ operators

    def mutate(self, genes: list[Any], rng: Any) -> list[Any]:
        head, entries = list(genes[0]), list(genes[1:])
        op = rng.randrange(7)
        if op == 0:  # nudge a threshold
            i = rng.randrange(4)
            if i < 3:
                head[i] = min(MAX_PROVINCES, max(0, head[i] + rng.choice((-1, 1))))
            else:
                head[3] = _step(MONEY_LEVELS, head[3], rng.choice((-2, -1, 1, 2)))
        elif op == 1:  # change a count
            i = rng.randrange(len(entries))
            card, limit, gate = entries[i]
            limit = rng.randint(1, self.max_limit) if limit == 0 else limit + rng.choice((-1, 1))
            entries[i] = (card, min(self.max_limit, max(0, limit)), gate)
        elif op == 2 and len(entries) > 1:  # swap two entries
            i, j = rng.sample(range(len(entries)), 2)
            entries[i], entries[j] = entries[j], entries[i]
        elif op == 3:  # another card in an entry (its gate redrawn if its meaning changes)
            i = rng.randrange(len(entries))
            _, limit, gate = entries[i]
            card = rng.choice(self.entry_cards)
            if (card in VICTORY) != (entries[i][0] in VICTORY):
                gate = self._gate(card, rng)
            entries[i] = (card, limit, gate)
        elif op == 4 and len(entries) < self.max_entries:  # insert an entry
            entries.insert(rng.randint(0, len(entries)), self._entry(rng))
        elif op == 5 and len(entries) > 1:  # delete an entry
            del entries[rng.randrange(len(entries))]
        elif op == 6:  # nudge a gate (switching a card's gate on or off at the ends)
            i = rng.randrange(len(entries))
            card, limit, gate = entries[i]
            levels = GAINS_GATES if card in VICTORY else CARD_GATES
            entries[i] = (card, limit, _step(levels, gate, rng.choice((-2, -1, 1, 2))))
        elif len(entries) < self.max_entries:  # the chosen move did not apply: grow
            entries.append(self._entry(rng))
        else:  # ... or, at the size limit, redraw one entry
            entries[rng.randrange(len(entries))] = self._entry(rng)
        return [tuple(head)] + entries

    def crossover(self, a: list[Any], b: list[Any], rng: Any) -> tuple[list[Any], list[Any]]:
        ha, hb = list(a[0]), list(b[0])
        for i in range(4):
            if rng.random() < 0.5:
                ha[i], hb[i] = hb[i], ha[i]
        ea, eb = list(a[1:]), list(b[1:])
        ca, cb = rng.randint(0, len(ea)), rng.randint(0, len(eb))
        x = (ea[:ca] + eb[cb:])[: self.max_entries] or [ea[0]]
        y = (eb[:cb] + ea[ca:])[: self.max_entries] or [eb[0]]
        return [tuple(ha)] + x, [tuple(hb)] + y

    # ------------------------------------------------------------------ text form

    def to_text(self, genes: list[Any]) -> str:
        p, d, e, m = genes[0]
        province = f"province@<={p}" + (f"@money>={m}" if m else "")
        parts = [province, f"duchy@gains<={d}", f"estate@gains<={e}"]
        for card, limit, gate in genes[1:]:
            text = card + (f":{limit}" if limit else "")
            if card in VICTORY:
                text += f"@gains<={gate}"
            elif gate:
                text += f"@cards>={gate}"
            parts.append(text)
        return " | ".join(parts)

    def from_text(self, text: str) -> list[Any]:
        from games.dominion._buylist import parse_buylist

        rules = parse_buylist(text).rules
        form = ("the menu form 'province@<=P[@money>=M] | duchy@gains<=D | estate@gains<=E | "
                "card[:count][@cards>=N] | duchy[:count]@gains<=G | ...'")
        head = rules[:3]
        wanted = (("province", "left"), ("duchy", "gains"), ("estate", "gains"))
        shape = len(head) == 3 and all(
            r.card == card and r.limit is None and r.conditions
            and r.conditions[0].var == var and r.conditions[0].op == "<="
            for r, (card, var) in zip(head, wanted, strict=True))
        if not shape or any(len(r.conditions) > 1 for r in head[1:]):
            raise InputError(f"{text!r} is not in {form}")
        extra = rules[0].conditions[1:]
        money = 0
        if extra:
            if len(extra) > 1 or extra[0].var != "money" or extra[0].op != ">=":
                raise InputError(f"{text!r}: the Province entry takes only @money>=M")
            money = _whole(extra[0].value, text)
        genes: list[Any] = [tuple(_whole(r.conditions[0].value, text) for r in head) + (money,)]
        for r in rules[3:]:
            want = ("gains", "<=") if r.card in VICTORY else ("cards", ">=")
            if len(r.conditions) > 1 or any((c.var, c.op) != want for c in r.conditions):
                raise InputError(f"{text!r}: entry {r.card} takes at most one condition, "
                                 f"@{want[0]}{want[1]}N; expected {form}")
            gate = _whole(r.conditions[0].value, text) if r.conditions else 0
            genes.append((r.card, 0 if r.limit is None else int(r.limit), gate))
        try:
            self.validate(genes)
        except ValueError as exc:
            raise InputError(f"{text!r}: {exc}") from None
        return genes

    def validate(self, genes: list[Any]) -> None:
        if not genes or len(genes[0]) != 4:
            raise ValueError("genome needs a (P, D, E, M) head")
        p, d, e, m = genes[0]
        if not all(0 <= v <= MAX_PROVINCES for v in (p, d, e)) or m not in MONEY_LEVELS:
            raise ValueError(f"thresholds out of range: {genes[0]}")
        entries = genes[1:]
        if not 1 <= len(entries) <= self.max_entries:
            raise ValueError(f"{len(entries)} entries; allowed 1..{self.max_entries}")
        for entry in entries:
            if len(entry) != 3:
                raise ValueError(f"entry {entry!r} is not (card, limit, gate)")
            card, limit, gate = entry
            if card not in self.entry_cards:
                raise ValueError(f"card {card!r} is not buyable here; cards: "
                                 f"{self.entry_cards}")
            if not 0 <= limit <= self.max_limit:
                raise ValueError(f"limit {limit} of {card} outside 0..{self.max_limit}")
            levels = GAINS_GATES if card in VICTORY else CARD_GATES
            if gate not in levels:
                raise ValueError(f"gate {gate} of {card} outside {levels[0]}..{levels[-1]}"
                                 + ("" if card in VICTORY else " (0: none)"))


def _step(levels: tuple[int, ...], value: int, by: int) -> int:
    """``value`` moved ``by`` places along ``levels``, clamped at both ends."""
    j = levels.index(value) + by
    return levels[min(len(levels) - 1, max(0, j))]


def _whole(value: float, text: str) -> int:
    if not float(value).is_integer():
        raise InputError(f"{text!r}: thresholds are whole numbers, got {value}")
    return int(value)


def make_kind(options: dict[str, Any]) -> DominionBuyList:
    return DominionBuyList(options)
