"""Exact play at the end of a solo game: the highest chance of laying every card.

Once the draw pile holds few cards, every card not yet laid is in the hand or in the draw
pile, and the player knows which (the laid cards are public), only not the pile's order. The
game is then small enough to solve: a turn lays at least t_min cards (1 once the pile is
empty), may go on, and then draws up to the hand size, every subset of the pile being
equally likely. ``endgame_turn`` finds the turn with the highest chance of winning under
best play afterwards (expectimax, memoised in a hash table) and returns its plays.

Cards are indexed over the ``r`` cards unlaid when exact play starts (at most 16); a state is
the top of each pile (an index, or ``r`` for the pile's top at the start), the hand and the
pile as bit masks, and the cards laid so far this turn (capped at t_min). Values stay valid
for the rest of the game, so one table serves every later turn of that game.

Just over 400 lines on purpose: the table, the expectimax and its move generator are one
solver whose kernels share the context layout below; split, that layout would be read in
several files.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.thegame._rules import HIGH_CARD, LOW_CARD, is_playable

MAX_CARDS = 16  # hand plus draw pile at the start of exact play
MAX_PILE = MAX_CARDS - 8  # largest draw pile exact play may start from (solo hand of 8)
_MUL = np.uint64(0x9E3779B97F4A7C15)
_PROBES = 8

# context vector (int64): C_R cards, C_GEN table generation, then the cards (ascending), the
# starting tops, and each card's index (-1: not among them)
C_R = 0
C_GEN = 1
C_CARDS = 2
C_ORIG = C_CARDS + MAX_CARDS
C_INDEX = C_ORIG + 4
C_SIZE = C_INDEX + HIGH_CARD + 12


@njit(cache=True)
def table_size(endgame_pile: int) -> int:
    """Entries of the hash table for exact play from a pile of ``endgame_pile`` (1 if off)."""
    return 1 << 20 if endgame_pile >= 0 else 1


@njit(cache=True, inline="always")
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def _key(topi: np.ndarray, hmask: int, pmask: int, laid: int) -> np.int64:
    t = ((topi[0] * 17 + topi[1]) * 17 + topi[2]) * 17 + topi[3]
    return np.int64((t << 34) | (hmask << 18) | (pmask << 2) | laid)


@njit(cache=True, inline="always")
def _slot(keys: np.ndarray, gens: np.ndarray, gen: int, key: np.int64) -> int:
    """Slot holding ``key`` (>= 0), or -(free slot + 1), or -len - 1 when the probe is full."""
    size = keys.size
    h = int((np.uint64(key) * _MUL) >> np.uint64(44))  # tables hold at most 2**20 entries
    for i in range(_PROBES):
        s = (h + i) & (size - 1)
        if gens[s] != gen:
            return -s - 1
        if keys[s] == key:
            return s
    return -size - 1


MAX_FRAMES = 64  # plays and draws on one line of the search (at most 16 + 16)
# frame fields (int64): the state, its table key and slot, the phase (0: draws, 1: plays),
# the cursor (the next pile subset, or the next play), for draws k and "done", the plays
F_TOPI = 0  # 0..3
F_HAND = 4
F_PILE = 5
F_LAID = 6
F_KEY = 7
F_SLOT = 8
F_PHASE = 9
F_CURSOR = 10
F_K = 11
F_DONE = 12
F_NMOVES = 13  # the legal plays, closest to their pile first
F_MOVES = 14  # 14..77: 64 * step + 4 * card index + pile
F_SIZE = F_MOVES + 4 * MAX_CARDS


@njit(cache=True)
def _hopeless(ctx: np.ndarray, topi: np.ndarray, rmask: int) -> bool:
    """Whether some card left can never be laid, even if every other card served it.

    For each pile, the cards that could ever be laid on it grow from its top: on an
    ascending pile a card goes on when it is above the lowest top reached so far, or 10
    below a top reached (the top itself or a card already counted); descending piles
    mirror this. A card that no pile can ever take is dead, and the game is lost.
    """
    r = ctx[C_R]
    live = 0
    for p in range(4):
        ti = topi[p]
        top = ctx[C_CARDS + ti] if ti < r else ctx[C_ORIG + p]
        reach = 0  # cards that could become this pile's top
        edge = top  # lowest (ascending) or highest (descending) of them and the top
        changed = True
        while changed:
            changed = False
            for i in range(r):
                if not (rmask >> i) & 1 or (reach >> i) & 1:
                    continue
                y = ctx[C_CARDS + i]
                back = y + 10 if p < 2 else y - 10  # the top y goes back onto
                ok = y > edge if p < 2 else y < edge
                if not ok and back == top:
                    ok = True
                if not ok and LOW_CARD <= back <= HIGH_CARD:
                    j = ctx[C_INDEX + back]
                    ok = j >= 0 and (reach >> j) & 1 == 1
                if ok:
                    reach |= 1 << i
                    edge = min(edge, y) if p < 2 else max(edge, y)
                    changed = True
        live |= reach
    return rmask & ~live != 0


@njit(cache=True, inline="always")
def _known(ctx: np.ndarray, fr: np.ndarray, d: int, keys: np.ndarray, vals: np.ndarray,
           gens: np.ndarray) -> float:
    """The value of frame ``d``'s state if already known (won, or in the table), else -1;
    sets the frame's key and slot either way."""
    hmask = fr[d, F_HAND]
    pmask = fr[d, F_PILE]
    if hmask == 0 and pmask == 0:
        return 1.0
    if pmask == 0:
        fr[d, F_LAID] = 0  # pile empty: one card a turn, stopping changes nothing
    if _hopeless(ctx, fr[d, F_TOPI:F_TOPI + 4], hmask | pmask):
        return 0.0
    key = _key(fr[d, F_TOPI:F_TOPI + 4], hmask, pmask, fr[d, F_LAID])
    s = _slot(keys, gens, ctx[C_GEN], key)
    fr[d, F_KEY] = key
    fr[d, F_SLOT] = s
    return vals[s] if s >= 0 else -1.0


@njit(cache=True)
def _list_plays(ctx: np.ndarray, fr: np.ndarray, d: int) -> None:
    """Frame ``d``'s legal plays into F_MOVES, backwards tricks first, then by the step
    from the top (a close play is the likeliest to keep every card layable, so a winning
    line, which ends the search of a state, tends to come first)."""
    r = ctx[C_R]
    hmask = fr[d, F_HAND]
    n = 0
    for i in range(r):
        if not (hmask >> i) & 1:
            continue
        card = ctx[C_CARDS + i]
        for p in range(4):
            ti = fr[d, F_TOPI + p]
            top = ctx[C_CARDS + ti] if ti < r else ctx[C_ORIG + p]
            if not is_playable(p, top, card):
                continue
            g = card - top if p < 2 else top - card
            if g < 0:
                g = 0  # a backwards trick
            move = 64 * g + 4 * i + p  # sorted by step, then card and pile
            j = n  # insertion
            while j > 0 and fr[d, F_MOVES + j - 1] > move:
                fr[d, F_MOVES + j] = fr[d, F_MOVES + j - 1]
                j -= 1
            fr[d, F_MOVES + j] = move
            n += 1
    fr[d, F_NMOVES] = n
    fr[d, F_CURSOR] = 0


@njit(cache=True, inline="always")
def _open(ctx: np.ndarray, fr: np.ndarray, d: int, acc: np.ndarray, tmin_full: int,
          hand_size: int) -> None:
    """Start frame ``d``'s children: the draws first when the turn may end here."""
    pmask = fr[d, F_PILE]
    acc[d, 0] = 0.0  # best
    acc[d, 1] = 0.0  # sum over draws
    acc[d, 2] = 0.0  # draws counted
    if pmask != 0 and fr[d, F_LAID] >= tmin_full:
        fr[d, F_PHASE] = 0
        fr[d, F_CURSOR] = pmask
        fr[d, F_DONE] = 0
        fr[d, F_K] = min(hand_size - _popcount(fr[d, F_HAND]), _popcount(pmask))
    else:
        fr[d, F_PHASE] = 1
        _list_plays(ctx, fr, d)


@njit(cache=True, inline="always")
def _next_child(ctx: np.ndarray, fr: np.ndarray, d: int, tmin_full: int) -> bool:
    """Write frame ``d``'s next child into frame d + 1; False when there is none left.
    Moves from the draws to the plays when the draws are done (the caller closes them)."""
    r = ctx[C_R]
    if fr[d, F_PHASE] == 0:
        pmask = fr[d, F_PILE]
        while fr[d, F_DONE] == 0:
            sub = fr[d, F_CURSOR]
            if sub == 0:
                fr[d, F_DONE] = 1
            else:
                fr[d, F_CURSOR] = (sub - 1) & pmask
            if _popcount(sub) == fr[d, F_K]:
                fr[d + 1, F_TOPI:F_TOPI + 4] = fr[d, F_TOPI:F_TOPI + 4]
                fr[d + 1, F_HAND] = fr[d, F_HAND] | sub
                fr[d + 1, F_PILE] = pmask & ~sub
                fr[d + 1, F_LAID] = 0
                return True
        return False
    c = fr[d, F_CURSOR]
    if c < fr[d, F_NMOVES]:
        fr[d, F_CURSOR] = c + 1
        i = (fr[d, F_MOVES + c] & 63) >> 2
        p = fr[d, F_MOVES + c] & 3
        hmask = fr[d, F_HAND]
        fr[d + 1, F_TOPI:F_TOPI + 4] = fr[d, F_TOPI:F_TOPI + 4]
        fr[d + 1, F_TOPI + p] = i
        fr[d + 1, F_HAND] = hmask & ~(1 << i)
        fr[d + 1, F_PILE] = fr[d, F_PILE]
        fr[d + 1, F_LAID] = min(fr[d, F_LAID] + 1, tmin_full)
        return True
    return False


@njit(cache=True)
def _solve(ctx: np.ndarray, fr: np.ndarray, acc: np.ndarray, tmin_full: int, hand_size: int,
           keys: np.ndarray, vals: np.ndarray, gens: np.ndarray) -> float:
    """Chance of laying every card from the state in frame 0, under best play.

    Expectimax without recursion (numba cannot cache recursive functions): frame d holds a
    state and where its children stand; a finished state goes into the table and its value
    to its parent, as a mean over draws or a maximum over plays.
    """
    v = _known(ctx, fr, 0, keys, vals, gens)
    if v >= 0.0:
        return v
    _open(ctx, fr, 0, acc, tmin_full, hand_size)
    d = 0
    while True:
        finished = False
        if acc[d, 0] >= 1.0:
            finished = True
        elif _next_child(ctx, fr, d, tmin_full):
            v = _known(ctx, fr, d + 1, keys, vals, gens)
            if v < 0.0:
                d += 1
                _open(ctx, fr, d, acc, tmin_full, hand_size)
                continue
        elif fr[d, F_PHASE] == 0:  # draws done: their mean, then the plays
            acc[d, 0] = acc[d, 1] / acc[d, 2]
            fr[d, F_PHASE] = 1
            _list_plays(ctx, fr, d)
            continue
        else:
            finished = True
        if finished:  # store the state's value and hand it to its parent
            v = acc[d, 0]
            s = fr[d, F_SLOT]
            if s != -keys.size - 1:  # the free slot seen when the state was opened
                s = -s - 1
                keys[s] = fr[d, F_KEY]
                vals[s] = v
                gens[s] = ctx[C_GEN]
            if d == 0:
                return v
            d -= 1
        if fr[d, F_PHASE] == 0:
            acc[d, 1] += v
            acc[d, 2] += 1.0
        elif v > acc[d, 0]:
            acc[d, 0] = v


@njit(cache=True)
def _value(ctx: np.ndarray, fr: np.ndarray, acc: np.ndarray, topi: np.ndarray, hmask: int,
           pmask: int, laid: int, tmin_full: int, hand_size: int, keys: np.ndarray,
           vals: np.ndarray, gens: np.ndarray) -> float:
    """Chance of laying every card from the given state under best play."""
    fr[0, F_TOPI:F_TOPI + 4] = topi
    fr[0, F_HAND] = hmask
    fr[0, F_PILE] = pmask
    fr[0, F_LAID] = laid
    return _solve(ctx, fr, acc, tmin_full, hand_size, keys, vals, gens)


@njit(cache=True)
def _draw_value(ctx: np.ndarray, fr: np.ndarray, acc: np.ndarray, topi: np.ndarray,
                hmask: int, pmask: int, tmin_full: int, hand_size: int, keys: np.ndarray,
                vals: np.ndarray, gens: np.ndarray) -> float:
    """Chance of winning after ending the turn here: the mean over the equally likely draws."""
    k = min(hand_size - _popcount(hmask), _popcount(pmask))
    total = 0.0
    count = 0
    sub = pmask
    while True:  # every subset of the pile with k cards
        if _popcount(sub) == k:
            total += _value(ctx, fr, acc, topi, hmask | sub, pmask & ~sub, 0, tmin_full,
                            hand_size, keys, vals, gens)
            count += 1
        if sub == 0:
            break
        sub = (sub - 1) & pmask
    return total / count


@njit(cache=True)
def start_exact(ctx: np.ndarray, tops: np.ndarray, unlaid: np.ndarray) -> bool:
    """Index the unlaid cards and the tops for exact play; False if there are too many."""
    r = 0
    ctx[C_INDEX:] = -1
    for c in range(LOW_CARD, HIGH_CARD + 1):
        if unlaid[c]:
            if r == MAX_CARDS:
                return False
            ctx[C_CARDS + r] = c
            ctx[C_INDEX + c] = r
            r += 1
    ctx[C_R] = r
    ctx[C_GEN] += 1
    for p in range(4):
        ctx[C_ORIG + p] = tops[p]
    return True


@njit(cache=True)
def _state(ctx: np.ndarray, tops: np.ndarray, hand: np.ndarray, n: int,
           unlaid: np.ndarray, topi: np.ndarray) -> tuple[int, int]:
    """The indexed tops (into ``topi``), hand mask and pile mask of a position."""
    r = ctx[C_R]
    hmask = 0
    pmask = 0
    topi[:] = r
    for i in range(r):
        c = ctx[C_CARDS + i]
        if unlaid[c]:
            pmask |= 1 << i
        for p in range(4):
            if tops[p] == c:
                topi[p] = i
        for k in range(n):
            if hand[k] == c:
                hmask |= 1 << i
    pmask &= ~hmask
    for p in range(4):
        if tops[p] == ctx[C_ORIG + p]:
            topi[p] = r
    return hmask, pmask


@njit(cache=True)
def endgame_turn(ctx: np.ndarray, tops: np.ndarray, hand: np.ndarray, n: int,
                 unlaid: np.ndarray, tmin_full: int, hand_size: int, keys: np.ndarray,
                 vals: np.ndarray, gens: np.ndarray, out_slots: np.ndarray,
                 out_piles: np.ndarray) -> tuple[int, float]:
    """The best turn from here: (number of plays written to out_slots/out_piles, chance of
    winning). Plays nothing when the chance is 0 (the caller's own player decides then).

    Ties: ending the turn before another card, then the lowest card index, then pile order.
    """
    topi = np.empty(4, dtype=np.int64)
    fr = np.empty((MAX_FRAMES, F_SIZE), dtype=np.int64)
    acc = np.empty((MAX_FRAMES, 3))
    hmask, pmask = _state(ctx, tops, hand, n, unlaid, topi)
    laid = 0
    chance = _value(ctx, fr, acc, topi, hmask, pmask, 0, tmin_full, hand_size, keys, vals,
                    gens)
    if chance <= 0.0:
        return 0, 0.0
    r = ctx[C_R]
    nplay = 0
    while hmask != 0:
        if pmask != 0 and laid >= tmin_full:
            stop = _draw_value(ctx, fr, acc, topi, hmask, pmask, tmin_full, hand_size, keys,
                               vals, gens)
            if stop >= chance - 1e-12:
                break
        nxt = min(laid + 1, tmin_full)
        best = -1.0
        bi = -1
        bp = -1
        for i in range(r):
            if not (hmask >> i) & 1:
                continue
            for p in range(4):
                ti = topi[p]
                top = ctx[C_CARDS + ti] if ti < r else ctx[C_ORIG + p]
                if not is_playable(p, top, ctx[C_CARDS + i]):
                    continue
                topi[p] = i
                v = _value(ctx, fr, acc, topi, hmask & ~(1 << i), pmask, nxt, tmin_full,
                           hand_size, keys, vals, gens)
                topi[p] = ti
                if v > best + 1e-12:
                    best = v
                    bi = i
                    bp = p
        if bi < 0:
            break
        card = ctx[C_CARDS + bi]
        for k in range(n):
            if hand[k] == card:
                out_slots[nplay] = k
        out_piles[nplay] = bp
        nplay += 1
        topi[bp] = bi
        hmask &= ~(1 << bi)
        laid = nxt
        if pmask == 0 and chance >= 1.0 - 1e-12 and hmask != 0:
            continue  # pile empty and the rest can be cleared: lay it all now
        if pmask == 0:
            break
    return nplay, chance
