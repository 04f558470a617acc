"""The shared plan's default decisions and tie rule, as plain functions of card keys.

These are what the pyminion players decide (:mod:`._players` only translates pyminion's
prompts into calls of these), written from the shared plan of issue 28 so that both engines
play the same strategy. Cards are our keys (``"council-room"``); costs and types come from
:mod:`games.dominion._cards`. No pyminion import here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.dominion._cards import CARDS, INDEX

#: Victory-only cards and Curse, discarded and trashed first, in this order.
JUNK_FIRST: tuple[str, ...] = ("curse", "estate", "duchy", "province", "gardens")
#: Chapel's defaults: at most this many cards, keeping this much treasure money owned.
CHAPEL_MAX = 4
CHAPEL_MONEY_FLOOR = 6
#: Remodel turns a Gold into a Province once at most this many Provinces are left.
REMODEL_GOLD_PROVINCES = 4
#: Cards a Workshop, Artisan or Remodel gain falls back to last, in this order (junk, but
#: the printed "gain a card costing up to" is not optional).
GAIN_FALLBACK_LAST: tuple[str, ...] = ("copper", "estate", "curse")


def cost(key: str) -> int:
    """A card's cost in coins."""
    return CARDS[INDEX[key]].cost


def is_victory(key: str) -> bool:
    """A Victory card (Gardens included; Curse is not)."""
    return CARDS[INDEX[key]].victory


def is_treasure(key: str) -> bool:
    return CARDS[INDEX[key]].treasure


def junk_rank(key: str) -> tuple[int, int, int]:
    """Sort key of the junk order: Curse, Estate, Duchy, Province, Gardens, then Copper,
    then every other card by cost, cheapest first (ties by card index)."""
    if key in JUNK_FIRST:
        return (0, JUNK_FIRST.index(key), 0)
    if key == "copper":
        return (1, 0, 0)
    return (2, cost(key), INDEX[key])


def junk_order(keys: Iterable[str]) -> list[str]:
    """The cards ``keys`` (a hand, with repeats) sorted worst first."""
    return sorted(keys, key=junk_rank)


def militia_discards(hand: Sequence[str]) -> list[str]:
    """A Militia victim's discards: down to three cards, in junk order."""
    return junk_order(hand)[:max(0, len(hand) - 3)]


def bureaucrat_topdeck(hand: Sequence[str]) -> str | None:
    """A Bureaucrat victim's card to put on the deck: the cheapest Victory card in hand
    (Estate first); None when the hand holds none."""
    victory = [k for k in hand if is_victory(k)]
    return min(victory, key=lambda k: (cost(k), INDEX[k])) if victory else None


def chapel_trash(hand: Sequence[str], treasure_money: int, chapel_max: int = CHAPEL_MAX,
                 money_floor: int = CHAPEL_MONEY_FLOOR) -> list[str]:
    """Chapel's trash: up to ``chapel_max`` cards, every Curse, then Estates, then Coppers
    while the treasure money owned (``treasure_money``, before trashing) stays at or above
    ``money_floor`` after trashing."""
    out = [k for k in hand if k == "curse"] + [k for k in hand if k == "estate"]
    money = treasure_money
    for k in hand:
        if k == "copper" and money - 1 >= money_floor:
            out.append(k)
            money -= 1
    return out[:chapel_max]


def bandit_trash(revealed: Sequence[str]) -> str | None:
    """A Bandit victim's trash among the two revealed cards: the cheaper treasure other
    than Copper (Silver before Gold); None when there is none."""
    hits = [k for k in revealed if is_treasure(k) and k != "copper"]
    return min(hits, key=lambda k: (cost(k), INDEX[k])) if hits else None


def remodel_target(hand: Sequence[str], provinces_left: int,
                   gold_provinces: int = REMODEL_GOLD_PROVINCES) -> str | None:
    """The card Remodel trashes by choice: a Gold when 1 to ``gold_provinces`` Provinces
    are left, else a Curse, else an Estate; None when the hand holds none of them (the bot
    then does not play Remodel, and one played anyway trashes its first card in junk
    order)."""
    if "gold" in hand and 0 < provinces_left <= gold_provinces:
        return "gold"
    for key in ("curse", "estate"):
        if key in hand:
            return key
    return None


def gain_fallback(candidates: Iterable[str], cap: int) -> str | None:
    """The gain of a Workshop, Artisan or Remodel when the buy list wants nothing (the gain
    is mandatory): the most expensive card of ``candidates`` (the supply cards in stock)
    costing at most ``cap`` that is not a Curse, Copper or Estate (ties by card index), else
    Copper, else Estate, else Curse; None only when no candidate fits."""
    fits = {k for k in candidates if cost(k) <= cap}
    useful = [k for k in fits if k not in GAIN_FALLBACK_LAST]
    if useful:
        return max(useful, key=lambda k: (cost(k), -INDEX[k]))
    return next((k for k in GAIN_FALLBACK_LAST if k in fits), None)


def seat_outcomes(vp: Sequence[int], turns: Sequence[int]) -> list[int]:
    """Outcome per seat by our tie rule: most VP wins; a VP tie goes to the player with
    fewer turns; a tie on both is shared. 1 sole winner, 0 shared first place, -1 loss."""
    best = max(vp)
    fewest = min(t for v, t in zip(vp, turns, strict=True) if v == best)
    first = [v == best and t == fewest for v, t in zip(vp, turns, strict=True)]
    shared = sum(first) > 1
    return [(0 if shared else 1) if f else -1 for f in first]
