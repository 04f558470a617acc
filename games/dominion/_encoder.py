"""The learned player's feature encoder, a numba kernel: the value of a state after a gain
under the layouts of :mod:`games.dominion._features`, and the active feature indices.

Apart from the layouts because its explicit signature compiles when the module is imported
(see :mod:`games.dominion._layout`); the kernels of :mod:`games.dominion._kernel` call it.
"""

from __future__ import annotations

from numba import njit, types

from games.dominion._cards import (
    COIN,
    CURSE,
    IS_ACTION,
    IS_TREASURE,
    NC,
    PLUS_ACTIONS,
    PROVINCE,
    VP,
)
from games.dominion._engine import (
    DISCARD,
    HAND,
    LP_LAYOUT,
    LP_SLOTS,
    OWNED,
    PI,
    PLAY,
    TURNS,
    Bool,
    Flt,
    Int,
    Z,
    gains_to_end,
    victory_points,
)
from games.dominion._features import (
    FC,
    GENERAL_BINS,
    KC,
    LAYOUT_GENERAL,
    NATTACK,
    NAVG,
    NCOUNT,
    NCURSES,
    NDENS,
    NDRAW,
    NEXTRA,
    NGAINS,
    NGPHASE,
    NGREEN,
    NGROUPS,
    NMONEY,
    NPROV,
    NPROVS,
    NSIZE,
    NSTAGE,
    NTERM,
    NTRAITS,
    NVILL,
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
)
from games.dominion._matcher import T_ATTACK, owned_of
from games.dominion._traits import (
    ATTACK as T_ATT,
)
from games.dominion._traits import (
    BUYS as T_BUYS,
)
from games.dominion._traits import (
    COINS as T_COINS,
)
from games.dominion._traits import (
    CURSER as T_CURSER,
)
from games.dominion._traits import (
    DEAR as T_DEAR,
)
from games.dominion._traits import (
    DRAW as T_DRAW,
)
from games.dominion._traits import (
    GAINER as T_GAINER,
)
from games.dominion._traits import (
    TRASHER as T_TRASHER,
)
from games.dominion._traits import (
    VARIABLE_VP as T_VVP,
)

W1 = types.float64[::1]
O1I = types.int64[::1]


@njit(Int(Int, Int), cache=True)
def _cap(x, n):
    """x clipped to the bins 0 .. n-1."""
    return 0 if x < 0 else (x if x < n else n - 1)


@njit(Flt(Int, Int, Z, W1, O1I, Bool, Int), cache=True)
def _traits(p, stage, zones, w, out, write, at):
    """The general layout's trait groups: what p's cards do, summed over the cards owned
    (games.dominion._traits), each group by stage; their indices go to ``out[at:]``."""
    tally = [0] * NTRAITS
    for d in range(NC):
        n = zones[p, OWNED, d]
        if n == 0:
            continue
        if IS_ACTION[d]:
            tally[0] += n
        tally[1] += n * T_DRAW[d]
        tally[2] += n * T_COINS[d]
        tally[3] += n * T_BUYS[d]
        if T_ATT[d]:
            tally[4] += n
        if T_CURSER[d]:
            tally[5] += n
        if T_TRASHER[d]:
            tally[6] += n
        if T_GAINER[d]:
            tally[7] += n
        if d == CURSE:
            tally[8] += n
        if T_VVP[d]:
            tally[9] += n
        if T_DEAR[d]:
            tally[10] += n
    value = 0.0
    offset = OFF_TRAITS
    for j in range(NTRAITS):
        i = offset + _cap(tally[j], GENERAL_BINS[j]) * NSTAGE + stage
        value += w[i]
        if write:
            out[at + j] = i
        offset += GENERAL_BINS[j] * NSTAGE
    return value


@njit(Flt(Int, Int, Int, Z, PI, PI, W1, W1, O1I, Bool), cache=True)
def encode(p, c, guide, zones, pinfo, piles, w, lp, out, write):
    """Linear value ``sum(w[active])`` of the state after p gains c; indices into ``out``.
    ``guide`` is a guide buy list's choice (-1 nothing, -2 no guide): one feature says,
    per choice of the list and phase of the game, whether c is that choice. ``lp``: the
    bot's kernel parameters, which name its layout and, in the kingdom layout, the card of
    each slot."""
    kingdom = lp[LP_LAYOUT] > 0.0  # the kingdom's or the general layout
    general = int(lp[LP_LAYOUT]) == LAYOUT_GENERAL
    fc = 0 if general else (KC if kingdom else FC)
    base = fc * NCOUNT * NSTAGE
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
    gslot = 0  # the guide's choice: 0 nothing (or no guide), else its slot + 1
    for s in range(fc):
        d = int(lp[LP_SLOTS + s]) if kingdom else s
        n = zones[p, OWNED, d] if d >= 0 else 0
        k = n if n < NCOUNT else NCOUNT - 1
        if d >= 0 and VP[d] > 0 and not IS_ACTION[d] and not IS_TREASURE[d]:
            k = 0  # pure victory cards count through the VP lead and the green cards
        if d >= 0 and d == guide:
            gslot = s + 1
        i = OFF_CARD + (s * NCOUNT + k) * NSTAGE + stage
        value += w[i]
        if write:
            out[s] = i
    if kingdom:
        mine = victory_points(p, zones)  # Gardens count
    best = -(1 << 30)
    opp = p
    for q in range(zones.shape[0]):
        if q != p:
            v = 0
            if kingdom:
                v = victory_points(q, zones)
            else:
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
    idx = (R_AVG + avg * NSTAGE + stage,
           R_DENS + dens * NSTAGE + stage,
           R_LEADP + (lead + 15) * NPROV + prov,
           R_LEADG + (lead + 15) * NGAINS + g,
           R_GSTAGE + (g * NSTAGE + stage) * 3 + sign,
           R_SIZE + size * NSTAGE + stage,
           R_MONEY + _cap(money // 2, NMONEY) * NPROV + prov,
           R_TERM + _cap(term, NTERM) * NSIZE + size,
           R_VILL + _cap(vill, NVILL) * NTERM + _cap(term, NTERM),
           R_GREEN + _cap(green, NGREEN) * NSTAGE + stage,
           R_DRAW + ldens * NDRAW + _cap(left // 3, NDRAW),
           R_OPP + odens * NSTAGE + stage,
           R_PROVS + _cap(zones[p, OWNED, PROVINCE], NPROVS) * NPROVS
           + _cap(zones[opp, OWNED, PROVINCE], NPROVS),
           R_GUIDE + (gslot * NGPHASE + (0 if g >= 7 else (1 if g >= 3 else 2))) * 2
           + (1 if c == guide else 0))
    for j in range(NGROUPS):
        value += w[base + idx[j]]
        if write:
            out[fc + j] = base + idx[j]
    if kingdom:
        extra = base + R_GUIDE + (fc + 1) * NGPHASE * 2
        attacks = 0
        for q in range(zones.shape[0]):
            if q != p:
                attacks += owned_of(q, zones, T_ATTACK)
        curses = piles[0, CURSE] if piles[0, CURSE] > 0 else 0
        j0 = extra + _cap(curses, NCURSES) * NSTAGE + stage
        j1 = extra + NCURSES * NSTAGE + _cap(attacks, NATTACK) * NSTAGE + stage
        value += w[j0]
        value += w[j1]
        if write:
            out[fc + NGROUPS] = j0
            out[fc + NGROUPS + 1] = j1
    if general:
        value += _traits(p, stage, zones, w, out, write, fc + NGROUPS + NEXTRA)
    if c >= 0:
        zones[p, OWNED, c] -= 1
        zones[p, DISCARD, c] -= 1
        piles[0, c] += 1
    return value
