"""The named strategies of the deck-building model and their registry.

Random, Greedy, Expensive and Picky are the thesis's simple strategies; ``heuristic`` is a
fixed-shape buy rule whose thresholds are tunable parameters; ``optimal`` plays the exact
DP policy; ``flatmc`` is the thesis's flat Monte Carlo (Algorithm 2). Any ordered buy rule
(``games.deckbuilder._rules``) is a strategy too.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from games.core import InputError, make_params, tunable
from games.deckbuilder._model import CardSet
from games.deckbuilder._rules import (
    BuyRule,
    RuleEntry,
    expensive_rule,
    greedy_rule,
    picky_rule,
)


@dataclass(frozen=True)
class HeuristicParams:
    """Turns-left windows and money thresholds of the heuristic buy rule (thesis set names;
    on another card set the best treasure/victory cards by cost take their roles)."""

    province_left: int = tunable(31, 0, 250, integer=True,
                                 doc="buy the top victory card only with at most this many "
                                     "turns left (before that, treasure instead)")
    duchy_over_gold_left: int = tunable(5, 0, 60, integer=True,
                                        doc="prefer the middle victory card to the top "
                                            "treasure with at most this many turns left")
    duchy_left: int = tunable(10, 0, 60, integer=True,
                              doc="buy the middle victory card instead of the middle "
                                  "treasure with at most this many turns left")
    estate_over_silver_left: int = tunable(2, 0, 60, integer=True,
                                           doc="prefer the cheapest victory card to the "
                                               "middle treasure with at most this many left")
    estate_left: int = tunable(4, 0, 60, integer=True,
                               doc="buy the cheapest victory card rather than pass with at "
                                   "most this many turns left")
    gold_money: int = tunable(6, 0, 30, integer=True, doc="money needed to buy the top treasure")
    silver_money: int = tunable(3, 0, 30, integer=True,
                                doc="money needed to buy the middle treasure")
    silver_cap: int = tunable(60, 0, 250, integer=True,
                              doc="stop buying the middle treasure at this many copies")


def _roles(cs: CardSet) -> dict[str, str]:
    """Map the thesis roles to card names: top/middle/bottom treasure and victory card."""
    tre = sorted(cs.treasures, key=lambda c: (c.cost, c.value))
    vic = sorted(cs.victories, key=lambda c: (c.cost, c.points))
    return {"gold": tre[-1].name, "silver": tre[-2].name if len(tre) > 1 else tre[-1].name,
            "province": vic[-1].name, "duchy": vic[-2].name if len(vic) > 1 else vic[-1].name,
            "estate": vic[0].name}


def heuristic_rule(params: HeuristicParams, cs: CardSet) -> BuyRule:
    """The buy rule of the tunable heuristic (first match wins, else pass)."""
    r = _roles(cs)
    p = params
    entries = (
        RuleEntry(r["province"], 0, left_max=p.province_left),
        RuleEntry(r["duchy"], 0, left_max=p.duchy_over_gold_left),
        RuleEntry(r["gold"], p.gold_money),
        RuleEntry(r["duchy"], 0, left_max=p.duchy_left),
        RuleEntry(r["estate"], 0, left_max=p.estate_over_silver_left),
        RuleEntry(r["silver"], p.silver_money, count_below=p.silver_cap),
        RuleEntry(r["estate"], 0, left_max=p.estate_left),
    )
    return BuyRule(entries, "heuristic")


@dataclass(frozen=True)
class FlatMCParams:
    """Flat Monte Carlo: random continuations per candidate action (thesis: 100)."""

    rollouts: int = tunable(100, 1, 10_000, integer=True,
                            doc="random continuations per action")


@dataclass
class Strategy:
    """A named strategy: kind is 'rule', 'random', 'optimal' or 'flatmc'."""

    name: str
    kind: str
    description: str
    params: Any = None
    rule_text: str | None = None

    def rule(self, cs: CardSet) -> BuyRule:
        """The buy rule this strategy plays on ``cs`` (rule-kind strategies only)."""
        if self.kind != "rule":
            raise InputError(f"strategy {self.name!r} is not a buy rule")
        if self.rule_text is not None:
            return BuyRule.parse(self.rule_text, cs, self.name)
        builder = _RULE_BUILDERS[self.name]
        return builder(self.params, cs) if self.params is not None else builder(cs)

    def with_params(self, values: dict[str, Any]) -> Strategy:
        if self.params is None:
            if values:
                raise InputError(f"strategy {self.name!r} has no parameters")
            return self
        merged = {**dataclasses.asdict(self.params), **values}
        return dataclasses.replace(self, params=make_params(type(self.params), merged))


_RULE_BUILDERS = {
    "greedy": greedy_rule,
    "expensive": expensive_rule,
    "picky": picky_rule,
    "heuristic": heuristic_rule,
}

DESCRIPTIONS = {
    "random": "uniform among pass, best affordable treasure, best affordable victory card",
    "greedy": "best affordable victory card, else best affordable treasure",
    "expensive": "most expensive affordable card",
    "picky": "top victory card if affordable, else best affordable treasure",
    "heuristic": "tunable buy rule: turns-left windows for victory cards, money thresholds",
    "optimal": "exact dynamic-programming policy (fixed number of turns)",
    "flatmc": "flat Monte Carlo: random rollouts per action, best mean (thesis Algorithm 2)",
}


def strategy_names() -> list[str]:
    return list(DESCRIPTIONS)


def get_strategy(name: str, params: dict[str, Any] | None = None) -> Strategy:
    """A strategy by name, or a buy rule given in its text form (contains '@')."""
    key = name.strip()
    if "@" in key:
        BuyRule.parse(key)  # syntax check; card names are checked against a card set later
        return Strategy("rule", "rule", "ordered buy rule", None, key)
    key = key.lower()
    if key not in DESCRIPTIONS:
        raise InputError(f"unknown strategy {name!r}; valid: {', '.join(DESCRIPTIONS)} "
                         "or a buy rule such as 'province@8 | gold@6 | silver@3'")
    kind = {"random": "random", "optimal": "optimal", "flatmc": "flatmc"}.get(key, "rule")
    default = {"heuristic": HeuristicParams(), "flatmc": FlatMCParams()}.get(key)
    strat = Strategy(key, kind, DESCRIPTIONS[key], default)
    return strat.with_params(params or {})
