"""Dominion bots: named buy-list bots (Big Money family, the blog's three), the heuristic
bot whose coefficients the tuning layer searches, a random bot, and their plain-data specs.

Every bot is described by a :class:`BotSpec` (a name plus a params dict, or buy-list text):
plain picklable data that worker processes turn back into engine tables with
:func:`compile_bots`.

Just over 400 lines on purpose: a bot's name, its params, its text and the table the kernel
reads are built here side by side, so that the names `tabletune bots dominion` lists and
what the kernel plays cannot drift apart.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field, make_dataclass

import numpy as np

from games.core import BotSpec, InputError, make_params, tunable
from games.dominion._buylist import BuyList, BuyRule, Condition, parse_buylist
from games.dominion._cards import CARDS, INDEX, KINGDOM_KEYS
from games.dominion._decisions import decisions_row, default_decisions, play_order
from games.dominion._features import LAYOUTS, Layout, layout_for, layout_of, slot_cards
from games.dominion._layout import (
    ACT_NONE,
    ACT_RANDOM,
    ACT_SCORED,
    ACT_STATIC,
    BUY_LEARNED,
    BUY_RANDOM,
    BUY_RULES,
    GAIN_LIST,
    LP_END_RULE,
    LP_LAYOUT,
    LP_SLOTS,
    NLP,
    RULE_WIDTH,
)
from games.dominion._learned import ENDGAME_MODES, LEARNED, learned_weights
from games.dominion._named_bots import NAMED, named_bot
from games.dominion._strategy import Strategy, decision_fields, parse_strategy, with_params

SPECIAL_BOTS: dict[str, str] = {
    "heuristic": "buy rules and action play driven by tunable coefficients (see HeuristicParams)",
    "random": "random legal play: random actions, Steward choices and affordable buys",
    LEARNED: "learned:PATH: buys by a trained linear value of the resulting state "
             "(a model file from 'tabletune train'), the last gains by an estimated "
             "endgame (endgame=estimated|learned)",
}


@dataclass
class _HeuristicCoefficients:
    """Coefficients of the heuristic bot, each with its valid range.

    Victory: Province once the money in deck reaches ``province_money`` (with at most two
    gains to the end, only while the VP lead is at least ``ppr_lead``: the penultimate
    Province rule; -30 turns it off); Duchy when at most ``duchy_gains`` gains remain,
    Estate at ``estate_gains``. Then Gold (once the deck has ``gold_cards`` cards), a late
    Duchy (``late_duchy_gains``), Silver and each kingdom card (bought while its share of
    the deck is under ``<card>_share`` and the deck has at least ``<card>_cards`` cards) in
    descending ``*_priority``. Action play: seed 001's scoring, money + (buys - 1) * money /
    ``action_k``, or money + ``action_weight`` * actions. The deck-size gates and the lead
    rule are the terms the learned model found useful (deck size by stage, VP lead by
    Provinces left) in a form a buy list can use. Every kingdom card has its three
    parameters (the base set's beyond the sources' default to share 0: not bought), and the
    decision parameters of :mod:`games.dominion._decisions` set the bot's choices inside a
    turn. Against attacks: once the opponents own ``attacked_at`` Attack cards or more
    (0, the default: never), Moat and Library are bought while their share of the deck is
    under ``moat_attacked_share`` / ``library_attacked_share``, at ``attacked_priority``
    (Moat blocks every attack; Library draws back up after Militia's discard).
    """

    province_money: float = tunable(16.0, 0.0, 30.0)
    duchy_gains: float = tunable(4.0, 0.0, 12.0)
    estate_gains: float = tunable(2.0, 0.0, 12.0)
    late_duchy_gains: float = tunable(6.0, 0.0, 12.0)
    gold_priority: float = tunable(8.0, 0.0, 10.0)
    late_duchy_priority: float = tunable(7.5, 0.0, 10.0)
    silver_priority: float = tunable(2.0, 0.0, 10.0)
    action_k: float = tunable(4.0, 1.0, 16.0)
    action_weight: float = tunable(1.0, 0.0, 4.0)
    village_share: float = tunable(0.0, 0.0, 0.5)
    village_priority: float = tunable(3.0, 0.0, 10.0)
    woodcutter_share: float = tunable(0.0, 0.0, 0.5)
    woodcutter_priority: float = tunable(3.0, 0.0, 10.0)
    great_hall_share: float = tunable(0.0, 0.0, 0.5)
    great_hall_priority: float = tunable(3.0, 0.0, 10.0)
    steward_share: float = tunable(0.0, 0.0, 0.5)
    steward_priority: float = tunable(3.0, 0.0, 10.0)
    smithy_share: float = tunable(0.1, 0.0, 0.5)
    smithy_priority: float = tunable(5.0, 0.0, 10.0)
    workers_village_share: float = tunable(0.0, 0.0, 0.5)
    workers_village_priority: float = tunable(3.0, 0.0, 10.0)
    laboratory_share: float = tunable(0.2, 0.0, 0.5)
    laboratory_priority: float = tunable(6.0, 0.0, 10.0)
    market_share: float = tunable(0.0, 0.0, 0.5)
    market_priority: float = tunable(5.5, 0.0, 10.0)
    festival_share: float = tunable(0.0, 0.0, 0.5)
    festival_priority: float = tunable(3.0, 0.0, 10.0)
    bazaar_share: float = tunable(0.0, 0.0, 0.5)
    bazaar_priority: float = tunable(3.0, 0.0, 10.0)
    harem_share: float = tunable(0.0, 0.0, 0.5)
    harem_priority: float = tunable(4.0, 0.0, 10.0)
    ppr_lead: float = tunable(-30.0, -30.0, 15.0)
    gold_cards: float = tunable(0.0, 0.0, 40.0)
    village_cards: float = tunable(0.0, 0.0, 40.0)
    woodcutter_cards: float = tunable(0.0, 0.0, 40.0)
    great_hall_cards: float = tunable(0.0, 0.0, 40.0)
    steward_cards: float = tunable(0.0, 0.0, 40.0)
    smithy_cards: float = tunable(0.0, 0.0, 40.0)
    workers_village_cards: float = tunable(0.0, 0.0, 40.0)
    laboratory_cards: float = tunable(0.0, 0.0, 40.0)
    market_cards: float = tunable(0.0, 0.0, 40.0)
    festival_cards: float = tunable(0.0, 0.0, 40.0)
    bazaar_cards: float = tunable(0.0, 0.0, 40.0)
    harem_cards: float = tunable(0.0, 0.0, 40.0)
    attacked_at: float = tunable(0.0, 0.0, 10.0)
    moat_attacked_share: float = tunable(0.1, 0.0, 0.5)
    library_attacked_share: float = tunable(0.0, 0.0, 0.5)
    attacked_priority: float = tunable(6.0, 0.0, 10.0)


#: the cards the ``*_attacked_share`` terms buy against the opponents' attacks
DEFENCES = ("moat", "library")


def _snake(key: str) -> str:
    return key.replace("-", "_")


def _card_fields(declared: set[str]) -> list[tuple[str, type, object]]:
    """``<card>_share``, ``_priority`` and ``_cards`` of every kingdom card not declared
    above: share 0 by default, so the default bot buys none of them."""
    out: list[tuple[str, type, object]] = []
    for c in CARDS:
        name = _snake(c.key)
        if c.kingdom and f"{name}_share" not in declared:
            out += [(f"{name}_share", float, tunable(0.0, 0.0, 0.5)),
                    (f"{name}_priority", float, tunable(3.0, 0.0, 10.0)),
                    (f"{name}_cards", float, tunable(0.0, 0.0, 40.0))]
    return out


HeuristicParams = make_dataclass(
    "HeuristicParams",
    _card_fields({f.name for f in dataclasses.fields(_HeuristicCoefficients)})
    + decision_fields(), bases=(_HeuristicCoefficients,))
HeuristicParams.__module__ = __name__
HeuristicParams.__doc__ = _HeuristicCoefficients.__doc__


@dataclass
class HeuristicBot:
    """The tunable bot: its buy list is derived from ``params``; action mode is scored."""

    params: HeuristicParams = field(default_factory=HeuristicParams)
    name: str = "heuristic"

    def buylist(self) -> BuyList:
        p = self.params
        money = Condition("money", ">=", p.province_money)
        if p.ppr_lead > -30.0:
            province = [BuyRule("province", None, (money, Condition("gains", ">", 2.0))),
                        BuyRule("province", None, (money, Condition("lead", ">=", p.ppr_lead)))]
        else:
            province = [BuyRule("province", None, (money,))]
        rules = [*province,
                 BuyRule("duchy", None, (Condition("gains", "<=", p.duchy_gains),)),
                 BuyRule("estate", None, (Condition("gains", "<=", p.estate_gains),))]

        def gate(key: str) -> tuple[Condition, ...]:
            n = getattr(p, f"{_snake(key)}_cards")
            return (Condition("cards", ">=", n),) if n > 0 else ()

        middle: list[tuple[float, int, BuyRule]] = [
            (p.gold_priority, INDEX["gold"], BuyRule("gold", None, gate("gold"))),
            (p.late_duchy_priority, INDEX["duchy"],
             BuyRule("duchy", None, (Condition("gains", "<=", p.late_duchy_gains),))),
            (p.silver_priority, INDEX["silver"], BuyRule("silver")),
        ]
        for key in (c.key for c in CARDS if c.kingdom):  # compile_bots drops absent ones
            share = getattr(p, f"{_snake(key)}_share")
            if share > 0:
                prio = getattr(p, f"{_snake(key)}_priority")
                middle.append((prio, INDEX[key],
                               BuyRule(key, None, (Condition("share", "<", share),
                                                   *gate(key)))))
        if p.attacked_at > 0:  # the opponents' attacks: defences while they own enough
            attacked = Condition("attacks", ">=", p.attacked_at)
            for key in DEFENCES:
                share = getattr(p, f"{key}_attacked_share")
                if share > 0:
                    middle.append((p.attacked_priority, INDEX[key],
                                   BuyRule(key, None, (attacked, Condition("share", "<", share)))))
        middle.sort(key=lambda t: (-t[0], -CARDS[t[1]].cost, t[1]))
        return BuyList(tuple(rules + [r for _, _, r in middle]))


@dataclass
class BuyListBot:
    """A bot that follows a strategy (buy list, play order, decision settings) and plays
    actions with the shared action player in mode ``actions``."""

    params: Strategy
    name: str = "buy-list"
    actions: int = ACT_STATIC
    ranked: tuple[str, ...] = ()  # cards with a play priority, played after params.play


@dataclass
class LearnedBot:
    """Scores every legal buy by the linear value of the resulting state's features."""

    weights: np.ndarray
    eps: float = 0.0
    record: bool = False
    name: str = LEARNED
    guide: BuyList | None = None  # a buy list whose choice is one more feature
    explore: int = 0              # exploring, 0: a random legal buy, 1: the runner-up
    endgame: bool = True          # the last gains valued by the estimated endgame (kernel)
    margin: float = 0.01          # reward per VP of difference (the model's training margin)


NF_MAX = max(x.nf for x in LAYOUTS)  # a row of weights holds any layout's
ACTION_MODES = {"static": ACT_STATIC, "scored": ACT_SCORED, "none": ACT_NONE}
DECISION_NAMES: tuple[str, ...] = tuple(name for name, _, _ in decision_fields())


def bot_names() -> dict[str, str]:
    """Every bot name with a one-line description."""
    out = {name: desc for name, (_, desc) in NAMED.items()}
    out.update(SPECIAL_BOTS)
    return out


def spec_from_text(text: str, *, allow_buylist: bool = True) -> BotSpec:
    """A bot name, or (if allowed) a buy list in its text form."""
    t = text.strip()
    if t.lower() in SPECIAL_BOTS:
        return BotSpec(t.lower())
    if named_bot(t) is not None:  # a named bot by any of its names
        return BotSpec(named_bot(t))
    if not allow_buylist:
        raise InputError(f"unknown bot {t!r}; known bots: {', '.join(bot_names())} "
                         f"(use --bot for a buy list)")
    parse_strategy(t)  # validate now, with a message naming the bad token
    return BotSpec(t, genome=t)


def guide_list(text: str) -> BuyList:
    """A learned bot's guide: a named buy-list bot or a buy list in its text form."""
    t = text.strip()
    if named_bot(t) is not None:
        return parse_buylist(NAMED[named_bot(t)][0])
    return parse_buylist(t)


def _strategy_bot(spec: BotSpec, text: str) -> BuyListBot:
    """A buy-list or named bot: its strategy text with the spec's parameters applied
    (``actions``, ``play``, ``play_<card>``, decision parameters; see StrategyParams)."""
    try:
        strategy, ranked, mode = with_params(parse_strategy(text), spec.params)
    except InputError as exc:
        raise InputError(f"bot {spec.label!r}: {exc}") from None
    return BuyListBot(strategy, spec.name, ACTION_MODES[mode], ranked)


def build_bot(spec: BotSpec, kingdom: tuple[str, ...] | None = None
              ) -> HeuristicBot | BuyListBot | LearnedBot:
    """The bot object a spec describes (raises InputError for unknown names/params); a
    learned model is checked against ``kingdom`` when given."""
    if spec.name == LEARNED and spec.genome is None:
        w, eps, record, guide, margin = learned_weights(spec.params, spec.label, kingdom)
        explore_mode = spec.params.get("explore", "random")
        if explore_mode not in ("random", "runner-up"):
            raise InputError(f"bot {spec.label!r}: explore={explore_mode!r}; use random or "
                             "runner-up")
        endgame = spec.params.get("endgame", "estimated")
        if endgame not in ENDGAME_MODES:
            raise InputError(f"bot {spec.label!r}: endgame={endgame!r}; use estimated or "
                             "learned")
        return LearnedBot(w, eps, record, spec.label, guide_list(guide) if guide else None,
                          1 if explore_mode == "runner-up" else 0, endgame != "learned",
                          margin)
    if spec.genome is not None:
        return _strategy_bot(spec, spec.genome)
    if spec.name in NAMED:
        return _strategy_bot(spec, NAMED[spec.name][0])
    if spec.name == "heuristic":
        return HeuristicBot(make_params(HeuristicParams, spec.params), spec.name)
    if spec.name == "random":
        if spec.params:
            raise InputError("bot 'random' takes no parameters")
        return BuyListBot(Strategy(BuyList(())), "random", ACT_RANDOM)
    raise InputError(f"unknown bot {spec.name!r}; known bots: {', '.join(bot_names())}")


@dataclass
class CompiledBots:
    """Engine tables for a line-up of bots (see games.dominion._kernel)."""

    rules: np.ndarray
    nrules: np.ndarray
    amode: np.ndarray
    bmode: np.ndarray
    fparams: np.ndarray
    weights: np.ndarray = field(default_factory=lambda: np.zeros((1, NF_MAX)))
    lparams: np.ndarray = field(default_factory=lambda: np.zeros((1, NLP)))
    dparams: np.ndarray = field(default_factory=lambda: default_decisions()[None, :])
    porder: np.ndarray = field(default_factory=lambda: play_order(())[None, :])


def compile_bots(specs: Sequence[BotSpec], supply: np.ndarray) -> CompiledBots:
    """Turn specs into engine tables; a buy list or play order naming a card outside the
    supply is an error (the heuristic bot simply skips kingdom cards that are not in the
    game; play priorities only rank cards, wherever they are)."""
    tables, amode, bmode, fparams = [], [], [], []
    buy_counts: list[int] = []
    kingdom = tuple(k for k in KINGDOM_KEYS if supply[INDEX[k]] >= 0)
    weights = np.zeros((len(specs), NF_MAX), dtype=np.float64)
    lparams = np.zeros((len(specs), NLP), dtype=np.float64)
    dparams = np.tile(default_decisions(), (len(specs), 1))
    porder = np.tile(play_order(()), (len(specs), 1))
    for b, spec in enumerate(specs):
        bot = build_bot(spec, kingdom)
        if isinstance(bot, LearnedBot):
            bl = bot.guide or BuyList(())
            missing = sorted(c for c in bl.cards if supply[INDEX[c]] < 0)
            if missing:
                raise InputError(f"bot {spec.label!r}: its guide buys {', '.join(missing)}, "
                                 f"which is not in this game's kingdom")
            amode.append(ACT_STATIC)
            bmode.append(BUY_LEARNED)
            fparams.append((4.0, 1.0))
            layout = _learned_layout(spec.label, bot.weights, kingdom)
            weights[b, :len(bot.weights)] = bot.weights
            lparams[b, :LP_END_RULE] = (bot.eps, 1.0 if bot.record else 0.0, bot.explore,
                                        1.0 if bot.endgame else 0.0, bot.margin)
            lparams[b, LP_LAYOUT] = layout.code
            if layout.extra and not layout.general:
                slots = slot_cards(layout, kingdom)
                lparams[b, LP_SLOTS:LP_SLOTS + len(slots)] = slots
        elif isinstance(bot, HeuristicBot):
            bl = bot.buylist()
            bl = BuyList(tuple(r for r in bl.rules if supply[INDEX[r.card]] >= 0))
            amode.append(ACT_SCORED)
            bmode.append(BUY_RULES)
            fparams.append((bot.params.action_k, bot.params.action_weight))
            dparams[b] = decisions_row({k: getattr(bot.params, k) for k in DECISION_NAMES})
        else:
            _check_kingdom(spec.label, bot.params, supply)
            bl = bot.params.buylist
            random_bot = spec.name == "random" and spec.genome is None
            amode.append(bot.actions)
            bmode.append(BUY_RANDOM if random_bot else BUY_RULES)
            fparams.append((4.0, 1.0))
            dparams[b] = decisions_row(bot.params.settings())
            porder[b] = play_order(bot.params.play
                                   + tuple(k for k in bot.ranked if k not in bot.params.play))
        table = bl.table()[:len(bl.rules)]
        buy_counts.append(len(bl.rules))
        if isinstance(bot, BuyListBot) and bot.params.gain.rules:
            marker = np.zeros((1, RULE_WIDTH))  # the gain list follows its marker row
            marker[0, 0], marker[0, 1] = GAIN_LIST, len(bot.params.gain.rules)
            table = np.concatenate([table, marker, bot.params.gain.table()])
        tables.append(table)
    rmax = max(1, max(t.shape[0] for t in tables))
    rules = np.zeros((len(specs), rmax, RULE_WIDTH), dtype=np.float64)
    nrules = np.zeros(len(specs), dtype=np.int64)
    for b, (t, bot_rules) in enumerate(zip(tables, buy_counts, strict=True)):
        rules[b, :t.shape[0]] = t
        nrules[b] = bot_rules
    return CompiledBots(rules, nrules, np.array(amode, dtype=np.int64),
                        np.array(bmode, dtype=np.int64), np.array(fparams, dtype=np.float64),
                        weights, lparams, dparams, porder)


def _learned_layout(label: str, weights: np.ndarray, kingdom: tuple[str, ...]) -> Layout:
    """The feature layout of a learned bot's weights, which must describe this kingdom's
    cards: weights of the sources' layout play only where every card is one of theirs."""
    layout = layout_of(size=len(weights))
    assert layout is not None  # learned_weights checked the size
    if layout != layout_for(kingdom) and not layout.extra:
        raise InputError(f"bot {label!r}: its features describe the sources' cards only, "
                         f"not kingdom {','.join(kingdom)}")
    return layout


def _check_kingdom(label: str, strategy: Strategy, supply: np.ndarray) -> None:
    """A card the bot buys or plays by name (an entry of its buy list, whose conditions
    count that card) must be in this game's supply; the refusal names the kingdom."""
    for verb, cards in (("buys", strategy.buylist.cards), ("gains", strategy.gain.cards),
                        ("plays", set(strategy.play))):
        missing = sorted(c for c in cards if supply[INDEX[c]] < 0)
        if missing:
            kingdom = ", ".join(k for k in KINGDOM_KEYS if supply[INDEX[k]] >= 0) or "none"
            raise InputError(f"bot {label!r} {verb} {', '.join(missing)}, which "
                             f"{'is' if len(missing) == 1 else 'are'} not in this game's "
                             f"kingdom ({kingdom})")


def heuristic_param_names() -> list[str]:
    return [f.name for f in dataclasses.fields(HeuristicParams)]
