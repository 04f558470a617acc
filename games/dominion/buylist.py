"""Buy lists: the one-line text form of a buy-rule strategy, its parser and its formatter.

A buy list is an ordered list of entries; on each buy the bot takes the first entry whose
card it can afford, whose pile is not empty, whose copy limit is not reached and whose
conditions all hold. Nothing matches: it buys nothing.

Grammar (entries separated by ``|`` or spaces; both only separate, order is priority)::

    buylist   := entry { ("|" | " ") entry }
    entry     := card [ ":" limit ] { "@" condition }        (at most 3 conditions)
    card      := kebab-case card name: province, gold, smithy, workers-village, great-hall ...
    limit     := whole number: buy only while owning fewer copies than this
    condition := number                 Provinces left <= number
               | op number              Provinces left <op> number
               | var op number          <var> <op> number
    op        := "<=" | "<" | ">=" | ">" | "="
    number    := 12 | 0.05 | 1/20
    var       := left | gains | money | cards | turn | coins | count | share | dshare
               | lead | empty | treasures | actions | adensity | curses | tshare
               | attacks | kattacks

Variables: ``left`` Provinces left in the supply; ``gains`` gains to the end of the game
(Provinces left, or the cards in the three smallest piles if fewer); ``money`` total coin
value of the player's treasures; ``cards`` cards the player owns; ``turn`` the player's turn
number (1 = first); ``coins`` coins still available on this buy; ``count`` copies of the
entry's card owned; ``share`` count / cards; ``dshare`` copies in the draw and discard
piles only / cards (the blog's counting); ``lead`` own VP minus the best opponent's;
``empty`` empty supply piles; ``treasures`` treasure cards the player owns; ``actions``
Action cards owned; ``adensity`` actions / cards; ``curses`` Curses owned; ``tshare`` count /
treasures (pyminion's "Smithy while Smithies < treasures / 11" is ``smithy@tshare<1/11``);
``attacks`` Attack cards all opponents own together; ``kattacks`` Attack kingdom piles in
this game's supply (0 without one: ``moat:1@kattacks>=1`` buys a Moat only if attacks can
come).

Example: ``province@8 duchy@<=4 estate@<=2 | gold | smithy:1 | silver`` buys a Province
whenever possible (8 or fewer left), a Duchy once 4 or fewer Provinces are left, an Estate
at 2 or fewer, else Gold, one Smithy, Silver.

A whole strategy (:mod:`games.dominion.strategy`) may follow the buy list with a play order
and decision settings, each section introduced by its keyword::

    province | gold | witch:2 | silver | play: throne-room > witch > village | set: chapel_max=3

``play:`` names Action cards played first, in that order (the rest in the default order);
``set:`` gives parameters of :mod:`games.dominion.decisions`, comma-separated. Neither
keyword is a card, so every buy list keeps its exact meaning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from games.core import InputError
from games.dominion.cards import KEYS, card_index, card_key
from games.dominion.layout import MAX_COND, RULE_WIDTH

VARIABLES: tuple[str, ...] = ("left", "gains", "money", "cards", "turn", "coins", "count",
                              "share", "dshare", "lead", "empty",
                              # appended: a variable's index is its engine VAR_* code
                              "treasures", "actions", "adensity", "curses", "tshare",
                              "attacks", "kattacks")
OPERATORS: tuple[str, ...] = ("<=", "<", ">=", ">", "=")

_NUMBER = r"[-+]?[0-9.]+(?:e[-+]?[0-9]+)?(?:/[0-9.]+)?"
_COND = re.compile(rf"^(?P<var>[a-z]+)?(?P<op><=|>=|<|>|=)?(?P<num>{_NUMBER})$", re.IGNORECASE)


@dataclass(frozen=True)
class Condition:
    """``var op value``, e.g. Condition("gains", "<=", 4)."""

    var: str
    op: str
    value: float

    def holds(self, x: float) -> bool:
        """Whether ``x op value`` (the variable's value ``x``), as the engine compares
        (for the Python players that play buy lists outside the kernel)."""
        return _COMPARE[self.op](x, self.value)


_COMPARE = {"<=": lambda x, y: x <= y, "<": lambda x, y: x < y, ">=": lambda x, y: x >= y,
            ">": lambda x, y: x > y, "=": lambda x, y: x == y}


@dataclass(frozen=True)
class BuyRule:
    """One entry: a card key, an optional copy limit and conditions that must all hold."""

    card: str
    limit: int | None = None
    conditions: tuple[Condition, ...] = ()


@dataclass(frozen=True)
class BuyList:
    """An ordered buy list: the genome that evolutions mutate (plain, picklable data)."""

    rules: tuple[BuyRule, ...]

    @property
    def cards(self) -> set[str]:
        return {r.card for r in self.rules}

    def text(self) -> str:
        return format_buylist(self)

    def table(self) -> np.ndarray:
        """The engine's rule table: one float64 row of RULE_WIDTH per entry."""
        tab = np.zeros((max(1, len(self.rules)), RULE_WIDTH), dtype=np.float64)
        for r, rule in enumerate(self.rules):
            tab[r, 0] = card_index(rule.card)
            tab[r, 1] = -1 if rule.limit is None else rule.limit
            tab[r, 2] = len(rule.conditions)
            for j, cond in enumerate(rule.conditions):
                tab[r, 3 + 3 * j] = VARIABLES.index(cond.var)
                tab[r, 4 + 3 * j] = OPERATORS.index(cond.op)
                tab[r, 5 + 3 * j] = cond.value
        return tab


def _number(text: str, token: str) -> float:
    try:
        if "/" in text:
            a, b = text.split("/")
            return float(a) / float(b)
        return float(text)
    except (ValueError, ZeroDivisionError):
        raise InputError(f"buy list: bad number {text!r} in {token!r}") from None


def _parse_condition(text: str, token: str) -> Condition:
    m = _COND.match(text)
    if not m:
        raise InputError(f"buy list: bad condition {'@' + text!r} in {token!r}; write e.g. "
                         f"@4, @<=4, @gains<=4 or @money>18")
    var, op, num = m.group("var"), m.group("op"), m.group("num")
    if var is not None and var not in VARIABLES:
        raise InputError(f"buy list: unknown variable {var!r} in {token!r}; "
                         f"variables: {', '.join(VARIABLES)}")
    if var is not None and op is None:
        raise InputError(f"buy list: condition {'@' + text!r} in {token!r} needs an operator "
                         f"({' '.join(OPERATORS)})")
    return Condition(var or "left", op or "<=", _number(num, token))


def parse_rule(token: str) -> BuyRule:
    """Parse one entry such as ``smithy:2@cards>=16``."""
    head, *conds = token.split("@")
    name, sep, limit_text = head.partition(":")
    if not name:
        raise InputError(f"buy list: entry {token!r} has no card name")
    key = card_key(name)
    if key not in KEYS:
        raise InputError(f"buy list: unknown card {name!r} in {token!r}; "
                         f"cards: {', '.join(KEYS)}")
    limit = None
    if sep:
        if not limit_text.isdigit():
            raise InputError(f"buy list: bad limit {limit_text!r} in {token!r} "
                             f"(a whole number of copies)")
        limit = int(limit_text)
    if len(conds) > MAX_COND:
        raise InputError(f"buy list: {token!r} has {len(conds)} conditions; "
                         f"at most {MAX_COND}")
    return BuyRule(key, limit, tuple(_parse_condition(c, token) for c in conds))


def parse_buylist(text: str) -> BuyList:
    """Parse the one-line text form; errors name the offending token."""
    tokens = [t for t in re.split(r"[|\s]+", text.strip()) if t]
    if not tokens:
        raise InputError("buy list is empty; e.g. 'province | gold | smithy:1 | silver'")
    return BuyList(tuple(parse_rule(t) for t in tokens))


def _format_number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _format_condition(c: Condition) -> str:
    if c.var == "left":
        return f"@{c.op}{_format_number(c.value)}"
    return f"@{c.var}{c.op}{_format_number(c.value)}"


def format_rule(rule: BuyRule) -> str:
    out = rule.card
    if rule.limit is not None:
        out += f":{rule.limit}"
    return out + "".join(_format_condition(c) for c in rule.conditions)


def format_buylist(buylist: BuyList) -> str:
    """Text form; ``parse_buylist(format_buylist(b)) == b`` for every valid buy list."""
    return " | ".join(format_rule(r) for r in buylist.rules)


def simple_buylist(province: int, duchy: int, estate: int,
                   entries: list[tuple[str, int | None]]) -> BuyList:
    """Matthew Fisher's menu form: Province/Duchy/Estate wanted once at most that many
    Provinces are left, then (card, max copies) entries in priority order."""
    rules = [BuyRule("province", None, (Condition("left", "<=", province),)),
             BuyRule("duchy", None, (Condition("left", "<=", duchy),)),
             BuyRule("estate", None, (Condition("left", "<=", estate),))]
    rules += [BuyRule(card, limit) for card, limit in entries]
    return BuyList(tuple(rules))
