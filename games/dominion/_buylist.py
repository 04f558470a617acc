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

An entry that can never apply is refused with the reason (:func:`dead_reason`): a copy
limit of 0, a condition outside its variable's values (``share>2``, ``left<0``, a number
beyond float range) or conditions that exclude each other (``money>15@money<10``).

Example: ``province@8 duchy@<=4 estate@<=2 | gold | smithy:1 | silver`` buys a Province
whenever possible (8 or fewer left), a Duchy once 4 or fewer Provinces are left, an Estate
at 2 or fewer, else Gold, one Smithy, Silver.

A whole strategy (:mod:`games.dominion._strategy`) may follow the buy list with a play order
and decision settings, each section introduced by its keyword::

    province | gold | witch:2 | silver | play: throne-room > witch > village | set: chapel_max=3

``play:`` names Action cards played first, in that order (the rest in the default order);
``set:`` gives parameters of :mod:`games.dominion._decisions`, comma-separated. Neither
keyword is a card, so every buy list keeps its exact meaning.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from games.core import InputError
from games.dominion._cards import KEYS, card_index, card_key
from games.dominion._layout import MAX_COND, RULE_WIDTH

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
            value = float(a) / float(b)
        else:
            value = float(text)
    except (ValueError, ZeroDivisionError):
        raise InputError(f"buy list: bad number {text!r} in {token!r}") from None
    if not math.isfinite(value):  # 1e400 reads as inf: no count or share ever reaches it
        raise InputError(f"buy list: number {text!r} in {token!r} is too large to compare "
                         f"with (at most {sys.float_info.max:.1e}); the entry could never "
                         "apply as written")
    return value


#: The values each variable can take, (lowest, highest, whole numbers only): a condition
#: no value in them meets makes its entry dead (see :func:`dead_reason`). Bounds are those
#: the engine's ``condition_value`` can return, kept wide where a game could go further.
RANGES: dict[str, tuple[float, float, bool]] = {
    "left": (0, math.inf, True), "gains": (0, math.inf, True),
    "money": (0, math.inf, True), "cards": (0, math.inf, True),
    "turn": (1, math.inf, True), "coins": (0, math.inf, True),
    "count": (0, math.inf, True), "share": (0, 1, False), "dshare": (0, 1, False),
    "lead": (-math.inf, math.inf, True), "empty": (0, math.inf, True),
    "treasures": (0, math.inf, True), "actions": (0, math.inf, True),
    "adensity": (0, 1, False), "curses": (0, math.inf, True),
    "tshare": (0, math.inf, False), "attacks": (0, math.inf, True),
    "kattacks": (0, math.inf, True)}


def _shown(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _interval_empty(lo: float, lo_open: bool, hi: float, hi_open: bool, whole: bool) -> bool:
    """Whether no value (no whole number, for ``whole``) lies between the bounds."""
    if whole:
        first = (math.floor(lo) + 1 if lo_open else math.ceil(lo)) if math.isfinite(lo) else lo
        last = (math.ceil(hi) - 1 if hi_open else math.floor(hi)) if math.isfinite(hi) else hi
        return first > last
    return lo > hi or (lo == hi and (lo_open or hi_open))


def dead_reason(rule: BuyRule) -> str | None:
    """Why ``rule`` can never buy its card, or None: a copy limit of 0 (buy while owning
    fewer than 0), a condition outside its variable's values (``share>2``), or conditions
    on one variable that exclude each other (``money>15@money<10``; the copy limit counts as
    ``count<LIMIT``). Such an entry is almost always a typo, so a parser refuses it."""
    if rule.limit == 0:
        return ("its copy limit 0 means 'while owning fewer than 0 copies', which never "
                "holds; leave ':N' out for no limit, or give N of 1 or more")
    bounds: dict[str, list[Any]] = {}
    said: dict[str, list[str]] = {}
    conditions = list(rule.conditions)
    if rule.limit is not None:
        conditions.insert(0, Condition("count", "<", rule.limit))
    for j, cond in enumerate(conditions):
        low, high, _ = RANGES[cond.var]
        b = bounds.setdefault(cond.var, [low, False, high, False])
        limit_text = f":{rule.limit} (count<{rule.limit})"
        said.setdefault(cond.var, []).append(
            limit_text if rule.limit is not None and j == 0 else
            f"{cond.var}{cond.op}{_format_number(cond.value)}")
        v = cond.value
        if cond.op in ("<", "<=", "=") and (v < b[2] or (v == b[2] and cond.op == "<")):
            b[2], b[3] = v, cond.op == "<"
        if cond.op in (">", ">=", "=") and (v > b[0] or (v == b[0] and cond.op == ">")):
            b[0], b[1] = v, cond.op == ">"
    for var, (lo, lo_open, hi, hi_open) in bounds.items():
        low, high, whole = RANGES[var]
        if not _interval_empty(lo, lo_open, hi, hi_open, whole):
            continue
        if len(said[var]) > 1:
            return (f"its conditions on {var} exclude each other "
                    f"({', '.join(said[var])})")
        span = (f"{_shown(low)} or more" if math.isinf(high)
                else f"{_shown(low)} .. {_shown(high)}")
        kind = "a whole number" if whole else "a number"
        return f"{said[var][0]} never holds: {var} is {kind}, {span}"
    return None


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
    rule = BuyRule(key, limit, tuple(_parse_condition(c, token) for c in conds))
    reason = dead_reason(rule)
    if reason is not None:
        raise InputError(f"buy list: entry {token!r} can never apply: {reason}")
    return rule


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
