"""Dominion's buy-list bots playing the turn-level State move by move
(:class:`games.dominion.state.DominionState`), for matches beside OpenSpiel's bots
(:mod:`games.interop.match`).

This is a re-implementation of the kernel's buy-list player, decision by decision, not the
kernel's own play: the buy list is evaluated as the kernel does (first entry whose card is
offered, under its copy limit, whose conditions hold), but the action player and the card
decisions are the simple defaults below, so results are close to the kernel's, not
identical.

- Buy phase: play every treasure, then buy the first matching entry of the buy list among
  the offered buys (offered: affordable and in stock), else end the turn.
- Action phase: the strategy's play order first, then its ranked cards, then the kernel's
  static order (:data:`games.dominion.cards.ACTION_ORDER`: villages, other non-terminals,
  terminals); action mode ``none`` plays no actions; Remodel only with a card worth
  remodelling in hand (:func:`games.dominion.crosscheck.rules.remodel_target`).
- Card decisions: reveal Moat; discard and trash in the junk order
  (:func:`games.dominion.crosscheck.rules.junk_order`: Curse, Estate and other Victory
  cards, then Copper); optional discards and trashes (Cellar, Sentry, Chapel) take only
  junk (Chapel keeps 6 coins of treasure); gains follow the buy list, else
  :func:`games.dominion.crosscheck.rules.gain_fallback`; the other choices as
  :data:`_CHOICES` says. The ``random`` bot picks a legal move uniformly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from games.core import BotSpec, InputError
from games.dominion.bots import BuyListBot, build_bot
from games.dominion.buylist import BuyRule
from games.dominion.cards import ACTION_ORDER, CARDS, COIN, INDEX, KEYS, PROVINCE
from games.dominion.crosscheck import rules
from games.dominion.engine import ACT_NONE, ACT_RANDOM
from games.dominion.turns.moves import DONE, END_ACTIONS, END_TURN, PLAY_TREASURES, Move
from games.dominion.turns.table import ACTION

#: cards that optional discards and trashes (Cellar, Sentry) throw away
_VICTORY_ONLY = {k for k in KEYS if CARDS[INDEX[k]].victory and not CARDS[INDEX[k]].action
                 and not CARDS[INDEX[k]].treasure}


def rule_variable(state: Any, p: int, var: str, key: str, owned: Sequence[int],
                  coins: int) -> float:
    """A buy-list variable (:mod:`games.dominion.buylist`) for ``p`` buying ``key`` with
    ``coins`` left, from the state's counts; ``owned`` is ``state.owned(p)``."""
    c, total = INDEX[key], sum(owned)
    treasures = sum(k for i, k in enumerate(owned) if CARDS[i].treasure)
    actions = sum(k for i, k in enumerate(owned) if CARDS[i].action)
    sizes = sorted(state.supply[i] for i in state.piles)
    values: dict[str, Callable[[], float]] = {
        "left": lambda: state.supply[PROVINCE],
        "gains": lambda: min(state.supply[PROVINCE], sum(sizes[:3])),
        "money": lambda: sum(int(COIN[i]) * k for i, k in enumerate(owned)),
        "cards": lambda: total,
        "turn": lambda: state.turns[p] + 1,
        "coins": lambda: coins,
        "count": lambda: owned[c],
        "share": lambda: owned[c] / total if total else 0.0,
        "dshare": lambda: ((owned[c] - (state.hand[p] + state.play[p]).count(c)) / total
                           if total else 0.0),
        "lead": lambda: state.victory_points(p) - max(
            (state.victory_points(q) for q in state.others(p)), default=0),
        "empty": lambda: state.empty_piles(),
        "treasures": lambda: treasures,
        "actions": lambda: actions,
        "adensity": lambda: actions / total if total else 0.0,
        "curses": lambda: owned[INDEX["curse"]],
        "tshare": lambda: owned[c] / treasures if treasures else 0.0,
        "attacks": lambda: sum(k for q in state.others(p) for i, k in
                               enumerate(state.owned(q)) if CARDS[i].attack),
        "kattacks": lambda: sum(1 for i in state.piles if CARDS[i].attack),
    }
    return float(values[var]())


def first_rule(state: Any, p: int, rules_: Sequence[BuyRule], offered: set[str],
               coins: int) -> str | None:
    """The card of the first buy-list entry among ``offered`` that is under its copy limit
    and whose conditions hold; None when no entry matches."""
    owned = state.owned(p)
    for rule in rules_:
        if rule.card not in offered:
            continue
        if rule.limit is not None and owned[INDEX[rule.card]] >= rule.limit:
            continue
        if all(k.holds(rule_variable(state, p, k.var, rule.card, owned, coins))
               for k in rule.conditions):
            return rule.card
    return None


def _named(moves: Sequence[Move], verb: str) -> dict[str, Move]:
    return {m.card: m for m in moves if m.verb == verb}


def _worst(moves: Sequence[Move], verb: str) -> Move:
    """The move of ``verb`` on the worst card in junk order (else the first move)."""
    by = _named(moves, verb)
    return by[rules.junk_order(by)[0]] if by else moves[0]


def _junk_or_done(moves: Sequence[Move], verbs: Sequence[str], junk: set[str]) -> Move:
    """The first move of ``verbs`` (in that order of preference) on a card of ``junk``,
    worst first; else ``done``."""
    for verb in verbs:
        hits = [k for k in _named(moves, verb) if k in junk]
        if hits:
            return Move(verb, rules.junk_order(hits)[0])
    return DONE if DONE in moves else moves[0]


class BuyListPlayer:
    """A buy-list bot with ``act(state) -> move`` (see the module text)."""

    def __init__(self, bot: BuyListBot, rng: np.random.Generator) -> None:
        self.bot, self.rng = bot, rng
        self.rules = bot.params.buylist.rules
        first = [*bot.params.play, *bot.ranked]
        self.order = [*dict.fromkeys([*first, *(KEYS[int(i)] for i in ACTION_ORDER)])]

    def act(self, state: Any) -> Move:
        moves = state.legal_moves()
        if self.bot.actions == ACT_RANDOM:
            return moves[int(self.rng.integers(len(moves)))]
        p = state.current_player()
        if state.stack:
            return _CHOICES.get(state.stack[-1][0], _first)(self, state, p, moves)
        if state.phase == ACTION:
            return self._action(state, moves)
        if PLAY_TREASURES in moves:
            return PLAY_TREASURES
        card = first_rule(state, p, self.rules, set(_named(moves, "buy")), state.coins)
        return Move("buy", card) if card else END_TURN

    def _action(self, state: Any, moves: Sequence[Move]) -> Move:
        if self.bot.actions == ACT_NONE:
            return END_ACTIONS
        if rules.remodel_target(_hand(state, state.active), state.supply[PROVINCE]) is None:
            moves = [m for m in moves if m.card != "remodel"]  # nothing worth remodelling
        return self._by_order(moves, "play", END_ACTIONS)

    def _by_order(self, moves: Sequence[Move], verb: str, otherwise: Move) -> Move:
        by = _named(moves, verb)
        return next((by[k] for k in self.order if k in by), otherwise)

    def gain(self, state: Any, p: int, moves: Sequence[Move]) -> Move:
        """A gain: the buy list's choice among the offered cards, else the fallback."""
        by = _named(moves, "gain")
        cap = max((rules.cost(k) for k in by), default=0)
        card = first_rule(state, p, self.rules, set(by), cap) or \
            rules.gain_fallback(by, cap)
        return by[card] if card in by else moves[0]


def _first(player: BuyListPlayer, state: Any, p: int, moves: Sequence[Move]) -> Move:
    return moves[0]


def _hand(state: Any, p: int) -> list[str]:
    return [KEYS[c] for c in state.hand[p]]


def _chapel(player: BuyListPlayer, state: Any, p: int, moves: Sequence[Move]) -> Move:
    money = sum(int(COIN[i]) * k for i, k in enumerate(state.owned(p)))
    want = rules.chapel_trash(_hand(state, p), money)
    return Move("trash", want[0]) if want else DONE


def _remodel(player: BuyListPlayer, state: Any, p: int, moves: Sequence[Move]) -> Move:
    key = rules.remodel_target(_hand(state, p), state.supply[PROVINCE])
    return Move("trash", key) if key else _worst(moves, "trash")


def _bureaucrat(player: BuyListPlayer, state: Any, p: int, moves: Sequence[Move]) -> Move:
    key = rules.bureaucrat_topdeck(list(_named(moves, "topdeck")))
    return Move("topdeck", key) if key else moves[0]


def _bandit(player: BuyListPlayer, state: Any, p: int, moves: Sequence[Move]) -> Move:
    key = rules.bandit_trash(list(_named(moves, "trash")))
    return Move("trash", key) if key else moves[0]


def _harbinger(player: BuyListPlayer, state: Any, p: int, moves: Sequence[Move]) -> Move:
    fits = [k for k in _named(moves, "topdeck") if rules.cost(k) >= 3
            and not rules.is_victory(k) and k != "curse"]
    return Move("topdeck", max(fits, key=lambda k: (rules.cost(k), -INDEX[k]))) \
        if fits else DONE


def _mine(player: BuyListPlayer, state: Any, p: int, moves: Sequence[Move]) -> Move:
    by = _named(moves, "trash")
    return next((by[k] for k in ("silver", "copper") if k in by), DONE)


def _library(player: BuyListPlayer, state: Any, p: int, moves: Sequence[Move]) -> Move:
    keep = state.actions > 0  # an Action drawn can still be played this turn
    return next(m for m in moves if m.verb == ("keep" if keep else "set-aside"))


#: the card decisions by the step that asks them (any other: its first move)
_CHOICES: dict[str, Callable[[BuyListPlayer, Any, int, Sequence[Move]], Move]] = {
    "moat": lambda pl, st, p, mv: Move("reveal", "moat"),
    "gain": lambda pl, st, p, mv: pl.gain(st, p, mv),
    "artisan": lambda pl, st, p, mv: _worst(mv, "topdeck"),
    "bureaucrat": _bureaucrat,
    "bandit": _bandit,
    "cellar": lambda pl, st, p, mv: _junk_or_done(mv, ("discard",), _VICTORY_ONLY | {"curse"}),
    "chapel": _chapel,
    "harbinger": _harbinger,
    "library-keep": _library,
    "militia": lambda pl, st, p, mv: _worst(mv, "discard"),
    "mine": _mine,
    "moneylender": lambda pl, st, p, mv: Move("trash", "copper"),
    "poacher": lambda pl, st, p, mv: _worst(mv, "discard"),
    "remodel": _remodel,
    "sentry": lambda pl, st, p, mv: (
        _junk_or_done(mv, ("trash",), {"curse", "estate", "copper"})
        if any(m.verb == "trash" and m.card in {"curse", "estate", "copper"} for m in mv)
        else _junk_or_done(mv, ("discard",), _VICTORY_ONLY)),
    "steward": lambda pl, st, p, mv: Move("choose", "cards"),
    "steward-trash": lambda pl, st, p, mv: _worst(mv, "trash"),
    "throne": lambda pl, st, p, mv: pl._by_order(mv, "throne", mv[0]),
    "vassal-play": lambda pl, st, p, mv: next(m for m in mv if m.verb == "play"),
}


def state_player(spec: BotSpec, rng: np.random.Generator) -> BuyListPlayer:
    """A buy-list, named or random bot as a move-by-move player; the heuristic and learned
    bots decide inside the kernel only (InputError)."""
    bot = build_bot(spec)
    if not isinstance(bot, BuyListBot):
        raise InputError(f"dominion bot {spec.label!r} cannot play move by move through the "
                         "turn-level State (beside an OpenSpiel bot); use a buy-list bot")
    return BuyListPlayer(bot, rng)
