"""State features of the learned Dominion player (computed inside the numba engine).

A state is described by ``NACTIVE`` indicator features (each worth 1), so a linear value is
the sum of ``NACTIVE`` weights: fast enough to score every legal buy of every turn. The
features are seed 001's, plus the endgame features it names as its blind spot, plus terms
for the plans a buy list expresses:

* for each card: (card, copies owned capped at 11, stage), stage = turns taken / 3 (cap 7);
  pure victory cards (Estate, Duchy, Province) count only through the VP lead and the
  victory-card count, so their weight cannot stand in for the luck of the hands that
  bought them;
* (average coin value of the treasures, in quarters, stage);
* (coin value per card of the whole deck, in eighths, stage);
* (VP lead over the best opponent clipped to +-15, Provinces left);
* (VP lead, gains to the end of the game capped at 8): three-pile endings;
* (gains to the end, stage, whether the player leads) and (cards owned / 4, stage);
* (treasure money in the deck / 2, Provinces left): "Province once money >= 16";
* (terminal actions, cards owned / 4) and (villages, terminal actions): Smithy density;
* (victory cards, stage): greening;
* (money per card of the draw pile, its size / 3): the hands still to come this shuffle;
* (the opponent's money per card, stage) and (Provinces owned, the opponent's);
* (a guide buy list's choice, phase of the game, whether this buy is that choice): with a
  guide, the learned value decides when to leave the list (see ``encode``).

The kernel that computes them, ``encode`` (:mod:`games.dominion._encoder`), scores the state
after player p gains card c (c = -1: gains nothing) without changing it; with ``write`` set
it also stores the active indices in ``out``. This module holds the layouts alone (no
kernel), so naming a learned bot or reading a model compiles nothing.

Two layouts (:class:`Layout`), each with an id that every saved model records:

* ``sources``: the count features cover the sources' 18 cards (``FEATURE_SET``). A kingdom
  made only of the sources' cards keeps it, so the models trained on them load, play and
  retrain exactly as before;
* ``kingdom``: the count features cover the game's own cards, the 7 basic cards (Curses
  held among them) and the kingdom's cards in card order (17 slots, so any kingdom of the
  base set fits and every model of this layout has the same size), the VP lead counts
  Gardens, and two more groups see the attacks: (Curses left in the supply, stage) and
  (Attack cards the opponents own, stage). Any kingdom with a card beyond the sources'
  uses it (``FEATURE_SET_KINGDOM``); which card sits in which slot follows from the kingdom
  that a model records.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from games.dominion._cards import CURSE, INDEX, SOURCE_CARDS
from games.dominion._layout import LP_SLOTS, NLP

# The sources' layout: count features for the sources' cards (its layout must not change
# when the engine learns more cards). The kingdom layout: the basic cards and ten kingdom
# cards.
FC = SOURCE_CARDS
NBASIC = CURSE + 1  # Copper .. Curse
KC = NBASIC + 10
NSTAGE = 8
NCOUNT = 12
NAVG = 16
NDENS = 24
NLEAD = 31          # lead -15..15
NPROV = 9           # Provinces left 0..8
NGAINS = 9          # gains to end 0..8
NSIZE = 12          # cards owned / 4, capped at 11
NMONEY = 20         # money in the deck / 2, capped at 19
NTERM = 6           # terminal actions (no +Actions), capped at 5
NVILL = 6           # villages (+2 Actions), capped at 5
NGREEN = 16         # victory cards that are not treasures, capped at 15
NDRAW = 6           # cards left in the draw pile / 3, capped at 5
NPROVS = 9          # Provinces owned, capped at 8
NCURSES = 11        # Curses left in the supply, capped at 10 (kingdom layout)
NATTACK = 6         # Attack cards the opponents own, capped at 5 (kingdom layout)
NGPHASE = 3         # guide features: gains to the end 7+, 3-6, 0-2

# Offsets of the groups after the card counts (add the card block's size).
R_AVG = 0
R_DENS = R_AVG + NAVG * NSTAGE
R_LEADP = R_DENS + NDENS * NSTAGE
R_LEADG = R_LEADP + NLEAD * NPROV
R_GSTAGE = R_LEADG + NLEAD * NGAINS
R_SIZE = R_GSTAGE + NGAINS * NSTAGE * 3
R_MONEY = R_SIZE + NSIZE * NSTAGE
R_TERM = R_MONEY + NMONEY * NPROV
R_VILL = R_TERM + NTERM * NSIZE
R_GREEN = R_VILL + NVILL * NTERM
R_DRAW = R_GREEN + NGREEN * NSTAGE
R_OPP = R_DRAW + NDENS * NDRAW
R_PROVS = R_OPP + NDENS * NSTAGE
R_GUIDE = R_PROVS + NPROVS * NPROVS

# The sources' layout, by name (older code and the reports read these).
OFF_CARD = 0
OFF_AVG = OFF_CARD + FC * NCOUNT * NSTAGE
OFF_DENS = OFF_AVG + R_DENS
OFF_LEADP = OFF_AVG + R_LEADP
OFF_LEADG = OFF_AVG + R_LEADG
OFF_GSTAGE = OFF_AVG + R_GSTAGE
OFF_SIZE = OFF_AVG + R_SIZE
OFF_MONEY = OFF_AVG + R_MONEY
OFF_TERM = OFF_AVG + R_TERM
OFF_VILL = OFF_AVG + R_VILL
OFF_GREEN = OFF_AVG + R_GREEN
OFF_DRAW = OFF_AVG + R_DRAW
OFF_OPP = OFF_AVG + R_OPP
OFF_PROVS = OFF_AVG + R_PROVS
OFF_GUIDE = OFF_AVG + R_GUIDE
NF = OFF_GUIDE + (FC + 1) * NGPHASE * 2
NGROUPS = 14        # features beyond the card counts
NEXTRA = 2          # the kingdom layout's attack groups
NACTIVE = FC + NGROUPS
FEATURE_SET = f"dominion-indicators-v2:{FC}x{NCOUNT}x{NSTAGE}:{NF}"
# The kingdom layout's sizes.
NF_KINGDOM = (KC * NCOUNT * NSTAGE + R_GUIDE + (KC + 1) * NGPHASE * 2
              + (NCURSES + NATTACK) * NSTAGE)
NACTIVE_KINGDOM = KC + NGROUPS + NEXTRA
FEATURE_SET_KINGDOM = f"dominion-kingdom-v3:{KC}x{NCOUNT}x{NSTAGE}:{NF_KINGDOM}"
assert NLP == LP_SLOTS + KC, "the kernel parameters hold one card per kingdom slot"
#: width of the kernel's sample rows: the wider layout's (a run trims to its own)
NACTIVE_MAX = max(NACTIVE, NACTIVE_KINGDOM)
#: a learned bot's layout in its kernel parameters (``lp[LP_LAYOUT]``, ``lp[LP_SLOTS + s]``:
#: the card in slot s of the kingdom layout, -1 none); see games.dominion._engine's LP_*
LAYOUT_SOURCES, LAYOUT_KINGDOM, LAYOUT_GENERAL = 0, 1, 2
# The general layout: no card slots; the groups after the card counts, the attack groups,
# then what the owned cards do (games.dominion._traits), each by stage. Bins per group:
# actions, +Cards, +$, +Buys, Attacks, Curse-givers, trashers, gainers, Curses owned,
# Gardens-like cards, kingdom cards costing $5+.
GENERAL_BINS = (12, 16, 12, 6, 6, 4, 4, 4, 11, 8, 8)
NTRAITS = len(GENERAL_BINS)
#: offset of the trait groups in the general layout
OFF_TRAITS = R_GUIDE + NGPHASE * 2 + (NCURSES + NATTACK) * NSTAGE
NF_GENERAL = OFF_TRAITS + sum(GENERAL_BINS) * NSTAGE
NACTIVE_GENERAL = NGROUPS + NEXTRA + NTRAITS
FEATURE_SET_GENERAL = f"dominion-general-v1:{NTRAITS}x{NSTAGE}:{NF_GENERAL}"


@dataclass(frozen=True)
class Layout:
    """One feature layout: its name, card slots, whether it has the attack groups, whether
    it describes cards by what they do (``general``: no card slots, any kingdom)."""

    name: str
    cards: int
    extra: bool
    general: bool = False

    @property
    def code(self) -> int:
        if self.general:
            return LAYOUT_GENERAL
        return LAYOUT_KINGDOM if self.extra else LAYOUT_SOURCES

    @property
    def base(self) -> int:
        """Where the groups after the card counts start."""
        return self.cards * NCOUNT * NSTAGE

    @property
    def guide(self) -> int:
        """Offset of the guide features (``guide_size`` of them)."""
        return self.base + R_GUIDE

    @property
    def guide_size(self) -> int:
        return (self.cards + 1) * NGPHASE * 2

    @property
    def nf(self) -> int:
        if self.general:
            return NF_GENERAL
        return NF_KINGDOM if self.extra else NF

    @property
    def nactive(self) -> int:
        if self.general:
            return NACTIVE_GENERAL
        return self.cards + NGROUPS + (NEXTRA if self.extra else 0)

    @property
    def feature_set(self) -> str:
        if self.general:
            return FEATURE_SET_GENERAL
        return FEATURE_SET_KINGDOM if self.extra else FEATURE_SET


SOURCES = Layout("sources", FC, False)
KINGDOM = Layout("kingdom", KC, True)
GENERAL = Layout("general", 0, True, True)
LAYOUTS = (SOURCES, KINGDOM, GENERAL)


def layout_for(kingdom: tuple[str, ...] | list[str]) -> Layout:
    """The layout of a kingdom: the sources' for their own cards, else the kingdom's."""
    return SOURCES if all(INDEX[k] < SOURCE_CARDS for k in kingdom) else KINGDOM


def layout_of(feature_set: str | None = None, size: int | None = None) -> Layout | None:
    """The layout with this id or weight count (None: neither matches)."""
    for lay in LAYOUTS:
        if feature_set == lay.feature_set or size == lay.nf:
            return lay
    return None


def slot_cards(layout: Layout, kingdom: tuple[str, ...] | list[str]) -> np.ndarray:
    """The card of each slot (-1: an empty slot): the sources' cards in order, or the basic
    cards then the kingdom's cards in card order."""
    if not layout.extra:
        return np.arange(FC, dtype=np.int64)
    if layout.general:
        return np.zeros(0, dtype=np.int64)
    cards = list(range(NBASIC)) + sorted(INDEX[k] for k in kingdom)
    if len(cards) > KC:
        raise ValueError(f"a kingdom of {len(kingdom)} cards does not fit {KC - NBASIC} slots")
    return np.array(cards + [-1] * (KC - len(cards)), dtype=np.int64)


def _grid(offset: int, shape: tuple[int, ...], ordinal: tuple[bool, ...]) -> list[np.ndarray]:
    """(i, j) index pairs of neighbouring bins along the ordinal axes of one feature grid."""
    idx = offset + np.arange(int(np.prod(shape))).reshape(shape)
    pairs = []
    for axis, ok in enumerate(ordinal):
        if ok and shape[axis] > 1:
            a = np.take(idx, np.arange(shape[axis] - 1), axis=axis).ravel()
            b = np.take(idx, np.arange(1, shape[axis]), axis=axis).ravel()
            pairs.append(np.column_stack([a, b]))
    return pairs


def neighbours(layout: Layout = SOURCES) -> np.ndarray:
    """Pairs of features that are neighbouring bins of one ordinal quantity (count k and
    k + 1 of a card at the same stage, stage s and s + 1, ...): a smoothness prior ties
    their weights, so a bin seen rarely borrows from its neighbours instead of being
    pulled to zero."""
    t, f = True, False
    b = layout.base
    grids = [
        (OFF_CARD, (layout.cards, NCOUNT, NSTAGE), (f, t, t)),
        (b + R_AVG, (NAVG, NSTAGE), (t, t)),
        (b + R_DENS, (NDENS, NSTAGE), (t, t)),
        (b + R_LEADP, (NLEAD, NPROV), (t, t)),
        (b + R_LEADG, (NLEAD, NGAINS), (t, t)),
        (b + R_GSTAGE, (NGAINS, NSTAGE, 3), (t, t, t)),
        (b + R_SIZE, (NSIZE, NSTAGE), (t, t)),
        (b + R_MONEY, (NMONEY, NPROV), (t, t)),
        (b + R_TERM, (NTERM, NSIZE), (t, t)),
        (b + R_VILL, (NVILL, NTERM), (t, t)),
        (b + R_GREEN, (NGREEN, NSTAGE), (t, t)),
        (b + R_DRAW, (NDENS, NDRAW), (t, t)),
        (b + R_OPP, (NDENS, NSTAGE), (t, t)),
        (b + R_PROVS, (NPROVS, NPROVS), (t, t)),
    ]
    if layout.extra:
        extra = layout.guide + layout.guide_size
        grids += [(extra, (NCURSES, NSTAGE), (t, t)),
                  (extra + NCURSES * NSTAGE, (NATTACK, NSTAGE), (t, t))]
    if layout.general:
        at = OFF_TRAITS
        for bins in GENERAL_BINS:
            grids.append((at, (bins, NSTAGE), (t, t)))
            at += bins * NSTAGE
    return np.concatenate([p for g in grids for p in _grid(*g)]).astype(np.int64)
