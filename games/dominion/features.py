"""State features of the learned Dominion player, computed inside the numba engine.

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

``encode`` scores the state after player p gains card c (c = -1: gains nothing) without
changing it; with ``write`` set it also stores the active indices in ``out``. The layout
has an id (``FEATURE_SET``) that every saved model records.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from games.dominion.cards import (
    COIN,
    IS_ACTION,
    IS_TREASURE,
    NC,
    PLUS_ACTIONS,
    PROVINCE,
    SOURCE_CARDS,
    VP,
)
from games.dominion.engine import (
    DISCARD,
    HAND,
    OWNED,
    PI,
    PLAY,
    TURNS,
    Bool,
    Flt,
    Int,
    Z,
    gains_to_end,
)

# The cards with count features: the sources' cards (a model's layout must not change when
# the engine learns more cards).
FC = SOURCE_CARDS
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

OFF_CARD = 0
OFF_AVG = OFF_CARD + FC * NCOUNT * NSTAGE
OFF_DENS = OFF_AVG + NAVG * NSTAGE
OFF_LEADP = OFF_DENS + NDENS * NSTAGE
OFF_LEADG = OFF_LEADP + NLEAD * NPROV
OFF_GSTAGE = OFF_LEADG + NLEAD * NGAINS
OFF_SIZE = OFF_GSTAGE + NGAINS * NSTAGE * 3
OFF_MONEY = OFF_SIZE + NSIZE * NSTAGE
OFF_TERM = OFF_MONEY + NMONEY * NPROV
OFF_VILL = OFF_TERM + NTERM * NSIZE
OFF_GREEN = OFF_VILL + NVILL * NTERM
OFF_DRAW = OFF_GREEN + NGREEN * NSTAGE
OFF_OPP = OFF_DRAW + NDENS * NDRAW
OFF_PROVS = OFF_OPP + NDENS * NSTAGE
OFF_GUIDE = OFF_PROVS + NPROVS * NPROVS
NGPHASE = 3         # guide features: gains to the end 7+, 3-6, 0-2
NF = OFF_GUIDE + (FC + 1) * NGPHASE * 2
NGROUPS = 14        # features beyond the card counts
NACTIVE = FC + NGROUPS
FEATURE_SET = f"dominion-indicators-v2:{FC}x{NCOUNT}x{NSTAGE}:{NF}"

W1 = types.float64[::1]
O1I = types.int64[::1]


@njit(Int(Int, Int), cache=True)
def _cap(x, n):
    """x clipped to the bins 0 .. n-1."""
    return 0 if x < 0 else (x if x < n else n - 1)


@njit(Flt(Int, Int, Int, Z, PI, PI, W1, O1I, Bool), cache=True)
def encode(p, c, guide, zones, pinfo, piles, w, out, write):
    """Linear value ``sum(w[active])`` of the state after p gains c; indices into ``out``.
    ``guide`` is a guide buy list's choice (-1 nothing, -2 no guide): the last feature says,
    per choice of the list and phase of the game, whether c is that choice."""
    if c >= 0:
        zones[p, OWNED, c] += 1
        zones[p, DISCARD, c] += 1
        piles[0, c] -= 1
    stage = pinfo[p, TURNS] // 3
    if stage > NSTAGE - 1:
        stage = NSTAGE - 1
    g = _cap(gains_to_end(piles), NGAINS)
    value = 0.0
    total = 0
    money = 0
    treasures = 0
    mine = 0
    for d in range(NC):
        n = zones[p, OWNED, d]
        total += n
        money += n * COIN[d]
        if IS_TREASURE[d]:
            treasures += n
        mine += n * VP[d]
        if d >= FC:
            continue
        k = n if n < NCOUNT else NCOUNT - 1
        if VP[d] > 0 and not IS_ACTION[d] and not IS_TREASURE[d]:
            k = 0  # pure victory cards count through the VP lead and the green cards
        i = OFF_CARD + (d * NCOUNT + k) * NSTAGE + stage
        value += w[i]
        if write:
            out[d] = i
    best = -(1 << 30)
    opp = p
    for q in range(zones.shape[0]):
        if q != p:
            v = 0
            for d in range(NC):
                v += zones[q, OWNED, d] * VP[d]
            if v > best:
                best = v
                opp = q
    lead = mine - best if zones.shape[0] > 1 else 0
    lead = -15 if lead < -15 else (15 if lead > 15 else lead)
    avg = _cap(int(4.0 * money / treasures) if treasures > 0 else 0, NAVG)
    dens = _cap(int(8.0 * money / total) if total > 0 else 0, NDENS)
    prov = _cap(piles[0, PROVINCE], NPROV)
    size = _cap(total // 4, NSIZE)
    sign = 0 if lead < 0 else (1 if lead == 0 else 2)
    term = 0
    vill = 0
    green = 0
    left = 0
    left_money = 0
    o_total = 0
    o_money = 0
    for d in range(NC):
        n = zones[p, OWNED, d]
        if IS_ACTION[d]:
            if PLUS_ACTIONS[d] == 0:
                term += n
            elif PLUS_ACTIONS[d] >= 2:
                vill += n
        if VP[d] > 0 and not IS_TREASURE[d]:
            green += n
        k = n - zones[p, DISCARD, d] - zones[p, HAND, d] - zones[p, PLAY, d]
        left += k
        left_money += k * COIN[d]
        o_total += zones[opp, OWNED, d]
        o_money += zones[opp, OWNED, d] * COIN[d]
    ldens = _cap(int(8.0 * left_money / left) if left > 0 else 0, NDENS)
    odens = _cap(int(8.0 * o_money / o_total) if o_total > 0 else 0, NDENS)
    idx = (OFF_AVG + avg * NSTAGE + stage,
           OFF_DENS + dens * NSTAGE + stage,
           OFF_LEADP + (lead + 15) * NPROV + prov,
           OFF_LEADG + (lead + 15) * NGAINS + g,
           OFF_GSTAGE + (g * NSTAGE + stage) * 3 + sign,
           OFF_SIZE + size * NSTAGE + stage,
           OFF_MONEY + _cap(money // 2, NMONEY) * NPROV + prov,
           OFF_TERM + _cap(term, NTERM) * NSIZE + size,
           OFF_VILL + _cap(vill, NVILL) * NTERM + _cap(term, NTERM),
           OFF_GREEN + _cap(green, NGREEN) * NSTAGE + stage,
           OFF_DRAW + ldens * NDRAW + _cap(left // 3, NDRAW),
           OFF_OPP + odens * NSTAGE + stage,
           OFF_PROVS + _cap(zones[p, OWNED, PROVINCE], NPROVS) * NPROVS
           + _cap(zones[opp, OWNED, PROVINCE], NPROVS),
           OFF_GUIDE + ((guide + 1 if -1 <= guide < FC else 0) * NGPHASE
                        + (0 if g >= 7 else (1 if g >= 3 else 2))) * 2
           + (1 if c == guide else 0))
    for j in range(NGROUPS):
        value += w[idx[j]]
        if write:
            out[FC + j] = idx[j]
    if c >= 0:
        zones[p, OWNED, c] -= 1
        zones[p, DISCARD, c] -= 1
        piles[0, c] += 1
    return value


def _turns(s: int) -> str:
    return f"turns {3 * s + 1}+" if s == NSTAGE - 1 else f"turns {3 * s + 1}-{3 * s + 3}"


def describe(index: int) -> str:
    """A feature index in words (for reports on what a model learned)."""
    from games.dominion.cards import CARDS
    if index < OFF_AVG:
        d, rest = divmod(index - OFF_CARD, NCOUNT * NSTAGE)
        k, s = divmod(rest, NSTAGE)
        more = "+" if k == NCOUNT - 1 else ""
        return f"{k}{more} {CARDS[d].name} at {_turns(s)}"
    if index < OFF_DENS:
        a, s = divmod(index - OFF_AVG, NSTAGE)
        return f"treasure average ${a / 4:.2f}-{(a + 1) / 4:.2f} at {_turns(s)}"
    if index < OFF_LEADP:
        a, s = divmod(index - OFF_DENS, NSTAGE)
        return f"money per card ${a / 8:.3f}+ at {_turns(s)}"
    if index < OFF_LEADG:
        lead, prov = divmod(index - OFF_LEADP, NPROV)
        return f"VP lead {lead - 15:+d} with {prov} Provinces left"
    if index < OFF_GSTAGE:
        lead, g = divmod(index - OFF_LEADG, NGAINS)
        return f"VP lead {lead - 15:+d} with {g} gains to the end"
    if index < OFF_SIZE:
        rest, sign = divmod(index - OFF_GSTAGE, 3)
        g, s = divmod(rest, NSTAGE)
        return (f"{g} gains to the end at {_turns(s)}, "
                f"{('behind', 'level', 'ahead')[sign]}")
    if index < OFF_MONEY:
        size, s = divmod(index - OFF_SIZE, NSTAGE)
        return f"{4 * size}-{4 * size + 3} cards at {_turns(s)}"
    if index < OFF_TERM:
        m, prov = divmod(index - OFF_MONEY, NPROV)
        return f"${2 * m}-{2 * m + 1} of treasure in the deck with {prov} Provinces left"
    if index < OFF_VILL:
        t, size = divmod(index - OFF_TERM, NSIZE)
        return f"{t} terminal actions in {4 * size}-{4 * size + 3} cards"
    if index < OFF_GREEN:
        v, t = divmod(index - OFF_VILL, NTERM)
        return f"{v} villages with {t} terminal actions"
    if index < OFF_DRAW:
        n, s = divmod(index - OFF_GREEN, NSTAGE)
        return f"{n} victory cards at {_turns(s)}"
    if index < OFF_OPP:
        a, left = divmod(index - OFF_DRAW, NDRAW)
        return f"draw pile ${a / 8:.3f}+ per card, {3 * left}-{3 * left + 2} cards left in it"
    if index < OFF_PROVS:
        a, s = divmod(index - OFF_OPP, NSTAGE)
        return f"opponent's money per card ${a / 8:.3f}+ at {_turns(s)}"
    if index < OFF_GUIDE:
        mine, theirs = divmod(index - OFF_PROVS, NPROVS)
        return f"Provinces owned {mine} to the opponent's {theirs}"
    rest, follow = divmod(index - OFF_GUIDE, 2)
    card, phase = divmod(rest, NGPHASE)
    what = "nothing" if card == 0 else CARDS[card - 1].name
    when = ("7+", "3-6", "0-2")[phase]
    return (f"{'follows' if follow else 'leaves'} the guide's choice ({what}) with {when} "
            "gains to the end")


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


def neighbours() -> np.ndarray:
    """Pairs of features that are neighbouring bins of one ordinal quantity (count k and
    k + 1 of a card at the same stage, stage s and s + 1, ...): a smoothness prior ties
    their weights, so a bin seen rarely borrows from its neighbours instead of being
    pulled to zero."""
    t, f = True, False
    grids = [
        (OFF_CARD, (FC, NCOUNT, NSTAGE), (f, t, t)),
        (OFF_AVG, (NAVG, NSTAGE), (t, t)),
        (OFF_DENS, (NDENS, NSTAGE), (t, t)),
        (OFF_LEADP, (NLEAD, NPROV), (t, t)),
        (OFF_LEADG, (NLEAD, NGAINS), (t, t)),
        (OFF_GSTAGE, (NGAINS, NSTAGE, 3), (t, t, t)),
        (OFF_SIZE, (NSIZE, NSTAGE), (t, t)),
        (OFF_MONEY, (NMONEY, NPROV), (t, t)),
        (OFF_TERM, (NTERM, NSIZE), (t, t)),
        (OFF_VILL, (NVILL, NTERM), (t, t)),
        (OFF_GREEN, (NGREEN, NSTAGE), (t, t)),
        (OFF_DRAW, (NDENS, NDRAW), (t, t)),
        (OFF_OPP, (NDENS, NSTAGE), (t, t)),
        (OFF_PROVS, (NPROVS, NPROVS), (t, t)),
    ]
    return np.concatenate([p for g in grids for p in _grid(*g)]).astype(np.int64)
