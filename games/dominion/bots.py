"""Dominion bots: named buy-list bots (Big Money family, the blog's three), the heuristic
bot whose coefficients the tuning layer searches, a random bot, and their plain-data specs.

Every bot is described by a :class:`BotSpec` (a name plus a params dict, or buy-list text):
plain picklable data that worker processes turn back into engine tables with
:func:`compile_bots`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from games.core import BotSpec, InputError, make_params, tunable
from games.dominion.buylist import BuyList, BuyRule, Condition, parse_buylist
from games.dominion.cards import CARDS, INDEX, KINGDOM_KEYS
from games.dominion.engine import (
    ACT_NONE,
    ACT_RANDOM,
    ACT_SCORED,
    ACT_STATIC,
    BUY_LEARNED,
    BUY_RANDOM,
    BUY_RULES,
    LP_END_RULE,
    NLP,
    RULE_WIDTH,
)
from games.dominion.features import NF
from games.dominion.learned import ENDGAME_MODES, LEARNED, learned_weights

# name -> (buy list, one-line description)
NAMED: dict[str, tuple[str, str]] = {
    "big-money": (
        "province | gold | silver",
        "Province with $8+, Gold with $6-7, Silver with $3-5 (the baseline)"),
    "big-money-ultimate": (
        "province@money>18 | duchy@gains<=4 | estate@gains<=2 | gold | duchy@gains<=6 | silver",
        "Big Money with Province only once money in deck > 18 and Duchy/Estate endgame rules"),
    "smithy-big-money": (
        "province@money>15 | duchy@gains<=4 | estate@gains<=2 | gold | duchy@gains<=6"
        " | smithy:1 | smithy:2@cards>=16 | silver",
        "Big Money Ultimate's endgame, one Smithy early and a second at 16+ cards"),
    "blog-big-money": (
        "province | gold | silver",
        "seed 004's Money deck (same buys as big-money)"),
    "blog-smithy": (
        "province | gold | smithy@dshare<1/20 | silver",
        "seed 004's Smithy bot: Smithy while Smithies in draw+discard are under 1/20 of cards"),
    "blog-steward": (
        "province | gold | steward@dshare<1/20 | silver",
        "seed 004's Steward bot: Steward while Stewards in draw+discard are under 1/20"),
}
SPECIAL_BOTS: dict[str, str] = {
    "heuristic": "buy rules and action play driven by tunable coefficients (see HeuristicParams)",
    "random": "random legal play: random actions, Steward choices and affordable buys",
    LEARNED: "learned:PATH: buys by a trained linear value of the resulting state "
             "(a model file from 'tabletune train'), the last gains by an estimated "
             "endgame (endgame=estimated|learned)",
}


@dataclass
class HeuristicParams:
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
    Provinces left) in a form a buy list can use.
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


def _snake(key: str) -> str:
    return key.replace("-", "_")


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
        for key in KINGDOM_KEYS:
            share = getattr(p, f"{_snake(key)}_share")
            if share > 0:
                prio = getattr(p, f"{_snake(key)}_priority")
                middle.append((prio, INDEX[key],
                               BuyRule(key, None, (Condition("share", "<", share),
                                                   *gate(key)))))
        middle.sort(key=lambda t: (-t[0], -CARDS[t[1]].cost, t[1]))
        return BuyList(tuple(rules + [r for _, _, r in middle]))


@dataclass
class BuyListBot:
    """A bot that follows a buy list and plays actions with the shared action player."""

    params: BuyList
    name: str = "buy-list"


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


ACTION_MODES = {"static": ACT_STATIC, "scored": ACT_SCORED, "none": ACT_NONE}


def bot_names() -> dict[str, str]:
    """Every bot name with a one-line description."""
    out = {name: desc for name, (_, desc) in NAMED.items()}
    out.update(SPECIAL_BOTS)
    return out


def spec_from_text(text: str, *, allow_buylist: bool = True) -> BotSpec:
    """A bot name, or (if allowed) a buy list in its text form."""
    t = text.strip()
    if t.lower() in NAMED or t.lower() in SPECIAL_BOTS:
        return BotSpec(t.lower())
    if not allow_buylist:
        raise InputError(f"unknown bot {t!r}; known bots: {', '.join(bot_names())} "
                         f"(use --bot for a buy list)")
    parse_buylist(t)  # validate now, with a message naming the bad token
    return BotSpec(t, genome=t)


def guide_list(text: str) -> BuyList:
    """A learned bot's guide: a named buy-list bot or a buy list in its text form."""
    t = text.strip()
    if t.lower() in NAMED:
        return parse_buylist(NAMED[t.lower()][0])
    return parse_buylist(t)


def _action_mode(spec: BotSpec) -> int:
    """Action mode of a buy-list or named bot from its only parameter, ``actions``."""
    extra = sorted(set(spec.params) - {"actions"})
    if extra:
        raise InputError(f"bot {spec.label!r} takes only the parameter 'actions', "
                         f"not {', '.join(extra)}")
    mode = spec.params.get("actions", "static")
    if mode not in ACTION_MODES:
        raise InputError(f"bot {spec.label!r}: actions={mode!r}; use one of "
                         f"{', '.join(ACTION_MODES)}")
    return ACTION_MODES[mode]


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
    if spec.name not in ("heuristic", "random") or spec.genome is not None:
        _action_mode(spec)
    if spec.genome is not None:
        return BuyListBot(parse_buylist(spec.genome), spec.name)
    if spec.name in NAMED:
        return BuyListBot(parse_buylist(NAMED[spec.name][0]), spec.name)
    if spec.name == "heuristic":
        return HeuristicBot(make_params(HeuristicParams, spec.params), spec.name)
    if spec.name == "random":
        return BuyListBot(BuyList(()), "random")
    raise InputError(f"unknown bot {spec.name!r}; known bots: {', '.join(bot_names())}")


@dataclass
class CompiledBots:
    """Engine tables for a line-up of bots (see games.dominion.kernel)."""

    rules: np.ndarray
    nrules: np.ndarray
    amode: np.ndarray
    bmode: np.ndarray
    fparams: np.ndarray
    weights: np.ndarray = field(default_factory=lambda: np.zeros((1, NF)))
    lparams: np.ndarray = field(default_factory=lambda: np.zeros((1, NLP)))


def compile_bots(specs: Sequence[BotSpec], supply: np.ndarray) -> CompiledBots:
    """Turn specs into engine tables; a buy list naming a card outside the supply is an
    error (the heuristic bot simply skips kingdom cards that are not in the game)."""
    tables, amode, bmode, fparams = [], [], [], []
    kingdom = tuple(k for k in KINGDOM_KEYS if supply[INDEX[k]] >= 0)
    weights = np.zeros((len(specs), NF), dtype=np.float64)
    lparams = np.zeros((len(specs), NLP), dtype=np.float64)
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
            weights[b] = bot.weights
            lparams[b, :LP_END_RULE] = (bot.eps, 1.0 if bot.record else 0.0, bot.explore,
                                        1.0 if bot.endgame else 0.0, bot.margin)
        elif isinstance(bot, HeuristicBot):
            bl = bot.buylist()
            bl = BuyList(tuple(r for r in bl.rules if supply[INDEX[r.card]] >= 0))
            amode.append(ACT_SCORED)
            bmode.append(BUY_RULES)
            fparams.append((bot.params.action_k, bot.params.action_weight))
        else:
            bl = bot.params
            missing = sorted(c for c in bl.cards if supply[INDEX[c]] < 0)
            if missing:
                raise InputError(f"bot {spec.label!r} buys {', '.join(missing)}, which is "
                                 f"not in this game's kingdom")
            random_bot = spec.name == "random" and spec.genome is None
            amode.append(ACT_RANDOM if random_bot else _action_mode(spec))
            bmode.append(BUY_RANDOM if random_bot else BUY_RULES)
            fparams.append((4.0, 1.0))
        tables.append(bl.table()[:len(bl.rules)])
    rmax = max(1, max(t.shape[0] for t in tables))
    rules = np.zeros((len(specs), rmax, RULE_WIDTH), dtype=np.float64)
    nrules = np.zeros(len(specs), dtype=np.int64)
    for b, t in enumerate(tables):
        rules[b, :t.shape[0]] = t
        nrules[b] = t.shape[0]
    return CompiledBots(rules, nrules, np.array(amode, dtype=np.int64),
                        np.array(bmode, dtype=np.int64), np.array(fparams, dtype=np.float64),
                        weights, lparams)


def heuristic_param_names() -> list[str]:
    return [f.name for f in dataclasses.fields(HeuristicParams)]
