"""Value functions of positions: capacities and the per-card penalty products.

Every player's value function is one family with a flat float64 parameter vector (layout
below, built by games.thegame._players). Penalty families value a position as

    v(s) = - sum over cards c not yet laid of  m(c) * prod over piles p of pi(s, p, c)

where m(c) is 1 (``hand_weight`` for cards in the player's hand). pi depends on the pile top
and the card only, except for the single-bridge term, which also depends on the hand and the
number of unknown cards. So penalties live in rows ``rows[p, top, :]``: a static table built
once per parameter set, and for bridge families rows patched at the start of every turn for
the cards within reach of a bridge. A position's value is then one fused loop over 98 cards
plus a few exact corrections (see :func:`product_value`).

Longer than 400 lines on purpose: every value family fills the same penalty rows inside
one numba kernel; the families and their row builders are kept side by side.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from games.thegame._rules import HIGH_CARD, LOW_CARD, gap, is_playable

# families
F_PERCEIVED = 0
F_REAL = 1
F_PLAYABILITY = 2
F_RECOVERABILITY = 3
F_DISTANCE = 4
F_BRIDGES = 5
F_FALLBACK = 6

# parameter vector layout
P_FAMILY = 0
P_ALPHA = 1
P_BETA = 2
P_GAMMA = 3
P_LAMBDA = 4
P_BOUND = 5
P_FORM = 6  # 0: 1 - rho**lambda (amplified slide), 1: (1 - rho)**lambda (fallback slide)
P_KAPPA = 7
P_W0 = 8  # pile weights 8..11 (multipliers of capacities, exponents of penalties)
P_HAND = 12
P_DRAWS = 13  # cards drawn before the next turn (2, or 3 in expert mode)
P_HAND_BRIDGES = 14  # 1: bridges held in the hand count; 0: only bridges still to be drawn
# after the turn's t_min cards, lay one more while the best single play's v_(d-1) beats
# the position's own v by more than this margin (inf: never; see games.thegame._engine)
P_LAY_MARGIN = 15
# penalty of a card whose bridges are all held in the hand: 1 + (alpha - 1) * this (0: the
# card counts as playable, as in the seed's formula with rho = 1)
P_HELD = 16
# selective deepening: the best P_DEEPEN_K candidates of the d-search (by v_d) are valued
# again by v_(d + P_DEEPEN_PLIES) and the best of them is played (0: off; games.thegame._engine)
P_DEEPEN_K = 17
P_DEEPEN_PLIES = 18
# solo: once the draw pile holds at most this many cards, play for the highest chance of
# laying every card, exactly (-1: never; games.thegame._endgame)
P_ENDGAME = 19
N_PARAMS = 20

ROW_TOPS = 101
ROW_CARDS = 100
# scratch of the bridge fill: card y (-8..109, one bridge step beyond a card) at y + 12
BEHIND_OFFSET = 12
BEHIND_SIZE = HIGH_CARD + 10 + BEHIND_OFFSET + 1


@njit(cache=True, inline="always")
def is_product_family(family: int) -> bool:
    return family >= F_PLAYABILITY


@njit(cache=True, inline="always")
def uses_bridges(prm: np.ndarray, pile: int, top: int, card: int) -> bool:
    """Whether the penalty of a card that cannot go on ``pile`` comes from the bridge term."""
    fam = int(prm[P_FAMILY])
    if fam == F_BRIDGES:
        return True
    if fam == F_FALLBACK:
        return gap(pile, top, card) <= prm[P_BOUND]
    return False


@njit(cache=True)
def static_penalty(prm: np.ndarray, pile: int, top: int, card: int) -> float:
    """pi(s, p, c) where it depends on the top and the card only (bridge cells: alpha)."""
    fam = int(prm[P_FAMILY])
    if is_playable(pile, top, card):
        pen = math.exp(-prm[P_KAPPA]) if fam == F_PLAYABILITY else 1.0
    elif fam == F_PLAYABILITY:
        pen = 1.0
    elif fam == F_RECOVERABILITY or fam == F_BRIDGES:
        pen = prm[P_ALPHA]
    elif fam == F_FALLBACK and gap(pile, top, card) <= prm[P_BOUND]:
        pen = prm[P_ALPHA]
    else:  # distance term, clamped to the slides' range [1, inf)
        g = gap(pile, top, card)
        pen = max(1.0, prm[P_ALPHA] - prm[P_BETA] * math.exp(-prm[P_GAMMA] * (g - 1)))
    w = prm[P_W0 + pile]
    return pen if w == 1.0 else pen ** w


@njit(cache=True)
def static_rows(prm: np.ndarray) -> np.ndarray:
    """The table rows[p, top, card] of :func:`static_penalty` for every top and card."""
    rows = np.zeros((4, ROW_TOPS, ROW_CARDS))
    for p in range(4):
        for t in range(1, ROW_TOPS):
            for c in range(LOW_CARD, HIGH_CARD + 1):
                rows[p, t, c] = static_penalty(prm, p, t, c)
    return rows


@njit(cache=True, inline="always")
def chain_end(pile: int, top: int, card: int) -> int:
    """The bridge card farthest from ``card`` in the chain that recovers it onto ``pile``.

    Recovering c onto an ascending pile with top t > c needs c+10, c+20, ..., up to the first
    card of that chain that is playable on t (higher than t, or exactly t - 10). Returns 0
    when the chain would need a card outside 2..99.
    """
    g = gap(pile, top, card)
    if pile < 2:
        end = top - 10 if g % 10 == 0 else card + 10 * ((g + 9) // 10)
        return end if end <= HIGH_CARD else 0
    end = top + 10 if g % 10 == 0 else card - 10 * ((g + 9) // 10)
    return end if end >= LOW_CARD else 0


@njit(cache=True, inline="always")
def in_chain(pile: int, top: int, card: int, other: int) -> bool:
    """Whether ``other`` is one of the bridge cards of ``card`` on ``pile``."""
    end = chain_end(pile, top, card)
    if end == 0:
        return False
    if pile < 2:
        return other > card and (other - card) % 10 == 0 and other <= end
    return other < card and (card - other) % 10 == 0 and other >= end


@njit(cache=True)
def missing_bridges(pile: int, top: int, card: int, in_hand: np.ndarray,
                    unlaid: np.ndarray, draws: int) -> int:
    """Bridge cards of ``card`` on ``pile`` that are not in the hand (draws + 1: hopeless).

    The chain's cards must all be unlaid; those in the hand are there, the others must all
    come with the next ``draws`` cards. One missing card is the seed's s_b = 1 case
    (rho = 2/|D|), two missing its d_b case (rho = 2/(|D|(|D|-1))).
    """
    end = chain_end(pile, top, card)
    if end == 0:
        return draws + 1
    step = 10 if pile < 2 else -10
    missing = 0
    y = card + step
    while True:
        if not unlaid[y]:
            return draws + 1
        if not in_hand[y]:
            missing += 1
            if missing > draws:
                return draws + 1
        if y == end:
            return missing
        y += step


@njit(cache=True)
def _chain_uses_hand(pile: int, top: int, card: int, in_hand: np.ndarray) -> bool:
    """Whether a bridge card of ``card`` is in the hand (the seed-literal reading drops it)."""
    end = chain_end(pile, top, card)
    step = 10 if pile < 2 else -10
    y = card + step
    while end != 0:
        if in_hand[y]:
            return True
        if y == end:
            break
        y += step
    return False


@njit(cache=True)
def draw_probability(missing: int, unknown: int, draws: int) -> float:
    """Chance that ``missing`` given cards all come with ``draws`` draws from ``unknown``."""
    k = min(draws, unknown)
    if missing > k:
        return 0.0
    prob = 1.0
    for i in range(missing):
        prob *= (k - i) / (unknown - i)
    return prob


@njit(cache=True)
def recover_probability(pile: int, top: int, card: int, in_hand: np.ndarray,
                        unlaid: np.ndarray, unknown: int, draws: int) -> float:
    """rho(s, p, c): chance that the bridge chain of ``card`` is complete after the next draw."""
    return draw_probability(missing_bridges(pile, top, card, in_hand, unlaid, draws), unknown,
                            draws)


@njit(cache=True)
def bridge_penalty(prm: np.ndarray, rho: float) -> float:
    """1 + (alpha - 1) * A(rho), A = 1 - rho**lambda or (1 - rho)**lambda (``form``)."""
    lam = prm[P_LAMBDA]
    if rho == 0.0 or rho == 1.0:  # both forms give A = 1 - rho there (lam > 0), no pow
        a = 1.0 - rho
    elif prm[P_FORM] == 0.0:
        a = 1.0 - rho ** lam
    else:
        a = (1.0 - rho) ** lam
    return 1.0 + (prm[P_ALPHA] - 1.0) * a


# The per-turn fills allocate nothing: compiled without reference counting, like the
# search kernels (see games.thegame._search).
@njit(cache=True, _nrt=False)
def bridge_penalties(out: np.ndarray, prm: np.ndarray, unknown: int) -> None:
    """out[p, k]: weighted penalty of a card on pile p whose chain misses k cards this turn
    (k = 0: every bridge is in the hand)."""
    draws = int(prm[P_DRAWS])
    for k in range(draws + 2):
        pen = bridge_penalty(prm, draw_probability(k, unknown, draws) if k <= draws else 0.0)
        if k == 0:  # every bridge held: laying them still costs cards (``P_HELD``)
            pen += (prm[P_ALPHA] - 1.0) * prm[P_HELD]
        for p in range(4):
            w = prm[P_W0 + p]
            out[p, k] = pen if w == 1.0 else pen ** w


@njit(cache=True, _nrt=False)
def fill_bridge_rows(rows: np.ndarray, prm: np.ndarray, tops: np.ndarray, hand: np.ndarray,
                     hn: int, in_hand: np.ndarray, unlaid: np.ndarray,
                     bpen: np.ndarray, behind: np.ndarray) -> None:
    """Patch this turn's bridge cells of every row a turn can reach.

    The rows are those of each pile at its top ``tops[p]`` and at every hand card. Every
    other cell holds its static value for good, so only the unlaid cards behind the top
    within the bound are rewritten (laid cards are masked out of every sum). One call per
    turn. ``behind`` (4, >= BEHIND_SIZE) is scratch space.
    """
    draws = int(prm[P_DRAWS])
    bound = prm[P_BOUND] if int(prm[P_FAMILY]) == F_FALLBACK else 1000.0
    hopeless = draws + 1
    hand_bridges = prm[P_HAND_BRIDGES] != 0.0
    if bound < 11.0:
        _fill_near_rows(rows, tops, hand, hn, in_hand, unlaid, bpen, min(9, int(bound)),
                        hopeless, hand_bridges, behind)
        return
    for pile in range(4):
        step = -1 if pile < 2 else 1
        for k in range(hn + 1):
            top = tops[pile] if k == hn else hand[k]
            c = top + step
            g = 1
            while LOW_CARD <= c <= HIGH_CARD and g <= bound:
                if unlaid[c] and g != 10:
                    if g < 10:  # one bridge: the card 10 beyond c, playable on the top
                        y = c - 10 * step
                        if y < LOW_CARD or y > HIGH_CARD or not unlaid[y]:
                            n = hopeless
                        elif in_hand[y]:
                            n = 0 if hand_bridges else hopeless
                        else:
                            n = 1
                    else:
                        n = missing_bridges(pile, top, c, in_hand, unlaid, draws)
                        if not hand_bridges and n < hopeless \
                                and _chain_uses_hand(pile, top, c, in_hand):
                            n = hopeless
                    rows[pile, top, c] = bpen[pile, n]
                c += step
                g += 1


@njit(cache=True, _nrt=False)
def _fill_near_rows(rows: np.ndarray, tops: np.ndarray, hand: np.ndarray, hn: int,
                    in_hand: np.ndarray, unlaid: np.ndarray, bpen: np.ndarray, gmax: int,
                    hopeless: int, hand_bridges: bool, behind: np.ndarray) -> None:
    """:func:`fill_bridge_rows` when the bound stays below 11: one-bridge cells only.

    Every cell behind a top within gaps 1..gmax has a single bridge, the card 10 beyond it.
    ``behind[p, y + BEHIND_OFFSET]`` is first set to the penalty on pile p of a card whose
    bridge is card y (broken outside 2..99), so each row's run of cells is a plain copy.
    Slots 0, 1, 2 of ``behind[p]`` (no card reads them) hold the pile's penalties of a
    broken chain, a bridge in the hand and a bridge to be drawn, picked by the card's state
    without a branch. Cells of laid cards are written too: they are masked out of every sum.
    """
    for pile in range(4):
        gone = bpen[pile, hopeless]
        behind[pile, 0] = gone
        behind[pile, 1] = bpen[pile, 0 if hand_bridges else hopeless]
        behind[pile, 2] = bpen[pile, 1]
        for y in range(LOW_CARD - 10, LOW_CARD):
            behind[pile, y + BEHIND_OFFSET] = gone
        for y in range(HIGH_CARD + 1, HIGH_CARD + 11):
            behind[pile, y + BEHIND_OFFSET] = gone
    for y in range(LOW_CARD, HIGH_CARD + 1):
        state = np.int64(unlaid[y]) * (2 - np.int64(in_hand[y]))  # 0 laid, 1 held, 2 drawn
        for pile in range(4):
            behind[pile, y + BEHIND_OFFSET] = behind[pile, state]
    for pile in range(4):
        src = behind[pile]  # views cost nothing without reference counting
        for k in range(hn + 1):
            top = tops[pile] if k == hn else hand[k]
            row = rows[pile, top]
            if pile < 2:  # cells top - gmax .. top - 1, bridges 10 above
                for c in range(max(top - gmax, LOW_CARD), top):
                    row[c] = src[c + 10 + BEHIND_OFFSET]
            else:  # cells top + 1 .. top + gmax, bridges 10 below
                for c in range(top + 1, min(top + gmax, HIGH_CARD) + 1):
                    row[c] = src[c - 10 + BEHIND_OFFSET]


@njit(cache=True)
def capacity_value(prm: np.ndarray, tops: np.ndarray, level: int, unlaid: np.ndarray,
                   played: np.ndarray, nplayed: int) -> float:
    """Weighted perceived capacity (room left) or real capacity (unlaid cards playable).

    The position's tops are ``tops[level]``.
    """
    fam = int(prm[P_FAMILY])
    v = 0.0
    for p in range(4):
        t = tops[level, p]
        if fam == F_PERCEIVED:
            cap = 100 - t if p < 2 else t - 1
        else:
            cap = 0
            for c in range(LOW_CARD, HIGH_CARD + 1):
                if unlaid[c] and is_playable(p, t, c):
                    cap += 1
            for i in range(nplayed):
                if is_playable(p, t, played[i]):
                    cap -= 1
        v += prm[P_W0 + p] * cap
    return v


@njit(cache=True, fastmath=True)
def _card_sum(m: np.ndarray, r0: np.ndarray, r1: np.ndarray, r2: np.ndarray,
              r3: np.ndarray) -> float:
    s = 0.0
    for c in range(LOW_CARD, HIGH_CARD + 1):
        s += m[c] * r0[c] * r1[c] * r2[c] * r3[c]
    return s


@njit(cache=True)
def product_value(rows: np.ndarray, prm: np.ndarray, tops: np.ndarray, m: np.ndarray,
                  played: np.ndarray, nplayed: int, affected: np.ndarray) -> float:
    """Penalty value of the position with ``tops`` after laying ``played`` this turn.

    ``m`` and the bridge cells of ``rows`` describe the turn's start. Cards laid this turn
    are subtracted; a bridge card laid this turn (it was in the hand when the row was filled)
    breaks its chains, so those cards get their rho = 0 penalty, alpha, exactly.
    """
    t0, t1, t2, t3 = tops[0], tops[1], tops[2], tops[3]
    r0, r1, r2, r3 = rows[0, t0], rows[1, t1], rows[2, t2], rows[3, t3]
    s = _card_sum(m, r0, r1, r2, r3)
    for i in range(nplayed):
        h = played[i]
        s -= m[h] * r0[h] * r1[h] * r2[h] * r3[h]
    return -(s + bridge_correction(rows, prm, tops.reshape(1, 4), 0, m, played, nplayed,
                                   affected))


@njit(cache=True, inline="always")
def bridge_correction(rows: np.ndarray, prm: np.ndarray, tops: np.ndarray, level: int,
                      m: np.ndarray, played: np.ndarray, nplayed: int,
                      affected: np.ndarray) -> float:
    """Change of the penalty sum from chains broken by bridge cards laid this turn.

    The position's tops are ``tops[level]``.
    """
    fam = int(prm[P_FAMILY])
    if fam != F_BRIDGES and fam != F_FALLBACK:
        return 0.0
    bound = prm[P_BOUND] if fam == F_FALLBACK else 1000.0
    naff = 0  # cards whose chain lost a bridge this turn (scratch array ``affected``)
    for i in range(nplayed):
        h = played[i]
        for p in range(4):
            tp = tops[level, p]
            if p < 2:
                # a chain ends at most 9 above an ascending top; its cards lie within bound
                if h > tp + 9 or h < tp + 10 - bound:
                    continue
                c = h - 10
                while c >= LOW_CARD and c >= tp:
                    c -= 10
                step = -10
            else:
                if h < tp - 9 or h > tp - 10 + bound:
                    continue
                c = h + 10
                while c <= HIGH_CARD and c <= tp:
                    c += 10
                step = 10
            while LOW_CARD <= c <= HIGH_CARD and gap(p, tp, c) <= bound:
                if m[c] > 0.0 and not is_playable(p, tp, c) and in_chain(p, tp, c, h) \
                        and not _in(played, nplayed, c) and not _in(affected, naff, c) \
                        and naff < affected.size:
                    affected[naff] = c
                    naff += 1
                c += step
    delta = 0.0
    for k in range(naff):
        c = affected[k]
        delta += m[c] * (_true_product(rows, prm, tops, level, c, played, nplayed)
                         - rows[0, tops[level, 0], c] * rows[1, tops[level, 1], c]
                         * rows[2, tops[level, 2], c] * rows[3, tops[level, 3], c])
    return delta


@njit(cache=True, inline="always")
def _in(arr: np.ndarray, n: int, x: int) -> bool:
    for i in range(n):
        if arr[i] == x:
            return True
    return False


@njit(cache=True, inline="always")
def _true_product(rows: np.ndarray, prm: np.ndarray, tops: np.ndarray, level: int, c: int,
                  played: np.ndarray, nplayed: int) -> float:
    prod = 1.0
    for p in range(4):
        tp = tops[level, p]
        pen = rows[p, tp, c]
        if not is_playable(p, tp, c) and uses_bridges(prm, p, tp, c):
            for j in range(nplayed):
                if in_chain(p, tp, c, played[j]):
                    w = prm[P_W0 + p]
                    pen = prm[P_ALPHA] if w == 1.0 else prm[P_ALPHA] ** w
                    break
        prod *= pen
    return prod
