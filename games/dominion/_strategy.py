"""A whole Dominion strategy as text: a buy list, a gain list, a play order and decision
settings.

The text form extends a buy list (grammar in :mod:`games.dominion._buylist`) with three
optional sections after it, each introduced by its keyword::

    strategy  := buylist [ sep "gain:" buylist ] [ sep "play:" card { ">" card } ]
                 [ sep "set:" setting { "," setting } ]
    sep       := "|" | ";"                          (optional; the keyword starts a section)
    setting   := name "=" value                     a parameter of games.dominion._decisions

e.g. ``province | gold | witch:2 | silver | play: throne-room > witch > village | set:
chapel_max=3, chapel_money_floor=5``, or the Workshop/Gardens player's ``workshop:8 |
gardens | estate@empty>=2 | copper | gain: gardens | estate | workshop:8 | silver``. Each
section appears at most once. A text without them is a plain buy list with exactly its old
meaning. The gain list, in the buy list's grammar, chooses what a card that gains one
costing up to some amount gains (Workshop, Artisan, Remodel; Mine only among treasures):
its first entry that fits, with the amount as ``coins``; when none fits, the buy list
decides as it does without a gain list, then the most expensive card that fits. The play
order names Action cards;
the action player plays them first, in the order given, and every other Action in the
default order (:func:`games.dominion._decisions.default_play_order`). Settings left out keep
their defaults. (``|`` is the canonical separator because ``tabletune play --bots`` splits
bot texts on ``;``.)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, make_dataclass
from typing import Any

from games.core import InputError, make_params, tunable
from games.dominion._buylist import BuyList, format_buylist, parse_buylist
from games.dominion._cards import CARDS, INDEX, KEYS, card_key
from games.dominion._decisions import DECISIONS, check_decision, default_play_order

# A section keyword at the start or after a separator: card names never end with ':'.
_SECTION = re.compile(r"(?:^|(?<=[\s|;]))(gain|play|set):", re.IGNORECASE)


@dataclass(frozen=True)
class Strategy:
    """Buy list, play order (card keys played first, in this order), decision settings
    (name, value) in the order given, and gain list (empty: gains follow the buy list):
    plain, picklable data."""

    buylist: BuyList
    play: tuple[str, ...] = ()
    decisions: tuple[tuple[str, float], ...] = ()
    gain: BuyList = BuyList(())

    @property
    def cards(self) -> set[str]:
        """Every card the strategy needs in the kingdom: those it buys, gains or plays."""
        return self.buylist.cards | self.gain.cards | set(self.play)

    @property
    def plain(self) -> bool:
        """True for a bare buy list (default gains, play order and decisions)."""
        return not self.play and not self.decisions and not self.gain.rules

    def settings(self) -> dict[str, float]:
        return dict(self.decisions)

    def text(self) -> str:
        return format_strategy(self)


def parse_play_order(text: str) -> tuple[str, ...]:
    """``throne-room > witch > village`` as card keys; each must be a known Action card."""
    names = [t.strip() for t in text.split(">")]
    if not any(names):
        raise InputError("play order is empty; e.g. 'play: throne-room > witch > village'")
    out: list[str] = []
    for name in names:
        if not name:
            raise InputError(f"play order {text.strip()!r}: an empty entry between '>'")
        key = card_key(name)
        if key not in INDEX:
            raise InputError(f"play order: unknown card {name!r}; cards: {', '.join(KEYS)}")
        if not CARDS[INDEX[key]].action:
            raise InputError(f"play order: {name!r} is not an Action card")
        if key in out:
            raise InputError(f"play order: {name!r} is listed twice")
        out.append(key)
    return tuple(out)


def check_settings(values: Mapping[str, Any]) -> tuple[tuple[str, float], ...]:
    """Checked decision settings: each name must be a decision parameter, each value in
    its range (InputError naming the parameter otherwise)."""
    out = []
    for name, value in values.items():
        if name not in DECISIONS:
            raise InputError(f"unknown decision parameter {name!r}; known: "
                             f"{', '.join(DECISIONS)}")
        out.append((name, check_decision(name, value)))
    return tuple(out)


def _parse_settings(text: str) -> tuple[tuple[str, float], ...]:
    values: dict[str, Any] = {}
    for item in (t.strip() for t in text.split(",")):
        name, sep, value = item.partition("=")
        name, value = name.strip().lower(), value.strip()
        if not sep or not name or not value:
            raise InputError(f"decision setting {item!r}: write name=value, e.g. chapel_max=3")
        if name in values:
            raise InputError(f"decision parameter {name!r} is set twice")
        values[name] = value
    return check_settings(values)


def has_sections(text: str) -> bool:
    """Whether ``text`` holds a ``gain:``, ``play:`` or ``set:`` section: a strategy text,
    never a bot's name."""
    return _SECTION.search(text) is not None


def parse_strategy(text: str) -> Strategy:
    """Parse the text form; errors name the bad card, setting or section."""
    pieces = _SECTION.split(text)
    play: tuple[str, ...] | None = None
    decisions: tuple[tuple[str, float], ...] | None = None
    gain: BuyList | None = None
    for keyword, body in zip(pieces[1::2], pieces[2::2], strict=True):
        body = body.strip().rstrip("|;").strip()
        if keyword.lower() == "gain":
            if gain is not None:
                raise InputError("strategy: the gain list is given twice")
            if not body.strip(" |"):
                raise InputError("strategy: 'gain:' without cards; e.g. gain: gardens | "
                                 "estate | silver")
            if ";" in body:
                raise InputError("strategy: ';' separates only the sections, not the "
                                 "entries of the gain list")
            try:
                gain = parse_buylist(body)
            except InputError as err:
                raise InputError(f"gain list: {err}") from None
        elif keyword.lower() == "play":
            if play is not None:
                raise InputError("strategy: the play order is given twice")
            play = parse_play_order(body)
        else:
            if decisions is not None:
                raise InputError("strategy: 'set:' is given twice; separate settings "
                                 "with ','")
            if not body:
                raise InputError("strategy: 'set:' without settings; e.g. set: chapel_max=3")
            decisions = _parse_settings(body)
    head = pieces[0].strip().rstrip("|;")
    if not head.strip(" |;") and len(pieces) > 1:
        raise InputError(f"strategy {text.strip()!r}: a buy list comes first, then 'gain:', "
                         f"'play:' and 'set:'; e.g. 'province | gold | silver | "
                         f"{text.strip().lstrip(' |;')}'")
    if ";" in head:
        raise InputError(f"strategy {text.strip()!r}: ';' separates only the 'gain:', "
                         f"'play:' and 'set:' sections")
    return Strategy(parse_buylist(head), play or (), decisions or (), gain or BuyList(()))


def _format_value(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def format_strategy(strategy: Strategy) -> str:
    """Text form; ``parse_strategy(format_strategy(s)) == s`` for every valid strategy, and
    a plain strategy formats as its buy list alone."""
    parts = [format_buylist(strategy.buylist)]
    if strategy.gain.rules:
        parts.append("gain: " + format_buylist(strategy.gain))
    if strategy.play:
        parts.append("play: " + " > ".join(strategy.play))
    if strategy.decisions:
        parts.append("set: " + ", ".join(f"{k}={_format_value(v)}"
                                         for k, v in strategy.decisions))
    return " | ".join(parts)


def priority_order(priorities: Mapping[str, float], default: Sequence[int]) -> tuple[str, ...]:
    """The cards with a positive play priority, highest first, ties in ``default`` order:
    the tunable form of a play order (a priority of 0 leaves a card in the default order)."""
    rank = {int(c): i for i, c in enumerate(default)}
    chosen = [(-p, rank.get(INDEX[k], len(rank)), k) for k, p in priorities.items() if p > 0]
    return tuple(k for _, _, k in sorted(chosen))


# --------------------------------------------------------------------------- as parameters


def play_param(key: str) -> str:
    """The play-priority parameter of an Action card: ``throne-room`` -> ``play_throne_room``
    (``vassal_play`` is a decision parameter)."""
    return "play_" + key.replace("-", "_")


PLAYABLE: tuple[str, ...] = tuple(c.key for c in CARDS if c.action and c.kingdom)
ACTION_MODE_NAMES: tuple[str, ...] = ("static", "scored", "none")


def decision_fields() -> list[tuple[str, type, Any]]:
    """Dataclass fields of the decision parameters, ranges from :data:`DECISIONS`."""
    out: list[tuple[str, type, Any]] = []
    for d in DECISIONS.values():
        integer = d.kind != "float"
        default = int(d.default) if integer else float(d.default)
        out.append((d.name, int if integer else float,
                    tunable(default, d.low, d.high, integer=integer, doc=d.doc)))
    return out


def play_fields() -> list[tuple[str, type, Any]]:
    """One play priority per kingdom Action card: 0 (the default) keeps the card in the
    default order; cards with a priority above 0 are played first, highest first."""
    return [(play_param(k), float, tunable(0.0, 0.0, 10.0, doc=f"play priority of {k}"))
            for k in PLAYABLE]


StrategyParams = make_dataclass("StrategyParams", [
    ("actions", str, tunable("static", choices=ACTION_MODE_NAMES,
                             doc="action player: static (the play order), scored, none")),
    ("play", str, field(default="", metadata={"doc": "cards played first: a > b > c"})),
    *decision_fields(), *play_fields()])
StrategyParams.__module__ = __name__
StrategyParams.__doc__ = (
    "The parameters of a buy-list bot beside its buy list: action player, play order "
    "(``play`` as text and the tunable ``play_<card>`` priorities, text first) and the "
    "decision parameters of :mod:`games.dominion._decisions`, each with its range.")


def with_params(base: Strategy, values: Mapping[str, Any]) -> tuple[Strategy, tuple[str, ...],
                                                                      str]:
    """``base`` with a bot's parameters applied (checked: names, ranges, cards): ``play``
    appended to its play order and its decision settings overridden by those given.
    Returns that strategy, the cards with a positive ``play_<card>`` priority (highest
    first: played after the strategy's play order, and before the default order) and the
    action mode."""
    p = make_params(StrategyParams, values)
    play = list(base.play)
    for key in parse_play_order(p.play) if p.play.strip() else ():
        if key in play:
            raise InputError(f"play order: {key!r} is listed twice")
        play.append(key)
    ranked = priority_order({k: getattr(p, play_param(k)) for k in PLAYABLE},
                            default_play_order())
    settings = base.settings()
    settings.update({k: check_decision(k, v) for k, v in values.items() if k in DECISIONS})
    return (Strategy(base.buylist, tuple(play), tuple(settings.items()), base.gain), ranked,
            p.actions)
