"""The ``dominion-strategy`` genome: a buy list plus a play order plus decision settings.

Genes: ``[buy, play, settings]``. ``buy`` is a ``dominion-buylist`` genome (thresholds and
card entries, :mod:`games.dominion._genome`); ``play`` is a tuple of the kingdom's Action
cards played first, in order (at most ``max_play``); ``settings`` is a tuple of
``(decision, value)`` pairs in :data:`games.dominion._decisions.DECISIONS` order, each
within its range, for the decisions the evolution may set (option ``decisions``: a list of
names, default those of the kingdom's cards; a decision left out keeps its default). The
text form is the strategy grammar of :mod:`games.dominion._strategy`, e.g. ``province@<=8 |
duchy@gains<=4 | estate@gains<=2 | witch:2 | gold | silver | play: witch | set:
chapel_max=3``.

Mutation changes one part: the buy list (the buy-list genome's own operators, most often),
the play order (insert, delete or swap a card) or a setting (nudge it one step within its
range, add it or drop it). Crossover crosses the buy lists, takes either parent's play
order and mixes settings decision by decision. Every operator returns a valid genome.

With ``max_gain`` above 0 (default 0: the genome is exactly the three genes above) a fourth
gene is the gain list (``gain:``, :mod:`games.dominion._strategy`): up to ``max_gain``
cards of the supply, the first that fits is what Workshop, Artisan, Remodel or Mine gains;
a fifth of the mutations insert, delete or swap one of its cards, and crossover takes
either parent's.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from games.core import InputError
from games.dominion._buylist import format_buylist
from games.dominion._cards import CARDS, INDEX
from games.dominion._decisions import DECISIONS, DecisionSpec
from games.dominion._genome import DominionBuyList
from games.dominion._strategy import parse_strategy
from games.options import own_keys


@dataclass(frozen=True)
class StrategyOptions:
    """The ``[genome]`` keys of the ``dominion-strategy`` kind beyond ``dominion-buylist``'s,
    with their defaults."""

    max_play: int = 3  # cards in the play order at most
    max_gain: int = 0  # cards in the gain list at most (0: no gain list gene)
    decisions: tuple[str, ...] | None = None  # names to evolve (None: the kingdom's cards')
    seed_genomes: tuple[str, ...] = ()  # strategies (as text) in the first population


class DominionStrategy:
    """The ``dominion-strategy`` genome kind; options: those of ``dominion-buylist`` plus
    ``max_play`` (cards in the play order, default 3) and ``decisions`` (names to evolve,
    default those of the kingdom's cards)."""

    name = "dominion-strategy"

    def __init__(self, options: dict[str, Any]) -> None:
        own: StrategyOptions = own_keys(StrategyOptions, options)
        self.buy = DominionBuyList({k: v for k, v in options.items()
                                    if k not in {f.name for f in fields(StrategyOptions)}})
        self.actions = tuple(k for k in self.buy.kingdom if CARDS[INDEX[k]].action)
        self.max_play = own.max_play
        if self.max_play < 0:
            raise InputError("max_play must be >= 0")
        names = (own.decisions if own.decisions is not None
                 else relevant_decisions(self.buy.kingdom))
        unknown = [n for n in names if n not in DECISIONS]
        if unknown:
            raise InputError(f"decisions: unknown decision parameter {unknown[0]!r}; known: "
                             f"{', '.join(DECISIONS)}")
        self.decisions: tuple[DecisionSpec, ...] = tuple(
            d for d in DECISIONS.values() if d.name in names)
        self.max_gain = own.max_gain
        if self.max_gain < 0:
            raise InputError("max_gain must be >= 0")
        self.gainable = tuple(k for k in ("gold", "silver", "copper", "duchy", "estate",
                                          *self.buy.kingdom) if k in INDEX)
        self.seeds = [self.from_text(t) for t in own.seed_genomes]

    # ------------------------------------------------------------------ construction

    def _value(self, d: DecisionSpec, rng: Any) -> float:
        if d.kind == "float":
            return round(rng.uniform(d.low, d.high), 2)
        return float(rng.randint(int(d.low), int(d.high)))

    def random(self, rng: Any) -> list[Any]:
        n = rng.randint(0, min(self.max_play, len(self.actions)))
        play = tuple(rng.sample(self.actions, n))
        settings = tuple((d.name, self._value(d, rng)) for d in self.decisions
                         if rng.random() < 0.3)
        genes = [self.buy.random(rng), play, settings]
        if self.max_gain:
            k = rng.randint(0, min(self.max_gain, len(self.gainable)))
            genes.append(tuple(rng.sample(self.gainable, k)))
        return genes

    def seed_genomes(self) -> list[list[Any]]:
        return [list(g) for g in self.seeds]

    # ------------------------------------------------------------------ operators

    def mutate(self, genes: list[Any], rng: Any) -> list[Any]:
        if self.max_gain and rng.random() < 0.2:
            gain = list(genes[3])
            self._mutate_cards(gain, self.gainable, self.max_gain, rng)
            return [*genes[:3], tuple(gain)]
        buy, play, settings = genes[0], list(genes[1]), dict(genes[2])
        part = rng.random()
        if part < 0.6 or (not self.actions and not self.decisions):
            buy = self.buy.mutate(buy, rng)
        elif part < 0.8 and self.actions:
            self._mutate_play(play, rng)
        elif self.decisions:
            d = rng.choice(self.decisions)
            if d.name in settings and rng.random() < 0.25:
                del settings[d.name]
            elif d.name in settings:
                step = (d.high - d.low) / 10 if d.kind == "float" else 1.0
                value = settings[d.name] + rng.choice((-step, step))
                settings[d.name] = min(d.high, max(d.low, value))
            else:
                settings[d.name] = self._value(d, rng)
        else:
            buy = self.buy.mutate(buy, rng)
        return [buy, tuple(play), self._ordered(settings), *genes[3:]]

    def _mutate_play(self, play: list[str], rng: Any) -> None:
        self._mutate_cards(play, self.actions, self.max_play, rng)

    @staticmethod
    def _mutate_cards(cards: list[str], pool: tuple[str, ...], most: int, rng: Any) -> None:
        """Insert, delete or swap one card of an ordered list of distinct cards of ``pool``
        (at most ``most``)."""
        op = rng.randrange(3)
        absent = [k for k in pool if k not in cards]
        if op == 0 and absent and len(cards) < most:
            cards.insert(rng.randint(0, len(cards)), rng.choice(absent))
        elif op == 1 and cards:
            del cards[rng.randrange(len(cards))]
        elif len(cards) > 1:
            i, j = rng.sample(range(len(cards)), 2)
            cards[i], cards[j] = cards[j], cards[i]
        elif cards:
            cards.clear()
        elif absent and most:
            cards.append(rng.choice(absent))

    def crossover(self, a: list[Any], b: list[Any], rng: Any) -> tuple[list[Any], list[Any]]:
        x, y = self.buy.crossover(a[0], b[0], rng)
        pa, pb = (a[1], b[1]) if rng.random() < 0.5 else (b[1], a[1])
        sa, sb = dict(a[2]), dict(b[2])
        for d in self.decisions:
            if rng.random() < 0.5:
                va, vb = sa.pop(d.name, None), sb.pop(d.name, None)
                if vb is not None:
                    sa[d.name] = vb
                if va is not None:
                    sb[d.name] = va
        kids = [x, pa, self._ordered(sa)], [y, pb, self._ordered(sb)]
        if self.max_gain:
            ga, gb = (a[3], b[3]) if rng.random() < 0.5 else (b[3], a[3])
            kids[0].append(ga)
            kids[1].append(gb)
        return kids

    def _ordered(self, settings: dict[str, float]) -> tuple[tuple[str, float], ...]:
        return tuple((d.name, float(settings[d.name])) for d in self.decisions
                     if d.name in settings)

    # ------------------------------------------------------------------ text form

    def to_text(self, genes: list[Any]) -> str:
        parts = [self.buy.to_text(genes[0])]
        if len(genes) > 3 and genes[3]:
            parts.append("gain: " + " | ".join(genes[3]))
        if genes[1]:
            parts.append("play: " + " > ".join(genes[1]))
        if genes[2]:
            parts.append("set: " + ", ".join(f"{k}={_number(v)}" for k, v in genes[2]))
        return " | ".join(parts)

    def from_text(self, text: str) -> list[Any]:
        s = parse_strategy(text)
        genes = [self.buy.from_text(format_buylist(s.buylist)), s.play,
                 self._ordered(dict(s.decisions))]
        if self.max_gain:
            if any(r.limit is not None or r.conditions for r in s.gain.rules):
                raise InputError(f"{text!r}: the evolved gain list holds cards only (no copy "
                                 f"limits or conditions)")
            genes.append(tuple(r.card for r in s.gain.rules))
        elif s.gain.rules:
            raise InputError(f"{text!r}: a gain list is not evolved here (max_gain = 0)")
        if len(genes[2]) != len(s.decisions):
            extra = sorted(set(dict(s.decisions)) - {d.name for d in self.decisions})
            raise InputError(f"{text!r}: decision {extra[0]!r} is not evolved here")
        try:
            self.validate(genes)
        except ValueError as exc:
            raise InputError(f"{text!r}: {exc}") from None
        return genes

    def validate(self, genes: list[Any]) -> None:
        if len(genes) != (4 if self.max_gain else 3):
            raise ValueError("genome needs [buy list, play order, settings]"
                             + (" and a gain list" if self.max_gain else ""))
        if self.max_gain:
            gain = genes[3]
            if len(gain) > self.max_gain or len(set(gain)) != len(gain) or \
                    any(k not in self.gainable for k in gain):
                raise ValueError(f"gain list {gain!r}: at most {self.max_gain} distinct cards "
                                 f"of {', '.join(self.gainable)}")
        self.buy.validate(genes[0])
        play = genes[1]
        if len(play) > self.max_play or len(set(play)) != len(play):
            raise ValueError(f"play order {play!r}: at most {self.max_play} distinct cards")
        for key in play:
            if key not in self.actions:
                raise ValueError(f"play order: {key!r} is not an Action card of this "
                                 f"kingdom ({', '.join(self.actions) or 'none'})")
        evolved = {d.name: d for d in self.decisions}
        for name, value in genes[2]:
            d = evolved.get(name)
            if d is None or not d.low <= value <= d.high:
                raise ValueError(f"setting {name}={value} is not an evolved decision within "
                                 f"its range")
        if tuple(genes[2]) != self._ordered(dict(genes[2])):
            raise ValueError("settings are not in the decisions' order")


# The cards whose play a decision parameter steers (a Militia victim's choice: Militia).
_CARDS_OF = {"chapel_money_floor": ("chapel", "sentry"), "throne_target": ("throne-room",),
             "victim_action_cost": ("militia",)}


def relevant_decisions(kingdom: tuple[str, ...]) -> list[str]:
    """The decisions that matter in ``kingdom``: those of the cards it holds."""
    return [name for name in DECISIONS
            if set(_CARDS_OF.get(name, (name.split("_")[0],))) & set(kingdom)]


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def make_kind(options: dict[str, Any]) -> DominionStrategy:
    return DominionStrategy(options)
