"""The turn search: exactly t_min cards, valued by the best position up to d cards deeper.

A turn enumerates every sequence of t_min plays (card from the hand onto a legal pile).
Positions are identified by the four tops and the set of hand cards laid, so sequences that
reach the same position in another order are one node: a transposition table (open
addressing, cleared by a generation stamp each turn) stores for each node the best value of
its subtree, and a node met again is never expanded or evaluated twice. The value of a
t_min-position is v_d = max of v over the positions reachable with 0..d further plays.

The common turn, two plays and d = 0, runs a flat kernel of its own (:func:`_search_pairs`):
the same candidates in the same order with the same arithmetic, so the same choices, at
about twice the speed of the general search.

Longer than 400 lines on purpose: the turn kernels share inlined helpers and one scratch
layout that numba compiles together (see games.kernel_cache); split, they would drift.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.thegame._rules import HIGH_CARD, LOW_CARD, is_playable
from games.thegame._values import (
    F_BRIDGES,
    F_FALLBACK,
    P_BOUND,
    P_DRAWS,
    P_FAMILY,
    P_W0,
    bridge_correction,
    bridge_penalties,
    capacity_value,
    fill_bridge_rows,
    is_product_family,
)

MAX_LEVELS = 8  # t_min + d + 1 levels at most (t_min <= 3, d <= 4)
_HASH_MUL = np.uint64(0x9E3779B97F4A7C15)

# The turn's kernels allocate nothing, so they are compiled without numba's reference
# counting (``_nrt=False``): every array argument of a call, inlined helpers included, and
# every view would otherwise cost two atomic operations, about a tenth of a d = 0 turn.
# The arrays are the caller's and outlive the call. Rows of the int64 scratch array ``iw``
# (50, 128) are named below; per-level rows come in blocks of MAX_LEVELS.
I_IDX = 0  # compact index -> card, over the cards not yet laid
I_HPOS = 1  # compact index of hand slot k
I_MASK = 2  # per level: bits of the hand slots laid
I_IT = 3  # per level: next move to try (-1: the move list is not built yet)
I_LOO_OK = 4  # per level: loo of the node computed
I_SLOT_OF = 5  # per level: transposition-table slot of the node
I_SEQ_SLOT = 6  # per level: hand slot played
I_SEQ_PILE = 7  # per level: pile played on
I_PLAYED = 8  # per level: card played
I_PAIR_CARD = 9  # scratch of _near_correction
I_PAIR_PILE = 10
I_READY = 11  # 11..14: ready[p, k], crow[p, k] gathered this turn
I_NMOVES = 15  # per level: number of legal moves
I_TOPS = 16  # 16..23: tops per level
I_TOPK = 24  # 24..31: per level and pile, the hand slot of the top (hn: the turn's top)
I_MOVES = 32  # 32..39: per level, the legal moves 4 * slot + pile
I_POS_OF = 40  # compact index of an unlaid card
I_BELOW = 41  # hand[k] - 10 if unlaid (a card hand[k] bridges upwards), else 0
I_ABOVE = 42  # hand[k] + 10 if unlaid, else 0
# brk[q * (hn + 1) + k]: hand slots whose below/above card lies within the bound behind
# pile q's top hand[k] (k = hn: the turn's top), the only chains a laid card can break
I_BRK = 43
# fits[q * (hn + 1) + k]: bits of the hand slots playable on pile q with top hand[k]
I_FITS = 44
I_LEAF_SLOT = 45  # the second plays of the current first play, in order
I_LEAF_PILE = 46
I_BITS = 47  # 0..3 bridge bits of the node's rows, 4..7 of the others, 8..11 of the leaf
# selective deepening (games.thegame._engine.deepened_turn): I_KCTL holds k (keep the k best
# candidates by value; 0: keep none), the number of allowed candidates (0: all) and the
# number kept; I_KKEY the kept keys, best first (then the allowed ones), W_KVAL their values
I_KKEY = 48
I_KCTL = 49
K_KEEP = 0
K_ALLOW = 1
K_KEPT = 2
MAX_KEEP = 128
# rows of the float64 scratch array ``fw`` (13, 128)
W_BPEN = 0  # 0..3: bpen[p, k], weighted penalty of a chain missing k cards
W_HOPELESS = 4  # per pile: the penalty of a broken chain
W_CM = 5  # card weights m over the compact index
W_ACC = 6  # per level: best value in the node's subtree
# fw[W_ACC, W_BEST]: the value of the chosen candidate, written by every search
W_BEST = MAX_LEVELS
W_LEAF_TOTAL = 7  # penalty sums of the current second plays
W_BEHIND = 8  # 8..11: scratch of the bridge fill (games.thegame._values.fill_bridge_rows)
W_KVAL = 12


@njit(cache=True)
def workspace() -> tuple[np.ndarray, np.ndarray]:
    """Scratch arrays of :func:`search_turn` (int64 and float64), allocated once per batch."""
    return np.zeros((50, 128), dtype=np.int64), np.zeros((13, 128))


@njit(cache=True)
def table_bits(depth: int, tmin: int = 2) -> int:
    """log2 of the transposition-table size for a search of ``tmin + depth`` plays."""
    return min(22, 10 + 3 * max(0, depth + tmin - 2))


@njit(cache=True)
def _pack(iw: np.ndarray, lvl: int, mask: int, symmetric: bool) -> np.int64:
    """Key of a position; with ``symmetric`` piles of one direction are interchangeable."""
    row = I_TOPS + lvl
    a, b, c, d = iw[row, 0], iw[row, 1], iw[row, 2], iw[row, 3]
    if symmetric:
        if a > b:
            a, b = b, a
        if c > d:
            c, d = d, c
    return np.int64(a | (b << 7) | (c << 14) | (d << 21) | (mask << 28))


@njit(cache=True)
def _find(keys: np.ndarray, gens: np.ndarray, gen: int, key: np.int64) -> int:
    """Slot of ``key`` in the table, or -(free slot) - 1 when absent."""
    size = keys.size
    h = int((np.uint64(key) * _HASH_MUL) >> np.uint64(40)) & (size - 1)
    while True:
        if gens[h] != gen:
            return -h - 1
        if keys[h] == key:
            return h
        h = (h + 1) & (size - 1)


@njit(cache=True, inline="always")
def _keep(iw: np.ndarray, fw: np.ndarray, key: np.int64, value: float) -> None:
    """Keep candidate ``key`` if its value is among the k best so far (ties: first found)."""
    k = iw[I_KCTL, K_KEEP]
    n = iw[I_KCTL, K_KEPT]
    j = n
    while j > 0 and value > fw[W_KVAL, j - 1]:
        j -= 1
    if j >= k:
        return
    last = n if n < k else k - 1
    for t in range(last, j, -1):
        iw[I_KKEY, t] = iw[I_KKEY, t - 1]
        fw[W_KVAL, t] = fw[W_KVAL, t - 1]
    iw[I_KKEY, j] = key
    fw[W_KVAL, j] = value
    iw[I_KCTL, K_KEPT] = min(n + 1, k)


@njit(cache=True, inline="always")
def _allowed(iw: np.ndarray, key: np.int64) -> bool:
    """Whether ``key`` is one of the candidates a restricted search may value."""
    for t in range(iw[I_KCTL, K_ALLOW]):
        if iw[I_KKEY, t] == key:
            return True
    return False


@njit(cache=True, inline="always")
def _may_break_chain(iw: np.ndarray, lvl: int, m: np.ndarray, bound: float) -> bool:
    """Cheap test: could a card laid this turn be a bridge of a card behind some top?

    A chain through h onto an ascending pile also holds h - 10 (unlaid), and h lies at most
    9 above the top; mirrored for descending piles.
    """
    for k in range(lvl):
        h = iw[I_PLAYED, k]
        up = h >= 12 and m[h - 10] > 0.0
        down = h <= 89 and m[h + 10] > 0.0
        if not (up or down):
            continue
        for q in range(4):
            tp = iw[I_TOPS + lvl, q]
            if q < 2:
                if up and h != tp and tp + 10 - bound <= h <= tp + 9:
                    return True
            elif down and h != tp and tp - 9 <= h <= tp - 10 + bound:
                return True
    return False


@njit(cache=True, inline="always")
def _near_correction(total: float, table: np.ndarray, iw: np.ndarray, fw: np.ndarray,
                     lvl: int, hits: int, h1: int, m: np.ndarray) -> float:
    """``total`` plus the change from chains whose one bridge, a hand card, was laid now.

    ``hits`` has the bits of the hand slots laid this turn that bridge a card behind some
    top of the position at level ``lvl``; those cards get their rho = 0 penalty on those
    piles.
    """
    npairs = 0
    for k in range(lvl):  # find the (card, pile) pairs whose one bridge was laid now
        sk = iw[I_SEQ_SLOT, k]
        if not (hits >> sk) & 1:
            continue
        for q in range(4):
            if not (iw[I_BRK, q * h1 + iw[I_TOPK + lvl, q]] >> sk) & 1:
                continue
            c = iw[I_BELOW, sk] if q < 2 else iw[I_ABOVE, sk]
            laid_now = False
            for j2 in range(lvl):
                if iw[I_PLAYED, j2] == c:
                    laid_now = True
            if not laid_now:
                iw[I_PAIR_CARD, npairs] = c
                iw[I_PAIR_PILE, npairs] = q
                npairs += 1
    for a in range(npairs):
        c = iw[I_PAIR_CARD, a]
        first = True
        for j2 in range(a):
            if iw[I_PAIR_CARD, j2] == c:
                first = False
        if not first:
            continue
        old = 1.0
        new = 1.0
        for q in range(4):
            r = table[q, iw[I_TOPS + lvl, q], c]
            old *= r
            hit = False
            for j2 in range(a, npairs):
                if iw[I_PAIR_CARD, j2] == c and iw[I_PAIR_PILE, j2] == q:
                    hit = True
            new *= fw[W_HOPELESS, q] if hit else r
        total += m[c] * (new - old)
    return total


@njit(cache=True, inline="always")
def _broken(total: float, crow: np.ndarray, iw: np.ndarray, fw: np.ndarray, k0: int, k1: int,
            k2: int, k3: int, c: int, flags: int, m: np.ndarray) -> float:
    """``total`` plus the change of card c's term when the piles in ``flags`` lose its bridge.

    The position's rows are crow[q, kq] (all gathered, bridge cells of this turn included).
    """
    j = iw[I_POS_OF, c]
    old = 1.0
    new = 1.0
    for q in range(4):
        r = crow[q, k0 if q == 0 else (k1 if q == 1 else (k2 if q == 2 else k3)), j]
        old *= r
        new *= fw[W_HOPELESS, q] if (flags >> q) & 1 else r
    return total + m[c] * (new - old)


@njit(cache=True, inline="always")
def _pair_correction(total: float, crow: np.ndarray, iw: np.ndarray, fw: np.ndarray, k0: int,
                     k1: int, k2: int, k3: int, rb0: int, rb1: int, rb2: int, rb3: int,
                     i1: int, i2: int, c1: int, c2: int, m: np.ndarray) -> float:
    """:func:`_near_correction` for two plays (slots i1 then i2), in the same order.

    ``k0..k3`` are the rows and ``rb0..rb3`` their bridge bits at the leaf. Hand card h
    bridges h - 10 on the ascending piles and h + 10 on the descending ones; a card bridged
    by both laid cards (h1 - 10 == h2 + 10, or h1 + 10 == h2 - 10) is valued once, with
    both sets of piles.
    """
    ca, cb = iw[I_BELOW, i1], iw[I_ABOVE, i1]
    cc, cd = iw[I_BELOW, i2], iw[I_ABOVE, i2]
    fa = 0 if ca == c2 else ((rb0 >> i1) & 1) | (((rb1 >> i1) & 1) << 1)
    fb = 0 if cb == c2 else (((rb2 >> i1) & 1) << 2) | (((rb3 >> i1) & 1) << 3)
    fc = 0 if cc == c1 else ((rb0 >> i2) & 1) | (((rb1 >> i2) & 1) << 1)
    fd = 0 if cd == c1 else (((rb2 >> i2) & 1) << 2) | (((rb3 >> i2) & 1) << 3)
    if fa:
        total = _broken(total, crow, iw, fw, k0, k1, k2, k3, ca,
                        fa | (fd if cd == ca else 0), m)
    if fb:
        total = _broken(total, crow, iw, fw, k0, k1, k2, k3, cb,
                        fb | (fc if cc == cb else 0), m)
    if fc and not (fb and cb == cc):
        total = _broken(total, crow, iw, fw, k0, k1, k2, k3, cc, fc, m)
    if fd and not (fa and ca == cd):
        total = _broken(total, crow, iw, fw, k0, k1, k2, k3, cd, fd, m)
    return total


@njit(cache=True, inline="always")
def _leaf_rows(table: np.ndarray, iw: np.ndarray, fw: np.ndarray, lvl: int, nu: int,
               crow: np.ndarray, loo: np.ndarray) -> None:
    """Gather the rows of the node at level ``lvl`` and its leave-one-pile-out products.

    loo[lvl, q] is the product over the other three piles, times the card's weight, with
    the cards laid on the way to the node zeroed.
    """
    for q in range(4):
        k = iw[I_TOPK + lvl, q]
        if not iw[I_READY + q, k]:
            top = iw[I_TOPS + lvl, q]
            for j in range(nu):
                crow[q, k, j] = table[q, top, iw[I_IDX, j]]
            iw[I_READY + q, k] = 1
    k0, k1 = iw[I_TOPK + lvl, 0], iw[I_TOPK + lvl, 1]
    k2, k3 = iw[I_TOPK + lvl, 2], iw[I_TOPK + lvl, 3]
    for j in range(nu):
        w = fw[W_CM, j]
        r0 = crow[0, k0, j]
        r1 = crow[1, k1, j]
        r2 = crow[2, k2, j]
        r3 = crow[3, k3, j]
        a = w * r0 * r1
        b = w * r2 * r3
        loo[lvl, 0, j] = b * r1
        loo[lvl, 1, j] = b * r0
        loo[lvl, 2, j] = a * r3
        loo[lvl, 3, j] = a * r2
    for k in range(lvl):
        for q in range(4):
            loo[lvl, q, iw[I_HPOS, iw[I_SEQ_SLOT, k]]] = 0.0


@njit(cache=True, inline="always")
def _leaf_sum(loo: np.ndarray, crow: np.ndarray, lvl: int, p: int, i: int, nu: int,
              j_out: int) -> float:
    """Penalty sum of the child laying hand slot i on pile p: one dot product over the
    unlaid cards, less the term of the card just laid (compact index ``j_out``)."""
    total = 0.0
    for j in range(nu):
        total += loo[lvl, p, j] * crow[p, i, j]
    total -= loo[lvl, p, j_out] * crow[p, i, j_out]
    return total


@njit(cache=True, fastmath={"reassoc", "contract", "nsz", "arcp"}, _nrt=False)
def _search_pairs(table: np.ndarray, prm: np.ndarray, hand: np.ndarray, hn: int,
                  tops0: np.ndarray, symmetric: bool, nu: int, m: np.ndarray, iw: np.ndarray,
                  fw: np.ndarray, loo: np.ndarray, crow: np.ndarray, affected: np.ndarray,
                  bridges: bool, near: bool, bound: float, out_slots: np.ndarray,
                  out_piles: np.ndarray) -> int:
    """:func:`search_turn` for a turn of two plays and no deeper look (d = 0): flat loops.

    The candidates come in the order of the general search and are valued by the same
    arithmetic, so the choice is the same. Per first play, a first loop values every second
    play by a dot product only, a second loop adds the bridge corrections of the few that
    need one, and a third picks the best in order: each loop stays small enough for the
    compiler to keep in registers. ``iw``/``fw`` hold the rows, compact indices and bridge
    tables that :func:`search_turn` set up for this turn.
    """
    h1 = hn + 1
    for q in range(4):
        for k in range(h1):
            top = tops0[q] if k == hn else hand[k]
            bits = 0
            for s in range(hn):
                bits |= np.int64(is_playable(q, top, hand[s])) << s
            iw[I_FITS, q * h1 + k] = bits
    best = -np.inf
    candidates = 0
    for i1 in range(hn):
        c1 = hand[i1]
        iw[I_SEQ_SLOT, 0] = i1
        iw[I_PLAYED, 0] = c1
        for p1 in range(4):
            if symmetric and ((p1 == 1 and tops0[0] == tops0[1])
                              or (p1 == 3 and tops0[2] == tops0[3])):
                continue
            if not (iw[I_FITS, p1 * h1 + hn] >> i1) & 1:
                continue
            for q in range(4):
                iw[I_TOPS + 1, q] = tops0[q]
                iw[I_TOPK + 1, q] = hn
            iw[I_TOPS + 1, p1] = c1
            iw[I_TOPK + 1, p1] = i1
            # the second play: any other slot on the same pile, only later slots on the
            # other piles (plays on two piles: hand order only); untouched twins once
            upto = (np.int64(2) << i1) - 1
            packed = np.int64(0)
            for q in range(4):
                bits = iw[I_FITS, q * h1 + iw[I_TOPK + 1, q]] & ~(np.int64(1) << i1)
                if q != p1:
                    bits &= ~upto
                if symmetric and ((q == 1 and iw[I_TOPS + 1, 0] == iw[I_TOPS + 1, 1])
                                  or (q == 3 and iw[I_TOPS + 1, 2] == iw[I_TOPS + 1, 3])):
                    bits = 0
                packed |= bits << (8 * q)
            if packed == 0:
                continue
            any_pile = (packed | (packed >> 8) | (packed >> 16) | (packed >> 24)) & 255
            _leaf_rows(table, iw, fw, 1, nu, crow, loo)
            nleaf = 0
            for i2 in range(hn):
                if not (any_pile >> i2) & 1:
                    continue
                c2 = hand[i2]
                for p2 in range(4):
                    if not (packed >> (8 * p2 + i2)) & 1:
                        continue
                    if not iw[I_READY + p2, i2]:
                        for j in range(nu):
                            crow[p2, i2, j] = table[p2, c2, iw[I_IDX, j]]
                        iw[I_READY + p2, i2] = 1
                    fw[W_LEAF_TOTAL, nleaf] = _leaf_sum(loo, crow, 1, p2, i2, nu,
                                                        iw[I_HPOS, i2])
                    iw[I_LEAF_SLOT, nleaf] = i2
                    iw[I_LEAF_PILE, nleaf] = p2
                    nleaf += 1
            if bridges and near:  # chains whose one bridge, a hand card, was laid now
                for q in range(4):  # bridge bits of the node's rows, and with q left out
                    iw[I_BITS, q] = iw[I_BRK, q * h1 + iw[I_TOPK + 1, q]]
                for q in range(4):
                    others = 0
                    for q2 in range(4):
                        if q2 != q:
                            others |= iw[I_BITS, q2]
                    iw[I_BITS, 4 + q] = others
                for n in range(nleaf):
                    i2 = iw[I_LEAF_SLOT, n]
                    p2 = iw[I_LEAF_PILE, n]
                    row = iw[I_BRK, p2 * h1 + i2]
                    hits = iw[I_BITS, 4 + p2] | row
                    if not ((hits >> i1) | (hits >> i2)) & 1:
                        continue
                    for q in range(4):
                        iw[I_TOPK + 2, q] = iw[I_TOPK + 1, q]
                        iw[I_BITS, 8 + q] = iw[I_BITS, q]
                    iw[I_TOPK + 2, p2] = i2
                    iw[I_BITS, 8 + p2] = row
                    fw[W_LEAF_TOTAL, n] = _pair_correction(
                        fw[W_LEAF_TOTAL, n], crow, iw, fw, iw[I_TOPK + 2, 0],
                        iw[I_TOPK + 2, 1], iw[I_TOPK + 2, 2], iw[I_TOPK + 2, 3],
                        iw[I_BITS, 8], iw[I_BITS, 9], iw[I_BITS, 10], iw[I_BITS, 11],
                        i1, i2, c1, hand[i2], m)
            elif bridges:  # chains of any length within the bound
                tops = iw[I_TOPS:I_TOPS + 3]
                played = iw[I_PLAYED]
                for n in range(nleaf):
                    p2 = iw[I_LEAF_PILE, n]
                    for q in range(4):
                        iw[I_TOPS + 2, q] = iw[I_TOPS + 1, q]
                    iw[I_TOPS + 2, p2] = hand[iw[I_LEAF_SLOT, n]]
                    iw[I_PLAYED, 1] = hand[iw[I_LEAF_SLOT, n]]
                    if _may_break_chain(iw, 2, m, bound):
                        fw[W_LEAF_TOTAL, n] += bridge_correction(table, prm, tops, 2, m,
                                                                 played, 2, affected)
            for n in range(nleaf):
                value = -fw[W_LEAF_TOTAL, n]
                if candidates == 0 or value > best + 1e-9 * abs(best):
                    best = value
                    out_slots[0] = i1
                    out_piles[0] = p1
                    out_slots[1] = iw[I_LEAF_SLOT, n]
                    out_piles[1] = iw[I_LEAF_PILE, n]
                candidates += 1
    fw[W_ACC, W_BEST] = best
    return candidates


@njit(cache=True, fastmath={"reassoc", "contract", "nsz", "arcp"}, _nrt=False)
def search_turn(prm: np.ndarray, static: np.ndarray, rows: np.ndarray,
                turn: int, tops0: np.ndarray, hand: np.ndarray, hn: int, tmin: int,
                depth: int, m: np.ndarray, in_hand: np.ndarray, unlaid: np.ndarray,
                unknown: int, keys: np.ndarray, vals: np.ndarray, gens: np.ndarray,
                affected: np.ndarray, loo: np.ndarray, crow: np.ndarray, iw: np.ndarray,
                fw: np.ndarray, out_slots: np.ndarray, out_piles: np.ndarray) -> int:
    """Choose the t_min plays of this turn; returns the number of distinct candidates.

    0 means no sequence of t_min plays exists. ``out_slots``/``out_piles`` receive the
    chosen hand slots and piles in playing order, ``fw[W_ACC, W_BEST]`` its value v_d.
    Ties go to the first candidate found.
    Penalty sums run over the cards not yet laid only, stored compactly: ``crow[p, k]`` is
    the row of pile p with top hand[k] (k = hn: the pile's top at the turn's start) gathered
    over those cards at the turn's start. ``loo`` (levels+1, 4, 100) holds per level the
    leave-one-pile-out products of the node whose children are being valued, in the same
    compact order, so each child costs one dot product over the unlaid cards.
    ``iw`` (50, 128) int64 and ``fw`` (13, 128) float64 are scratch space (see
    :func:`workspace` and the I_/W_ row names): no array is allocated per turn.
    """
    fam = int(prm[P_FAMILY])
    bridges = fam == F_BRIDGES or fam == F_FALLBACK
    product = is_product_family(fam)
    table = rows if bridges else static
    symmetric = prm[P_W0] == prm[P_W0 + 1] and prm[P_W0 + 2] == prm[P_W0 + 3]
    bound = prm[P_BOUND] if fam == F_FALLBACK else 1000.0
    near = bound <= 10.0
    h1 = hn + 1
    if bridges:
        bridge_penalties(fw, prm, unknown)  # rows W_BPEN..W_BPEN + 3
        draws = int(prm[P_DRAWS])
        for p in range(4):
            fw[W_HOPELESS, p] = fw[W_BPEN + p, draws + 1]
    nu = 0
    for q in range(4):
        iw[I_TOPK, q] = hn
        for k in range(h1):
            iw[I_READY + q, k] = 0
    if product:
        for c in range(LOW_CARD, HIGH_CARD + 1):  # compaction without branches: a laid
            iw[I_IDX, nu] = c  # card's slot is taken by the next card (its pos_of is
            fw[W_CM, nu] = m[c]  # never read)
            iw[I_POS_OF, c] = nu
            nu += m[c] > 0.0
        for k in range(hn):
            h = hand[k]
            iw[I_HPOS, k] = iw[I_POS_OF, h]
            iw[I_BELOW, k] = h - 10 if h - 10 >= LOW_CARD and m[h - 10] > 0.0 else 0
            iw[I_ABOVE, k] = h + 10 if h + 10 <= HIGH_CARD and m[h + 10] > 0.0 else 0
        if bridges:
            fill_bridge_rows(rows, prm, tops0, hand, hn, in_hand, unlaid, fw,
                             fw[W_BEHIND:W_BEHIND + 4])
            if near:
                for q in range(4):
                    for k in range(h1):
                        top = tops0[q] if k == hn else hand[k]
                        bits = 0
                        if q < 2:
                            for s in range(hn):
                                b = iw[I_BELOW, s]
                                g = top - b
                                ok = b != 0 and 0 < g <= bound and g != 10
                                bits |= np.int64(ok) << s
                        else:
                            for s in range(hn):
                                a = iw[I_ABOVE, s]
                                g = a - top
                                ok = a != 0 and 0 < g <= bound and g != 10
                                bits |= np.int64(ok) << s
                        iw[I_BRK, q * h1 + k] = bits
    if product and tmin + depth == 2 and tmin == 2 and iw[I_KCTL, K_KEEP] == 0:
        return _search_pairs(table, prm, hand, hn, tops0, symmetric, nu, m, iw, fw, loo, crow,
                             affected, bridges, near, bound, out_slots, out_piles)
    return _search_tree(prm, table, turn, tops0, hand, hn, tmin, depth, m, unlaid, keys, vals,
                        gens, affected, loo, crow, iw, fw, product, bridges, near, symmetric,
                        bound, nu, out_slots, out_piles)


@njit(cache=True, fastmath={"reassoc", "contract", "nsz", "arcp"}, _nrt=False)
def _search_tree(prm: np.ndarray, table: np.ndarray, turn: int, tops0: np.ndarray,
                 hand: np.ndarray, hn: int, tmin: int, depth: int, m: np.ndarray,
                 unlaid: np.ndarray, keys: np.ndarray, vals: np.ndarray, gens: np.ndarray,
                 affected: np.ndarray, loo: np.ndarray, crow: np.ndarray, iw: np.ndarray,
                 fw: np.ndarray, product: bool, bridges: bool, near: bool, symmetric: bool,
                 bound: float, nu: int, out_slots: np.ndarray, out_piles: np.ndarray) -> int:
    """:func:`search_turn` in general: depth-first over t_min + d plays, transpositions
    merged through the table ``keys``/``vals``/``gens`` (stamped with ``turn``)."""
    acc = fw[W_ACC]
    mask = iw[I_MASK]
    it = iw[I_IT]
    loo_ok = iw[I_LOO_OK]
    slot_of = iw[I_SLOT_OF]
    seq_slot = iw[I_SEQ_SLOT]
    seq_pile = iw[I_SEQ_PILE]
    played = iw[I_PLAYED]
    nmoves = iw[I_NMOVES]
    tops = iw[I_TOPS:I_TOPS + MAX_LEVELS]
    topk = iw[I_TOPK:I_TOPK + MAX_LEVELS]
    moves = iw[I_MOVES:I_MOVES + MAX_LEVELS]
    levels = tmin + depth
    h1 = hn + 1
    for k in range(levels + 1):
        mask[k] = 0
        it[k] = -1  # -1: the node's list of moves is not built yet
        acc[k] = -np.inf
        loo_ok[k] = 0
        slot_of[k] = -1
    for q in range(4):
        tops[0, q] = tops0[q]
    best = -np.inf
    candidates = 0
    filled = 0
    limit = keys.size // 2 if levels > 2 else 0  # <= 2 plays: the order rule is exact
    keeping = iw[I_KCTL, K_KEEP] > 0
    restricted = iw[I_KCTL, K_ALLOW] > 0
    iw[I_KCTL, K_KEPT] = 0
    lvl = 0
    while lvl >= 0:
        if it[lvl] < 0:  # new node: list its legal moves (hand order, then pile order)
            nm = 0
            for i in range(hn):
                if (mask[lvl] >> i) & 1:
                    continue
                for p in range(4):
                    # Plays on different piles commute: inside the t_min block and inside
                    # the extension, consecutive plays on different piles come in hand
                    # order only.
                    if lvl > 0 and lvl != tmin and p != seq_pile[lvl - 1] \
                            and i < seq_slot[lvl - 1]:
                        continue
                    # Untouched twin piles (both still at 1, or at 100) are interchangeable.
                    if symmetric and ((p == 1 and tops[lvl, 0] == tops[lvl, 1])
                                      or (p == 3 and tops[lvl, 2] == tops[lvl, 3])):
                        continue
                    if is_playable(p, tops[lvl, p], hand[i]):
                        moves[lvl, nm] = 4 * i + p
                        nm += 1
            nmoves[lvl] = nm
            it[lvl] = 0
        if it[lvl] >= nmoves[lvl]:
            if lvl >= tmin:  # node done: its subtree maximum is final
                if slot_of[lvl] >= 0:
                    vals[slot_of[lvl]] = acc[lvl]
                if lvl == tmin:
                    if candidates == 0 or acc[lvl] > best + 1e-9 * abs(best):
                        best = acc[lvl]
                        for k in range(tmin):
                            out_slots[k] = seq_slot[k]
                            out_piles[k] = seq_pile[k]
                    candidates += 1
                    if keeping:
                        _keep(iw, fw, _pack(iw, lvl, mask[lvl], symmetric), acc[lvl])
                elif acc[lvl] > acc[lvl - 1]:
                    acc[lvl - 1] = acc[lvl]
            lvl -= 1
            continue
        move = moves[lvl, it[lvl]]
        it[lvl] += 1
        i = move >> 2
        p = move & 3
        card = hand[i]
        nxt = lvl + 1
        for q in range(4):
            tops[nxt, q] = tops[lvl, q]
        tops[nxt, p] = card
        mask[nxt] = mask[lvl] | (1 << i)
        for q in range(4):
            topk[nxt, q] = topk[lvl, q]
        topk[nxt, p] = i
        slot_of[nxt] = -1
        if restricted and nxt == tmin and not _allowed(iw, _pack(iw, nxt, mask[nxt],
                                                                 symmetric)):
            continue
        if limit > 0:
            key = _pack(iw, nxt, mask[nxt], symmetric)
            slot = _find(keys, gens, turn, key)
            if slot >= 0:  # transposition: this position was met through another order
                if nxt > tmin and vals[slot] > acc[lvl]:
                    acc[lvl] = vals[slot]
                continue
            if filled < limit:
                slot = -slot - 1
                keys[slot] = key
                gens[slot] = turn
                vals[slot] = -np.inf
                filled += 1
                slot_of[nxt] = slot
        seq_slot[lvl] = i
        seq_pile[lvl] = p
        played[lvl] = card
        it[nxt] = -1
        loo_ok[nxt] = 0
        if nxt >= tmin:
            if product:
                if not loo_ok[lvl]:
                    _leaf_rows(table, iw, fw, lvl, nu, crow, loo)
                    loo_ok[lvl] = 1
                if not iw[I_READY + p, i]:
                    for j in range(nu):
                        crow[p, i, j] = table[p, card, iw[I_IDX, j]]
                    iw[I_READY + p, i] = 1
                total = _leaf_sum(loo, crow, lvl, p, i, nu, iw[I_HPOS, i])
                if bridges:
                    if near:
                        hits = (iw[I_BRK, topk[nxt, 0]] | iw[I_BRK, h1 + topk[nxt, 1]]
                                | iw[I_BRK, 2 * h1 + topk[nxt, 2]]
                                | iw[I_BRK, 3 * h1 + topk[nxt, 3]])
                        if (hits & mask[nxt]) != 0:
                            total = _near_correction(total, table, iw, fw, nxt, hits, h1, m)
                    elif _may_break_chain(iw, nxt, m, bound):
                        total += bridge_correction(table, prm, tops, nxt, m, played, nxt,
                                                   affected)
                acc[nxt] = -total
            else:
                acc[nxt] = capacity_value(prm, tops, nxt, unlaid, played, nxt)
        if nxt == levels:  # a leaf is done at once: no push and pop
            if slot_of[nxt] >= 0:
                vals[slot_of[nxt]] = acc[nxt]
            if nxt == tmin:
                if candidates == 0 or acc[nxt] > best + 1e-9 * abs(best):
                    best = acc[nxt]
                    for k in range(tmin):
                        out_slots[k] = seq_slot[k]
                        out_piles[k] = seq_pile[k]
                candidates += 1
                if keeping:
                    _keep(iw, fw, _pack(iw, nxt, mask[nxt], symmetric), acc[nxt])
            elif acc[nxt] > acc[lvl]:
                acc[lvl] = acc[nxt]
            continue
        lvl = nxt
    fw[W_ACC, W_BEST] = best
    return candidates


@njit(cache=True)
def longest_sequence(tops0: np.ndarray, hand: np.ndarray, hn: int, limit: int,
                     out_slots: np.ndarray, out_piles: np.ndarray) -> int:
    """Length of the longest legal sequence of at most ``limit`` plays (the first found)."""
    best = 0
    tops = np.empty((limit + 1, 4), dtype=np.int64)
    mask = np.zeros(limit + 1, dtype=np.int64)
    it = np.zeros(limit + 1, dtype=np.int64)
    seq_slot = np.empty(max(limit, 1), dtype=np.int64)
    seq_pile = np.empty(max(limit, 1), dtype=np.int64)
    tops[0, :] = tops0
    lvl = 0
    while lvl >= 0 and best < limit:
        if lvl == limit or it[lvl] >= hn * 4:
            lvl -= 1
            continue
        move = it[lvl]
        it[lvl] = move + 1
        i = move >> 2
        p = move & 3
        if (mask[lvl] >> i) & 1 or not is_playable(p, tops[lvl, p], hand[i]):
            continue
        seq_slot[lvl] = i
        seq_pile[lvl] = p
        nxt = lvl + 1
        tops[nxt, :] = tops[lvl, :]
        tops[nxt, p] = hand[i]
        mask[nxt] = mask[lvl] | (1 << i)
        it[nxt] = 0
        lvl = nxt
        if lvl > best:
            best = lvl
            for k in range(lvl):
                out_slots[k] = seq_slot[k]
                out_piles[k] = seq_pile[k]
    return best
