"""Dominion kingdoms by name: card lists in any spelling, presets, and a seeded random draw.

A kingdom is given (``--kingdom``, ``[game] kingdom`` in a spec) as

* comma-separated kingdom cards in any reasonable spelling (``Throne Room``,
  ``throne_room``, ``council-room``): at most ten, none twice, no basic card;
* a preset: the sources' kingdoms (``default`` = seed 001's, also ``stanford`` and
  ``seed001``; ``blog`` = seed 004's, also ``seed004``) and the six recommended kingdoms of
  the 2nd-edition base-set rulebook (``first-game``, ``size-distortion``, ``deck-top``,
  ``sleight-of-hand``, ``improvements``, ``silver-and-gold``); ``attack``, the kingdom of the
  attack studies (Witch and Militia against Moat, Chapel, the Laboratory/Market/Smithy
  engines and Gardens); ``none`` is an empty kingdom;
  two presets name card pools larger than a table's ten: ``sources`` (the sources' eleven
  kingdom cards, what their simulations drew on) and ``all`` (every card the engine plays,
  the contract suite's supply, where every bot finds its cards);
* ``random``: ten cards drawn with the run's root seed (the same run draws the same cards),
  or ``random:N``: ten cards drawn with seed ``N`` (the same kingdom in every run).

Only cards the engine plays (``cards.KINGDOM_KEYS``) are accepted; a card of the base set
that it does not play yet is refused as not implemented. ``random`` draws from the base
set's 26 cards once all of them are playable, else from the playable kingdom cards, and
says which (:func:`random_pool`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from games.core import InputError
from games.dominion import _cards as cards
from games.dominion._cards import (
    BASE_SET_KEYS,
    BLOG_KINGDOM,
    CARDS,
    DEFAULT_KINGDOM,
    INDEX,
    SOURCE_CARDS,
)

MAX_CARDS = 10  # a kingdom is ten piles of kingdom cards
RANDOM = "random"
_RANDOM_STREAM = 0x6B696E67  # keeps the kingdom draw apart from every game's stream

#: The recommended kingdoms of the Dominion 2nd-edition base-set rulebook (as reproduced in
#: the "Extra Recommended Sets" list of official kingdoms), with the sources' two kingdoms.
PRESETS: dict[str, tuple[str, ...]] = {
    "default": DEFAULT_KINGDOM,
    "blog": BLOG_KINGDOM,
    "sources": tuple(c.key for c in CARDS[:SOURCE_CARDS] if c.kingdom),
    "all": (),  # every playable kingdom card, read when asked (cards.KINGDOM_KEYS)
    "first-game": ("cellar", "market", "merchant", "militia", "mine", "moat", "remodel",
                   "smithy", "village", "workshop"),
    "size-distortion": ("artisan", "bandit", "bureaucrat", "chapel", "festival", "gardens",
                        "sentry", "throne-room", "witch", "workshop"),
    "deck-top": ("artisan", "bureaucrat", "council-room", "festival", "harbinger",
                 "laboratory", "moneylender", "sentry", "vassal", "village"),
    "sleight-of-hand": ("cellar", "council-room", "festival", "gardens", "harbinger",
                        "library", "militia", "poacher", "smithy", "throne-room"),
    "improvements": ("artisan", "cellar", "market", "merchant", "mine", "moat",
                     "moneylender", "poacher", "remodel", "witch"),
    "silver-and-gold": ("bandit", "bureaucrat", "chapel", "harbinger", "laboratory",
                        "merchant", "mine", "moneylender", "throne-room", "vassal"),
    # not a rulebook set: the kingdom of the attack studies (studies/dominion-attack-*)
    "attack": ("witch", "militia", "chapel", "laboratory", "market", "smithy", "village",
               "moat", "council-room", "gardens"),
}
PRESET_ALIASES: dict[str, str] = {"stanford": "default", "seed001": "default",
                                  "seed004": "blog"}
PRESET_TITLES: dict[str, str] = {
    "default": "seed 001 (the Stanford report's appendix): every source card but Steward",
    "blog": "seed 004 (the blog's three-player games)",
    "sources": "the sources' eleven kingdom cards (seed 001's ten and Steward)",
    "all": "every kingdom card the engine plays",
    "first-game": "First Game (2nd-edition rulebook)",
    "size-distortion": "Size Distortion (2nd-edition rulebook)",
    "deck-top": "Deck Top (2nd-edition rulebook)",
    "sleight-of-hand": "Sleight of Hand (2nd-edition rulebook)",
    "improvements": "Improvements (2nd-edition rulebook)",
    "silver-and-gold": "Silver & Gold (2nd-edition rulebook)",
    "attack": "the attack studies' kingdom: two attacks, Moat, Chapel, engines and Gardens",
}
EMPTY = ("none", "empty")


def _compact(name: str) -> str:
    """A name without case, spaces or punctuation ("&" reads "and")."""
    return re.sub(r"[^a-z0-9]+", "", name.lower().replace("&", "and"))


_LOOKUP: dict[str, str] = {**{_compact(n): n for n in PRESETS},
                           **{_compact(a): n for a, n in PRESET_ALIASES.items()}}


def preset_name(text: str) -> str | None:
    """The preset a name means in any spelling ("Silver & Gold", "Seed 004"), else None."""
    return _LOOKUP.get(_compact(text))


def preset_lines() -> list[str]:
    """One line per preset: name, aliases, title and cards (what ``--kingdom list`` shows),
    then how to draw a random kingdom."""
    out = []
    for name in PRESETS:
        keys = preset_cards(name)
        aliases = [a for a, target in PRESET_ALIASES.items() if target == name]
        spelled = name + (f" ({', '.join(aliases)})" if aliases else "")
        missing = [k for k in keys if k not in cards.KINGDOM_KEYS]
        state = f"  [not playable yet: {', '.join(missing)}]" if missing else ""
        out.append(f"{spelled}: {PRESET_TITLES[name]}: {', '.join(keys)}{state}")
    _, source = random_pool()
    out.append(f"random / random:N: {MAX_CARDS} cards drawn from {source} with the run's "
               "seed / with seed N")
    return out


def preset_cards(name: str) -> tuple[str, ...]:
    """The cards of a preset (``all``: every card the engine plays now)."""
    return tuple(cards.KINGDOM_KEYS) if name == "all" else PRESETS[name]


def random_pool() -> tuple[tuple[str, ...], str]:
    """The cards ``random`` draws from and a phrase saying which: the base set's 26 cards
    once the engine plays them all, else every playable kingdom card."""
    playable = tuple(cards.KINGDOM_KEYS)
    if set(BASE_SET_KEYS) <= set(playable):
        return BASE_SET_KEYS, f"the base set's {len(BASE_SET_KEYS)} cards"
    return playable, (f"the {len(playable)} playable kingdom cards (not every base-set card "
                      "is playable yet)")


def draw_random(seed: int) -> tuple[str, ...]:
    """Ten kingdom cards (fewer if the pool is smaller) drawn with ``seed``, in pool order."""
    pool, _ = random_pool()
    rng = np.random.default_rng(np.random.SeedSequence([int(seed) & (2**64 - 1),
                                                        _RANDOM_STREAM]))
    picked = rng.choice(len(pool), size=min(MAX_CARDS, len(pool)), replace=False)
    return tuple(pool[i] for i in sorted(int(i) for i in picked))


def _random_seed(text: str) -> int | None:
    """N of ``random:N`` (None for a bare ``random``); InputError for anything else."""
    _, sep, rest = text.partition(":")
    if not sep:
        return None
    rest = rest.strip()
    if not rest.isdigit() or int(rest) > 2**64 - 1:
        raise InputError(f"kingdom {text.strip()!r}: random:N needs a whole number N in "
                         "0 .. 2**64-1")
    return int(rest)


def is_random(kingdom: str | Sequence[str] | None) -> bool:
    """True for a bare ``random`` (drawn with the run's seed, not fixed yet)."""
    if isinstance(kingdom, str):
        return kingdom.strip().lower() == RANDOM
    return (kingdom is not None and len(kingdom) == 1
            and str(kingdom[0]).strip().lower() == RANDOM)


class KingdomCards(tuple):
    """A checked kingdom (card keys, or ``("random",)``): checking it again keeps it as it
    is, so a preset's pool of more than ten cards stays valid when options are checked
    again (a changed copy, a worker)."""

    __slots__ = ()


def check_kingdom(kingdom: object) -> KingdomCards:
    """A kingdom as an option keeps it: card keys, or ``("random",)`` for a draw that the
    run's seed makes when the run starts (:func:`parse_kingdom` with that seed)."""
    if isinstance(kingdom, KingdomCards):
        return kingdom
    if not isinstance(kingdom, str | list | tuple) or not all(
            isinstance(k, str) for k in ([kingdom] if isinstance(kingdom, str) else kingdom)):
        raise InputError(f"expected card names, a preset or random, got {kingdom!r}")
    if is_random(kingdom):
        return KingdomCards((RANDOM,))
    return KingdomCards(parse_kingdom(kingdom))


def parse_kingdom(kingdom: str | Sequence[str] | None,
                  seed: int | None = None) -> tuple[str, ...]:
    """Card keys of a kingdom given as text, names or a preset (None: seed 001's kingdom);
    a bare ``random`` draws with ``seed``, the run's root seed. InputError names what is
    wrong: an unknown card or preset, a card twice, a basic card, more than ten cards, a
    card the engine does not play yet."""
    if kingdom is None:
        return DEFAULT_KINGDOM
    if isinstance(kingdom, KingdomCards) and not is_random(kingdom):
        return kingdom  # checked already (and stays so when checked again)
    if not isinstance(kingdom, str) and len(kingdom) == 1:
        kingdom = str(kingdom[0])
    if isinstance(kingdom, str):
        text = kingdom.strip()
        word = text.lower()
        if word == RANDOM or word.startswith(RANDOM + ":"):
            fixed = _random_seed(text)
            if fixed is None and seed is None:
                raise InputError("kingdom random is drawn with the run's seed; give "
                                 "random:N for a kingdom of its own seed")
            return draw_random(seed if fixed is None else fixed)
        if word in EMPTY or not word:
            return ()
        name = preset_name(text)
        if name is not None:
            return _checked(preset_cards(name), preset=name)
        items = text.split(",")
        _refuse_empty(text, items)
        if len(items) == 1 and cards.card_key(items[0]) not in INDEX:
            raise InputError(f"unknown kingdom preset or card {text!r}; presets: "
                             f"{', '.join([*PRESETS, RANDOM])} (--kingdom list shows them), "
                             "or comma-separated kingdom cards")
        return _checked(items)
    names = [str(k) for k in kingdom]
    _refuse_empty(",".join(names), names)
    return _checked(names)


def _refuse_empty(text: str, items: Sequence[str]) -> None:
    """Refuse a kingdom list with an empty entry (``witch,,militia``, a trailing comma):
    dropping it would play a kingdom other than the one typed, one card short."""
    empty = [i for i, item in enumerate(items, 1) if not item.strip()]
    if empty:
        kept = ",".join(item.strip() for item in items if item.strip())
        raise InputError(f"kingdom {text!r} has an empty entry (entry {empty[0]} of "
                         f"{len(items)}): separate card names by single commas, e.g. "
                         f"{kept or 'witch,militia'}")


def _checked(items: Sequence[str], preset: str | None = None) -> tuple[str, ...]:
    """Card keys of the listed names, each one checked (see :func:`parse_kingdom`); a list
    holds at most ten cards (a preset may name a larger pool)."""
    if preset is None and len(items) > MAX_CARDS:
        raise InputError(f"a kingdom holds at most {MAX_CARDS} cards, got {len(items)}")
    out: list[str] = []
    for item in items:
        key = cards.card_key(item)
        if key not in INDEX:
            raise InputError(f"unknown kingdom card {item.strip()!r}; kingdom cards: "
                             f"{', '.join(k for k in cards.KEYS if CARDS[INDEX[k]].kingdom)}")
        if not CARDS[INDEX[key]].kingdom:
            raise InputError(f"{item.strip()!r} is a basic card, always in the supply; "
                             "a kingdom lists only kingdom cards")
        if key not in cards.KINGDOM_KEYS:
            where = f" (preset {preset})" if preset else ""
            raise InputError(f"kingdom card {item.strip()!r}{where} is not implemented yet; "
                             f"implemented: {', '.join(cards.KINGDOM_KEYS)}")
        if key in out:
            raise InputError(f"kingdom card {item.strip()!r} is listed twice")
        out.append(key)
    return tuple(out)
