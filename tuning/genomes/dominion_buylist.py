"""Genome of the Dominion buy-list bot: victory thresholds plus an ordered card:count list.

Genes: ``genes[0] = (P, D, E, M)``: a Province is wanted once at most P Provinces are left
and the player's treasures are worth at least M coins in total (M = 0: no money gate), a
Duchy at most D left, an Estate at most E left; ``genes[1:]`` are ``(card, limit)`` entries in
priority order (limit 0: no copy limit, else buy while owning fewer than ``limit``). The text
form is the engine's buy-list language, e.g.
``province@<=8@money>=16 | duchy@<=4 | estate@<=2 | gold | smithy:1 | silver``.

Mutation nudges a threshold, changes a count, swaps two entries, replaces, inserts or
deletes an entry; crossover mixes thresholds field by field and splices the two lists at
random cut points. Every operator returns a valid genome (tested property-wise).
"""

from __future__ import annotations

from typing import Any

from games.core import InputError

TREASURES = ("silver", "gold")
DEFAULT_KINGDOM = ("village", "woodcutter", "great-hall", "smithy", "workers-village",
                   "laboratory", "market", "festival", "bazaar", "harem")
MAX_PROVINCES = 8  # two players: 8 Provinces in the supply
MONEY_LEVELS = (0,) + tuple(range(10, 25))  # no gate, or a total-money gate of 10..24


class DominionBuyList:
    """The ``dominion-buylist`` genome kind; options: kingdom, max_entries, max_limit."""

    name = "dominion-buylist"

    def __init__(self, options: dict[str, Any]) -> None:
        kingdom = options.get("kingdom", "default")
        self.kingdom = _kingdom_keys(kingdom)
        self.cards = TREASURES + tuple(k for k in self.kingdom if k not in TREASURES)
        self.max_entries = int(options.get("max_entries", 8))
        self.max_limit = int(options.get("max_limit", 8))
        if self.max_entries < 1 or self.max_limit < 1:
            raise InputError("max_entries and max_limit must be >= 1")
        self.seeds = [self.from_text(t) for t in options.get("seed_genomes", [])]

    # ------------------------------------------------------------------ construction

    def _entry(self, rng: Any) -> tuple[str, int]:
        limit = 0 if rng.random() < 0.4 else rng.randint(1, self.max_limit)
        return (rng.choice(self.cards), limit)

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
        op = rng.randrange(6)
        if op == 0:  # nudge a threshold
            i = rng.randrange(4)
            if i < 3:
                head[i] = min(MAX_PROVINCES, max(0, head[i] + rng.choice((-1, 1))))
            else:
                j = MONEY_LEVELS.index(head[3]) + rng.choice((-2, -1, 1, 2))
                head[3] = MONEY_LEVELS[min(len(MONEY_LEVELS) - 1, max(0, j))]
        elif op == 1:  # change a count
            i = rng.randrange(len(entries))
            card, limit = entries[i]
            limit = rng.randint(1, self.max_limit) if limit == 0 else limit + rng.choice((-1, 1))
            entries[i] = (card, min(self.max_limit, max(0, limit)))
        elif op == 2 and len(entries) > 1:  # swap two entries
            i, j = rng.sample(range(len(entries)), 2)
            entries[i], entries[j] = entries[j], entries[i]
        elif op == 3:  # another card in an entry
            i = rng.randrange(len(entries))
            entries[i] = (rng.choice(self.cards), entries[i][1])
        elif op == 4 and len(entries) < self.max_entries:  # insert an entry
            entries.insert(rng.randint(0, len(entries)), self._entry(rng))
        elif len(entries) > 1:  # delete an entry
            del entries[rng.randrange(len(entries))]
        else:
            entries.append(self._entry(rng))
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
        parts = [province, f"duchy@<={d}", f"estate@<={e}"]
        parts += [card + (f":{limit}" if limit else "") for card, limit in genes[1:]]
        return " | ".join(parts)

    def from_text(self, text: str) -> list[Any]:
        from games.dominion.buylist import parse_buylist

        rules = parse_buylist(text).rules
        head = rules[:3]
        shape = [r.card for r in head] == ["province", "duchy", "estate"] and all(
            c.var == "left" and c.op == "<=" for r in head for c in r.conditions[:1])
        if not shape or any(r.limit is not None or not r.conditions for r in head):
            raise InputError(f"{text!r} is not in the menu form 'province@<=P[@money>=M] | "
                             "duchy@<=D | estate@<=E | card[:count] | ...'")
        extra = rules[0].conditions[1:]
        money = 0
        if extra:
            if len(extra) > 1 or extra[0].var != "money" or extra[0].op != ">=":
                raise InputError(f"{text!r}: the Province entry takes only @money>=M")
            money = int(extra[0].value)
        genes = [tuple(int(r.conditions[0].value) for r in head) + (money,)]
        for r in rules[3:]:
            if r.conditions:
                raise InputError(f"{text!r}: list entries take no conditions ({r.card})")
            genes.append((r.card, 0 if r.limit is None else int(r.limit)))
        self.validate(genes)
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
        for card, limit in entries:
            if card not in self.cards:
                raise ValueError(f"card {card!r} is not buyable here; cards: {self.cards}")
            if not 0 <= limit <= self.max_limit:
                raise ValueError(f"limit {limit} of {card} outside 0..{self.max_limit}")


def _kingdom_keys(kingdom: Any) -> tuple[str, ...]:
    """Kingdom card keys of the evolution's games (the engine's parser when available)."""
    try:
        from games.dominion.cards import parse_kingdom
    except ImportError:
        return DEFAULT_KINGDOM
    return tuple(parse_kingdom(kingdom))


def make_kind(options: dict[str, Any]) -> DominionBuyList:
    return DominionBuyList(options)
