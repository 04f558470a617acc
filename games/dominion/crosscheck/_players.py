"""pyminion players that follow our buy lists and the shared plan's default decisions.

One :class:`BuyListDecider` per seat answers every pyminion prompt: the buy phase and the
gains with a cost cap evaluate the buy list exactly as our kernel does (first rule whose
card is affordable, in stock, under its copy limit and whose conditions hold; the same
variables), actions are played in our static order (:data:`games.dominion._cards.ACTION_ORDER`,
Throne Room first when another action is in hand), and every other choice is the function of
:mod:`._rules` named in the plan. Shuffles use the game's injected ``random.Random`` through
:class:`SeededDeck`, never the global ``random`` module that pyminion uses by default.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.dominion._buylist import BuyRule
from games.dominion._cards import ACTION_ORDER, CARDS, INDEX, KEYS, card_key
from games.dominion._strategy import parse_strategy
from games.dominion.crosscheck import _rules as rules
from games.dominion.crosscheck._pyminion import BotDecider, Card, CardType, Deck, Player, base

BASIC = (base.copper, base.silver, base.gold, base.estate, base.duchy, base.province,
         base.curse)
#: pyminion's card object of each of our keys (basic cards and the 26 kingdom cards).
CARD: dict[str, Card] = {card_key(c.name): c for c in (*BASIC, *base.base_set)}
KEY: dict[str, str] = {c.name: k for k, c in CARD.items()}
#: Our static play order, restricted to the cards pyminion has.
PLAY_ORDER: tuple[str, ...] = tuple(KEYS[i] for i in ACTION_ORDER if KEYS[i] in CARD)
THRONE = "throne-room"

def keys(cards: Sequence[Card]) -> list[str]:
    """Our keys of pyminion cards."""
    return [KEY[c.name] for c in cards]


class SeededDeck(Deck):
    """A draw pile shuffled by the game's own ``random.Random``."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def shuffle(self) -> None:
        self.rng.shuffle(self.cards)


class BuyListDecider(BotDecider):
    """A buy-list bot with the plan's default decisions (see the module docstring)."""

    def __init__(self, buylist: str) -> None:
        strategy = parse_strategy(buylist)  # a buy list, or one with a gain list
        self.rules: tuple[BuyRule, ...] = strategy.buylist.rules
        self.gain_rules: tuple[BuyRule, ...] = strategy.gain.rules
        self.remodelled: str = "copper"  # the card the last Remodel trashes

    # ------------------------------------------------------------------ buy lists

    def choose(self, player: Player, game: Any, coins: int,
               allowed: set[str] | None = None,
               rules: tuple[BuyRule, ...] | None = None) -> Card | None:
        """The first rule's card (of the buy list, or of ``rules``) that costs at most
        ``coins``, is in stock (and in ``allowed`` if given), is under its copy limit and
        whose conditions hold."""
        owned: Counter[str] | None = None
        for rule in self.rules if rules is None else rules:
            card = CARD[rule.card]
            if card.get_cost(player, game) > coins or _pile(game, card.name) <= 0:
                continue
            if allowed is not None and rule.card not in allowed:
                continue
            if owned is None:
                owned = Counter(keys(player.get_all_cards()))
            if rule.limit is not None and owned[rule.card] >= rule.limit:
                continue
            if all(c.holds(_value(c.var, rule.card, owned, player, game, coins))
                   for c in rule.conditions):
                return card
        return None

    def buy_phase_decision(self, valid_cards: list[Card], player: Player,
                           game: Any) -> Card | None:
        return self.choose(player, game, player.state.money)

    def gain_up_to(self, cap: int, valid_cards: list[Card], player: Player, game: Any,
                   required: bool) -> list[Card]:
        """A gain with a cost cap: the gain list's card for ``cap`` coins, else the buy
        list's; else, where the card must gain (Workshop, Artisan, Remodel), the fallback
        of :func:`rules.gain_fallback` (Copper, Estate or Curse when nothing better fits)."""
        valid = {KEY[c.name] for c in valid_cards}
        card = self.choose(player, game, cap, allowed=valid, rules=self.gain_rules) \
            if self.gain_rules else None
        if card is None:
            card = self.choose(player, game, cap, allowed=valid)
        if card is None and required:
            key = rules.gain_fallback(valid, cap)
            card = CARD[key] if key is not None else None
        return [card] if card is not None else []

    # ------------------------------------------------------------------ actions

    def action_phase_decision(self, valid_actions: list[Card], player: Player,
                              game: Any) -> Card | None:
        hand = set(keys(valid_actions))
        if THRONE in hand and any(k != THRONE for k in hand):
            return CARD[THRONE]
        for key in PLAY_ORDER:
            if key == "remodel" and rules.remodel_target(
                    keys(player.hand.cards), _pile(game, "Province")) is None:
                continue  # nothing it would remodel
            if key != THRONE and key in hand:
                return CARD[key]
        return None

    def treasure_phase_decision(self, valid_treasures: list[Card], player: Player,
                                game: Any) -> list[Card]:
        return valid_treasures

    def multi_play_decision(self, prompt: str, card: Card, valid_cards: list[Card],
                            player: Player, game: Any, required: bool = True) -> Card | None:
        """Throne Room doubles the first other action in play order."""
        hand = set(keys(valid_cards))
        for key in PLAY_ORDER:
            if key != THRONE and key in hand:
                return CARD[key]
        return valid_cards[0] if required and valid_cards else None

    def binary_decision(self, prompt: str, card: Card, player: Player, game: Any,
                        relevant_cards: list[Card] | None = None) -> bool:
        """Moat is always revealed, Moneylender always trashes a Copper, Vassal plays the
        action it discarded, Library sets an action aside when no action is left, Sentry
        keeps the order of what it puts back."""
        name = KEY[card.name]
        if name == "library":
            return player.state.actions == 0
        if name == "sentry":
            return False
        return True

    # ------------------------------------------------------------------ hand choices

    def discard_decision(self, prompt: str, card: Card, valid_cards: list[Card],
                         player: Player, game: Any, min_num_discard: int = 0,
                         max_num_discard: int = -1) -> list[Card]:
        name = KEY[card.name]
        hand = keys(valid_cards)
        if name == "militia":
            return [CARD[k] for k in rules.militia_discards(hand)]
        if name == "cellar":
            return [c for c in valid_cards if _junk(c)]
        if name == "sentry":  # Coppers and the Victory-only cards it did not trash
            return [c for c in valid_cards if KEY[c.name] == "copper" or _junk(c)]
        return [CARD[k] for k in rules.junk_order(hand)[:min_num_discard]]

    def trash_decision(self, prompt: str, card: Card, valid_cards: list[Card],
                       player: Player, game: Any, min_num_trash: int = 0,
                       max_num_trash: int = -1) -> list[Card]:
        name = KEY[card.name]
        hand = keys(valid_cards)
        if name == "chapel":
            picked = rules.chapel_trash(hand, player.get_treasure_money())
            return [CARD[k] for k in picked]
        if name == "sentry":
            return [c for c in valid_cards if KEY[c.name] in ("curse", "estate")]
        if name == "mine":  # a Silver into a Gold, else a Copper into a Silver
            for want, gets in (("silver", "Gold"), ("copper", "Silver")):
                if want in hand and _pile(game, gets) > 0:
                    return [CARD[want]]
            return []
        if name == "remodel":
            target = rules.remodel_target(hand, _pile(game, "Province"))
            self.remodelled = target or rules.junk_order(hand)[0]
            return [CARD[self.remodelled]]
        return [CARD[k] for k in rules.junk_order(hand)[:min_num_trash]]

    def gain_decision(self, prompt: str, card: Card, valid_cards: list[Card], player: Player,
                      game: Any, min_num_gain: int = 0, max_num_gain: int = -1) -> list[Card]:
        name = KEY[card.name]
        caps = {"workshop": 4, "artisan": 5}
        if name in caps:
            return self.gain_up_to(caps[name], valid_cards, player, game, required=True)
        if name == "remodel":  # a Gold becomes a Province by the rule, else the gain rule
            if self.remodelled == "gold":
                return [CARD["province"]]
            return self.gain_up_to(rules.cost(self.remodelled) + 2, valid_cards, player, game,
                                   required=True)
        if name == "mine":  # Silver into Gold, Copper into Silver: the dearest treasure
            return [max(valid_cards, key=lambda c: c.get_cost(player, game))][:min_num_gain]
        cap = max((c.get_cost(player, game) for c in valid_cards), default=0)
        return self.gain_up_to(cap, valid_cards, player, game, required=min_num_gain > 0)

    def topdeck_decision(self, prompt: str, card: Card, valid_cards: list[Card],
                         player: Player, game: Any, min_num_topdeck: int = 0,
                         max_num_topdeck: int = -1) -> list[Card]:
        name = KEY[card.name]
        hand = keys(valid_cards)
        if name == "bureaucrat":
            key = rules.bureaucrat_topdeck(hand)
            return [CARD[key]] if key is not None else valid_cards[:min_num_topdeck]
        if name == "harbinger":
            fits = [k for k in hand if rules.cost(k) >= 3 and not rules.is_victory(k)
                    and k != "curse"]
            return [CARD[max(fits, key=lambda k: (rules.cost(k), -KEYS.index(k)))]] \
                if fits else []
        if name == "artisan" and player.state.actions == 0:
            acts = [k for k in hand if CardType.Action in CARD[k].type]
            if acts:  # an action it can no longer play this turn: the dearest one
                return [CARD[max(acts, key=lambda k: (rules.cost(k), -KEYS.index(k)))]]
        return [CARD[k] for k in rules.junk_order(hand)[:min_num_topdeck]]


def _junk(card: Card) -> bool:
    """A Curse or a Victory-only card (what Cellar and Sentry throw away)."""
    return KEY[card.name] == "curse" or card.type == (CardType.Victory,)


def _pile(game: Any, name: str) -> int:
    """Cards left in the supply pile ``name``; -1 for a card not in this game."""
    for pile in game.supply.piles:
        if pile.name == name:
            return len(pile)
    return -1


def _gains(game: Any) -> int:
    """Provinces left, or the cards left in the three smallest supply piles if fewer."""
    sizes = sorted(len(p) for p in game.supply.piles)
    return min(_pile(game, "Province"), sum(sizes[:3]))


def _value(var: str, key: str, owned: Counter[str], player: Player, game: Any,
           coins: int) -> float:
    """A buy-list variable as the kernel computes it (see games.dominion._buylist)."""
    if var == "left":
        return _pile(game, "Province")
    if var == "gains":
        return _gains(game)
    if var == "coins":
        return coins
    if var == "turn":
        return player.turns
    if var == "count":
        return owned[key]
    if var == "empty":
        return game.supply.num_empty_piles()
    total = sum(owned.values())
    if var == "money":
        return player.get_treasure_money()
    if var == "cards":
        return total
    if var == "share":
        return owned[key] / total if total else 0.0
    if var == "dshare":
        near = keys(player.hand.cards + player.playmat.cards).count(key)
        return (owned[key] - near) / total if total else 0.0
    if var in _TYPED:
        return _typed(var, key, owned, player, game)
    if var == "lead":
        mine = player.get_victory_points()
        others = [q.get_victory_points() for q in game.players if q is not player]
        return mine - max(others) if others else mine
    raise ValueError(f"unknown buy-list variable {var!r}")


_TYPED = ("treasures", "actions", "adensity", "curses", "tshare", "attacks", "kattacks")


def _of(owned: Counter[str], test: Any) -> int:
    """Cards in ``owned`` whose card row passes ``test``."""
    return sum(n for k, n in owned.items() if test(CARDS[INDEX[k]]))


def _typed(var: str, key: str, owned: Counter[str], player: Player, game: Any) -> float:
    """The buy-list variables that count cards by type, as the kernel computes them."""
    treasures = _of(owned, lambda c: c.treasure)
    if var == "treasures":
        return treasures
    if var == "actions":
        return _of(owned, lambda c: c.action)
    if var == "adensity":
        total = sum(owned.values())
        return _of(owned, lambda c: c.action) / total if total else 0.0
    if var == "curses":
        return owned["curse"]
    if var == "tshare":
        return owned[key] / treasures if treasures else 0.0
    if var == "attacks":
        return sum(_of(Counter(keys(q.get_all_cards())), lambda c: c.attack)
                   for q in game.players if q is not player)
    return sum(1 for k in CARD if CARDS[INDEX[k]].attack and _pile(game, CARD[k].name) >= 0)


def make_player(name: str, buylist: str, rng: random.Random) -> Player:
    """A pyminion player named ``name`` following ``buylist`` (and its gain list, when it
    has one), shuffling with ``rng``."""
    player = Player(decider=BuyListDecider(buylist), player_id=name)
    player.deck = SeededDeck(rng)  # set after: Player() replaces an empty (falsy) deck
    return player
