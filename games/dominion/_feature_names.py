"""The learned Dominion player's features in words, for reports on what a model learned
(the layouts themselves are in :mod:`games.dominion._features`)."""

from __future__ import annotations

import numpy as np

from games.dominion._cards import CARDS
from games.dominion._features import (
    GENERAL_BINS,
    NATTACK,
    NCOUNT,
    NCURSES,
    NDRAW,
    NGAINS,
    NGPHASE,
    NPROV,
    NPROVS,
    NSIZE,
    NSTAGE,
    NTERM,
    OFF_CARD,
    OFF_TRAITS,
    R_AVG,
    R_DENS,
    R_DRAW,
    R_GREEN,
    R_GSTAGE,
    R_GUIDE,
    R_LEADG,
    R_LEADP,
    R_MONEY,
    R_OPP,
    R_PROVS,
    R_SIZE,
    R_TERM,
    R_VILL,
    SOURCES,
    Layout,
    slot_cards,
)


def _turns(s: int) -> str:
    return f"turns {3 * s + 1}+" if s == NSTAGE - 1 else f"turns {3 * s + 1}-{3 * s + 3}"


def describe(index: int, layout: Layout = SOURCES, cards: np.ndarray | None = None) -> str:
    """A feature index in words (for reports on what a model learned); ``cards``: the card
    of each slot (:func:`slot_cards`), the sources' cards when not given."""
    slots = slot_cards(SOURCES, ()) if cards is None else cards

    def name(s: int) -> str:
        return CARDS[int(slots[s])].name if slots[s] >= 0 else f"empty slot {s}"

    if index < layout.base:
        s, rest = divmod(index - OFF_CARD, NCOUNT * NSTAGE)
        k, st = divmod(rest, NSTAGE)
        more = "+" if k == NCOUNT - 1 else ""
        return f"{k}{more} {name(s)} at {_turns(st)}"
    r = index - layout.base
    if r < R_DENS:
        a, st = divmod(r - R_AVG, NSTAGE)
        return f"treasure average ${a / 4:.2f}-{(a + 1) / 4:.2f} at {_turns(st)}"
    if r < R_LEADP:
        a, st = divmod(r - R_DENS, NSTAGE)
        return f"money per card ${a / 8:.3f}+ at {_turns(st)}"
    if r < R_LEADG:
        lead, prov = divmod(r - R_LEADP, NPROV)
        return f"VP lead {lead - 15:+d} with {prov} Provinces left"
    if r < R_GSTAGE:
        lead, g = divmod(r - R_LEADG, NGAINS)
        return f"VP lead {lead - 15:+d} with {g} gains to the end"
    if r < R_SIZE:
        rest, sign = divmod(r - R_GSTAGE, 3)
        g, st = divmod(rest, NSTAGE)
        return (f"{g} gains to the end at {_turns(st)}, "
                f"{('behind', 'level', 'ahead')[sign]}")
    if r < R_MONEY:
        size, st = divmod(r - R_SIZE, NSTAGE)
        return f"{4 * size}-{4 * size + 3} cards at {_turns(st)}"
    if r < R_TERM:
        m, prov = divmod(r - R_MONEY, NPROV)
        return f"${2 * m}-{2 * m + 1} of treasure in the deck with {prov} Provinces left"
    if r < R_VILL:
        t, size = divmod(r - R_TERM, NSIZE)
        return f"{t} terminal actions in {4 * size}-{4 * size + 3} cards"
    if r < R_GREEN:
        v, t = divmod(r - R_VILL, NTERM)
        return f"{v} villages with {t} terminal actions"
    if r < R_DRAW:
        n, st = divmod(r - R_GREEN, NSTAGE)
        return f"{n} victory cards at {_turns(st)}"
    if r < R_OPP:
        a, left = divmod(r - R_DRAW, NDRAW)
        return f"draw pile ${a / 8:.3f}+ per card, {3 * left}-{3 * left + 2} cards left in it"
    if r < R_PROVS:
        a, st = divmod(r - R_OPP, NSTAGE)
        return f"opponent's money per card ${a / 8:.3f}+ at {_turns(st)}"
    if r < R_GUIDE:
        mine, theirs = divmod(r - R_PROVS, NPROVS)
        return f"Provinces owned {mine} to the opponent's {theirs}"
    r -= R_GUIDE
    if r < layout.guide_size:
        rest, follow = divmod(r, 2)
        card, phase = divmod(rest, NGPHASE)
        what = "nothing" if card == 0 else name(card - 1)
        when = ("7+", "3-6", "0-2")[phase]
        return (f"{'follows' if follow else 'leaves'} the guide's choice ({what}) with "
                f"{when} gains to the end")
    r -= layout.guide_size
    if layout.general and index >= OFF_TRAITS:
        return _trait(index - OFF_TRAITS)
    if r < NCURSES * NSTAGE:
        n, st = divmod(r, NSTAGE)
        return f"{n}{'+' if n == NCURSES - 1 else ''} Curses left in the supply at {_turns(st)}"
    n, st = divmod(r - NCURSES * NSTAGE, NSTAGE)
    return f"opponents own {n}{'+' if n == NATTACK - 1 else ''} Attack cards at {_turns(st)}"


#: the general layout's trait groups in words (games.dominion._features.GENERAL_BINS)
TRAIT_NAMES = ("actions", "+Cards", "+$ from actions", "+Buys", "Attack cards",
               "Curse-givers", "trashers", "gainers", "Curses owned", "Gardens-like cards",
               "kingdom cards costing $5+")


def _trait(r: int) -> str:
    """A trait feature of the general layout in words (``r``: its index in the trait block)."""
    for name, bins in zip(TRAIT_NAMES, GENERAL_BINS, strict=True):
        if r < bins * NSTAGE:
            n, st = divmod(r, NSTAGE)
            return f"{n}{'+' if n == bins - 1 else ''} {name} owned at {_turns(st)}"
        r -= bins * NSTAGE
    raise IndexError("not a feature of the general layout")
