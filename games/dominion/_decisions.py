"""The decision parameters of a Dominion bot: how the kernel makes every choice inside a turn.

A bot reaches the kernel as two rows beside its buy rules:

* ``dparams[b, k]`` (float64, one row per bot): the strategy choices below, each named
  (``DP_*`` is its column), with a default, a type (int, float or bool, stored as float)
  and a range. ``default_decisions()`` is the default row.
* ``porder[b, :]`` (int64, one row per bot, ``NC`` wide): the play priority, card indices
  of action cards, best first, padded with -1. ``default_play_order()`` is Throne Room
  followed by :data:`games.dominion._cards.ACTION_ORDER` (villages, other non-terminals,
  terminals; more +Cards first, then more +$, attacks before other cards).
  ``play_order(keys)`` puts some cards first.

Rules the kernel applies with these parameters (the defaults are the shared plan's):

* Play: the first card of ``porder`` in hand is played while actions remain. Throne Room
  is played only with another action in hand and doubles the first other action in play
  order (``throne_target`` 1: the most expensive action in hand instead); it doubles another
  Throne Room only when two more actions are in hand. Remodel is played only when the hand
  holds a card it would remodel (the static and scored players; the random player may play
  it anyway, then it remodels the first card of the hand in junk order).
* Junk order (:data:`JUNK_ORDER`, for discarding and trashing): Curse, Estate, Duchy,
  Province, Gardens (the Victory-only cards), then Copper, then the rest by cost, cheapest
  first. ``victim_action_cost`` k > 0 moves Action cards costing less than $k before Copper
  when a Militia victim discards.
* Gains with a cost cap (Workshop $4, Artisan $5, Remodel): the card the bot's buy list
  would buy with that many coins (its conditions evaluated now). If no rule matches, the
  kernel gains the most expensive card that fits and is not a Curse, Copper or Estate, else
  a Copper, else an Estate, else a Curse: the printed "gain a card costing up to" is not
  optional, so nothing is gained only when no supply pile holds a card that fits. (Mine's
  gain is optional with its trash, see below; Bureaucrat gains a Silver while Silvers last.)
* Chapel: trashes up to ``chapel_max`` cards: every Curse, then Estates, then Coppers
  while the treasure money owned stays at least ``chapel_money_floor``.
* Moneylender: trashes a Copper for +$3 while more than ``moneylender_copper_floor``
  Coppers are owned.
* Remodel: a Gold into a Province when at most ``remodel_gold_provinces`` Provinces are
  left (0: never); else a Curse, or an Estate (when ``remodel_estates``), into the gain
  rule above with the cost cap of the trashed card + $2.
* Mine: a Silver into a Gold; else (``mine_copper``) a Copper into a Silver, into hand.
* Artisan: gains as above into hand, then tops the most expensive Action card in hand when
  no action is left to play it, else the first card of the hand in junk order.
* Library: draws to 7 and sets aside each Action card drawn while no action is left
  (``library_set_aside``); set-aside cards are discarded after.
* Sentry: of the top two cards, trashes Curses, Estates (``sentry_trash_estates``) and
  Coppers when ``sentry_coppers`` is 2 and the treasure money owned stays at least
  ``chapel_money_floor``; discards Coppers (``sentry_coppers`` 1) and the other Victory-only
  cards; puts the rest back in their order.
* Harbinger: tops the most expensive card in the discard pile costing at least
  ``harbinger_min_cost`` that is not a Curse or Victory-only card (nothing if none).
* Vassal: plays the discarded card when it is an Action (``vassal_play``).
* Cellar: discards every Curse and Victory-only card in hand (and Coppers with
  ``cellar_coppers``), then draws as many.
* Rule-forced or fixed choices, not parameters: Moat is always revealed; a Militia victim
  discards in junk order; Poacher discards in junk order; a Bandit victim trashes the
  cheaper non-Copper treasure revealed; a Bureaucrat victim tops its cheapest Victory card;
  Witch gives Curses while they last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from games.core import InputError
from games.dominion._cards import (
    ACTION_ORDER,
    CARDS,
    COPPER,
    COST,
    CURSE,
    DUCHY,
    ESTATE,
    GARDENS,
    NC,
    PROVINCE,
    THRONE_ROOM,
    card_index,
)


@dataclass(frozen=True)
class DecisionSpec:
    """One decision parameter: its column in ``dparams``, default, type and range."""

    name: str
    index: int
    default: float
    kind: str  # "int", "float" or "bool"
    low: float
    high: float
    doc: str


_ROWS: tuple[tuple[str, float, str, float, float, str], ...] = (
    ("chapel_max", 4, "int", 0, 4, "cards Chapel trashes at most"),
    ("chapel_money_floor", 6, "int", 0, 30,
     "treasure money owned that trashing Coppers (Chapel, Sentry) keeps"),
    ("moneylender_copper_floor", 0, "int", 0, 7,
     "Moneylender trashes a Copper only while more Coppers than this are owned"),
    ("remodel_gold_provinces", 4, "int", 0, 12,
     "Remodel turns Gold into Province when at most this many Provinces are left (0: never)"),
    ("remodel_estates", 1, "bool", 0, 1, "Remodel trashes Estates (Curses always)"),
    ("mine_copper", 1, "bool", 0, 1, "Mine turns a Copper into a Silver when no Silver"),
    ("throne_target", 0, "int", 0, 1,
     "the action Throne Room doubles: 0 the first in play order, 1 the most expensive"),
    ("library_set_aside", 1, "bool", 0, 1,
     "Library sets aside Action cards drawn while no action is left"),
    ("sentry_trash_estates", 1, "bool", 0, 1, "Sentry trashes Estates (Curses always)"),
    ("sentry_coppers", 1, "int", 0, 2,
     "Sentry and Coppers: 0 keep, 1 discard, 2 trash (down to chapel_money_floor)"),
    ("harbinger_min_cost", 3, "int", 0, 8,
     "Harbinger tops a card from the discard pile costing at least this"),
    ("vassal_play", 1, "bool", 0, 1, "Vassal plays the discarded card when it is an Action"),
    ("cellar_coppers", 0, "bool", 0, 1, "Cellar also discards Coppers"),
    ("victim_action_cost", 0, "int", 0, 9,
     "a Militia victim discards Actions costing less than this before Copper (0: none)"),
)

DECISIONS: dict[str, DecisionSpec] = {
    name: DecisionSpec(name, i, float(d), kind, float(lo), float(hi), doc)
    for i, (name, d, kind, lo, hi, doc) in enumerate(_ROWS)}
ND = len(DECISIONS)
(DP_CHAPEL_MAX, DP_CHAPEL_MONEY_FLOOR, DP_MONEYLENDER_COPPER_FLOOR, DP_REMODEL_GOLD_PROVINCES,
 DP_REMODEL_ESTATES, DP_MINE_COPPER, DP_THRONE_TARGET, DP_LIBRARY_SET_ASIDE,
 DP_SENTRY_TRASH_ESTATES, DP_SENTRY_COPPERS, DP_HARBINGER_MIN_COST, DP_VASSAL_PLAY,
 DP_CELLAR_COPPERS, DP_VICTIM_ACTION_COST) = range(ND)


def _junk_order() -> np.ndarray:
    """Curse and the Victory-only cards, Copper, then the rest by cost (cheapest first)."""
    first = [CURSE, ESTATE, DUCHY, PROVINCE, GARDENS, COPPER]
    rest = sorted((i for i in range(NC) if i not in first), key=lambda i: (COST[i], i))
    return np.array(first + rest, dtype=np.int64)


JUNK_ORDER = _junk_order()
JUNK_COPPER_AT = int(np.flatnonzero(JUNK_ORDER == COPPER)[0])  # where Copper comes
# Curse and the Victory-only cards (no other type): what Cellar and Sentry throw away.
IS_JUNK = np.array([i == CURSE or (c.victory and not (c.action or c.treasure))
                    for i, c in enumerate(CARDS)], dtype=np.bool_)


def default_decisions() -> np.ndarray:
    """The default ``dparams`` row (float64, ``ND`` wide)."""
    return np.array([s.default for s in DECISIONS.values()], dtype=np.float64)


def default_play_order() -> np.ndarray:
    """The default ``porder`` row: Throne Room, then ``ACTION_ORDER``; -1 padded to NC."""
    return play_order(["throne-room"])


def play_order(keys: Sequence[str]) -> np.ndarray:
    """A ``porder`` row listing the action cards ``keys`` first (in that order), then the
    other action cards in the default order; raises InputError for a card that is not an
    Action or is listed twice."""
    first: list[int] = []
    for key in keys:
        i = card_index(key, context="card in a play order")
        if not CARDS[i].action:
            raise InputError(f"play order: {CARDS[i].key!r} is not an Action card")
        if i in first:
            raise InputError(f"play order: {CARDS[i].key!r} is listed twice")
        first.append(i)
    rest = [THRONE_ROOM] + [int(i) for i in ACTION_ORDER if i != THRONE_ROOM]
    order = first + [i for i in rest if i not in first]
    out = np.full(NC, -1, dtype=np.int64)
    out[:len(order)] = order
    return out


def check_decision(name: str, value: object) -> float:
    """The value of decision ``name`` as stored in ``dparams``; raises InputError (one line
    naming the parameter and its range) for an unknown name, a wrong type or a value out of
    range."""
    spec = DECISIONS.get(name.strip().lower().replace("-", "_"))
    if spec is None:
        raise InputError(f"unknown decision parameter {name!r}; known: {', '.join(DECISIONS)}")
    refused = InputError(f"decision parameter {spec.name} = {_as_given(value)}: expected "
                         f"{spec.kind} in [{spec.low:g}, {spec.high:g}]")
    if isinstance(value, str):
        text = value.strip().lower()
        if spec.kind == "bool" and text in ("true", "yes", "on", "false", "no", "off"):
            value = text in ("true", "yes", "on")
        else:
            try:
                value = float(text)
            except ValueError:
                raise refused from None
    if not isinstance(value, (bool, int, float, np.integer, np.floating)):
        raise refused
    x = float(value)
    if not np.isfinite(x) or not spec.low <= x <= spec.high or (
            spec.kind != "float" and x != int(x)):
        raise refused
    return x


def _as_given(value: object) -> str:
    """A decision value as its user wrote it (``9``, not the ``9.0`` it is stored as):
    a text stripped, a number as Python prints it, anything else by its repr."""
    if isinstance(value, str):
        return value.strip() or repr(value)
    if isinstance(value, np.generic):
        value = value.item()
    return str(value) if isinstance(value, (bool, int, float)) else repr(value)


def decisions_row(values: dict[str, object] | None = None) -> np.ndarray:
    """A ``dparams`` row: the defaults with ``values`` (name -> value) checked and applied."""
    row = default_decisions()
    for name, value in (values or {}).items():
        x = check_decision(name, value)
        row[DECISIONS[name.strip().lower().replace("-", "_")].index] = x
    return row
