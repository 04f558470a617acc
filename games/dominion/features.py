"""State features of the learned Dominion player, computed inside the numba engine.

A state is described by ``NACTIVE`` indicator features (each worth 1), so a linear value is
the sum of ``NACTIVE`` weights: fast enough to score every legal buy of every turn. The
features are seed 001's, plus the endgame features it names as its blind spot:

* for each card: (card, copies owned capped at 11, stage), stage = turns taken / 3 (cap 7);
* (average coin value of the treasures, in quarters, stage);
* (coin value per card of the whole deck, in eighths, stage);
* (VP lead over the best opponent clipped to +-15, Provinces left);
* (VP lead, gains to the end of the game capped at 8): three-pile endings;
* (gains to the end, stage, whether the player leads) and (cards owned / 4, stage).

``encode`` scores the state after player p gains card c (c = -1: gains nothing) without
changing it; with ``write`` set it also stores the active indices in ``out``. The layout
has an id (``FEATURE_SET``) that every saved model records.
"""

from __future__ import annotations

from numba import njit, types

from games.dominion.cards import COIN, IS_TREASURE, NC, PROVINCE, VP
from games.dominion.engine import OWNED, PI, TURNS, Bool, Flt, Int, Z, gains_to_end

NSTAGE = 8
NCOUNT = 12
NAVG = 16
NDENS = 24
NLEAD = 31          # lead -15..15
NPROV = 9           # Provinces left 0..8
NGAINS = 9          # gains to end 0..8
NSIZE = 12          # cards owned / 4, capped at 11

OFF_CARD = 0
OFF_AVG = OFF_CARD + NC * NCOUNT * NSTAGE
OFF_DENS = OFF_AVG + NAVG * NSTAGE
OFF_LEADP = OFF_DENS + NDENS * NSTAGE
OFF_LEADG = OFF_LEADP + NLEAD * NPROV
OFF_GSTAGE = OFF_LEADG + NLEAD * NGAINS
OFF_SIZE = OFF_GSTAGE + NGAINS * NSTAGE * 3
NF = OFF_SIZE + NSIZE * NSTAGE
NACTIVE = NC + 6
FEATURE_SET = f"dominion-indicators-v1:{NC}x{NCOUNT}x{NSTAGE}:{NF}"

W1 = types.float64[::1]
O1I = types.int64[::1]


@njit(Flt(Int, Int, Z, PI, PI, W1, O1I, Bool), cache=True)
def encode(p, c, zones, pinfo, piles, w, out, write):
    """Linear value ``sum(w[active])`` of the state after p gains c; indices into ``out``."""
    if c >= 0:
        zones[p, OWNED, c] += 1
        piles[0, c] -= 1
    stage = pinfo[p, TURNS] // 3
    if stage > NSTAGE - 1:
        stage = NSTAGE - 1
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
        k = n if n < NCOUNT else NCOUNT - 1
        i = OFF_CARD + (d * NCOUNT + k) * NSTAGE + stage
        value += w[i]
        if write:
            out[d] = i
    best = -(1 << 30)
    for q in range(zones.shape[0]):
        if q != p:
            v = 0
            for d in range(NC):
                v += zones[q, OWNED, d] * VP[d]
            if v > best:
                best = v
    lead = mine - best if zones.shape[0] > 1 else 0
    lead = -15 if lead < -15 else (15 if lead > 15 else lead)
    avg = int(4.0 * money / treasures) if treasures > 0 else 0
    avg = avg if avg < NAVG else NAVG - 1
    dens = int(8.0 * money / total) if total > 0 else 0
    dens = dens if dens < NDENS else NDENS - 1
    prov = piles[0, PROVINCE]
    prov = prov if prov < NPROV else NPROV - 1
    g = gains_to_end(piles)
    g = g if g < NGAINS else NGAINS - 1
    size = total // 4
    size = size if size < NSIZE else NSIZE - 1
    sign = 0 if lead < 0 else (1 if lead == 0 else 2)
    i0 = OFF_AVG + avg * NSTAGE + stage
    i1 = OFF_DENS + dens * NSTAGE + stage
    i2 = OFF_LEADP + (lead + 15) * NPROV + prov
    i3 = OFF_LEADG + (lead + 15) * NGAINS + g
    i4 = OFF_GSTAGE + (g * NSTAGE + stage) * 3 + sign
    i5 = OFF_SIZE + size * NSTAGE + stage
    value += w[i0] + w[i1] + w[i2] + w[i3] + w[i4] + w[i5]
    if write:
        out[NC] = i0
        out[NC + 1] = i1
        out[NC + 2] = i2
        out[NC + 3] = i3
        out[NC + 4] = i4
        out[NC + 5] = i5
    if c >= 0:
        zones[p, OWNED, c] -= 1
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
    size, s = divmod(index - OFF_SIZE, NSTAGE)
    return f"{4 * size}-{4 * size + 3} cards at {_turns(s)}"
