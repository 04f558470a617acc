"""Plans of the online genetic players, simulated over the searching seat's view (numba).

A plan covers the next ``depth`` turns of every seat, starting with the searcher's: its own
turns follow the chromosome, every other seat is modelled by Greedy with the searcher's F
(or with other weights given after F's, the players' ``opponent``),
and the end (or the game's end) is scored with F from the searcher's seat. Within a turn the
return and noble decisions are taken greedily with F, as in the other search players.
Encodings (the thesis's chapter 5):

- ``ENC_INDEX`` (IndexMove): gene g plays legal move ``g mod n`` of the position reached.
- ``ENC_SKIP`` / ``ENC_REPAIR`` (ExactMove): genes index an alphabet of exact moves fixed
  at the root (buy card c, reserve card c, reserve blind from tier t, take these colours,
  take two of one colour). An illegal gene is skipped (the next gene is read; twice as many
  genes as own turns) or, with repair, it and every later gene are regenerated as random
  legal moves during the evaluation and written back into the chromosome.
- ``ENC_ORDER`` (BuyOrder, BuyAndDeny): genes are a permutation of goals (buy card c; with
  denies also reserve card c for every face-up card); each own turn :func:`seek` turns the
  first goal still open into a move. With the Greedy goal (``GOAL_GREEDY``, the players'
  ``start=greedy``) the genes after it are never read: from it on Greedy plays the turns.

Own turns with nothing to play (a skip chromosome read to its end, every goal closed) are
played by Greedy with F. Each batch call scores a whole population.

Speed: Greedy's replies take most of a plan's time, and the plans of one move share most of
their positions (the population converges). A move's plans therefore share a transposition
table of decisions: position (hashed twice, 128 bits in all) and question (Greedy's move,
or BuySeeker's answer for goal g) -> answer. Both are functions of the position alone, so
the table changes no result, only the time.

Longer than 400 lines on purpose: the goal seekers, the exact-move alphabet, the table and
the plan simulation are one call graph of numba functions compiled together into
:func:`evaluate_plans`; each encoding's pieces are read next to the loop that uses them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.splendor._cards import COST, HIDDEN
from games.splendor._deal import rand_below
from games.splendor._heuristics import N_COEF, score
from games.splendor._rules import (
    M_BLIND,
    M_BUY,
    M_BUYRES,
    M_RESERVE,
    M_TAKE,
    M_TAKE2,
    MAX_LEGAL,
    O_BOARD,
    O_BON,
    O_CUR,
    O_DECK,
    O_DONE,
    O_NP,
    O_REFILL,
    O_RES,
    O_TOK,
    SIZE,
    apply_move,
    can_afford,
    copy_state,
    legal_main,
    n_reserved,
)
from games.splendor._search import greedy, resolve

ENC_INDEX, ENC_SKIP, ENC_REPAIR, ENC_ORDER = 0, 1, 2, 3
GOAL_BUY, GOAL_DENY, GOAL_GREEDY = 0, 1, 2
A_BUY, A_RESERVE, A_BLIND, A_TAKE, A_TAKE2 = 0, 1, 2, 3, 4
SKIP_SLACK = 2  # a skip chromosome holds this many genes per own turn
GONE, BLOCKED = -1, -2


@njit(cache=True)
def own_turns(depth: int, players: int) -> int:
    """Turns of the searching seat among the first ``depth`` turns (it moves first)."""
    return (depth + players - 1) // players


# --------------------------------------------------------------------------- goals


@njit(cache=True, inline="always")
def board_slot(s: np.ndarray, card: int) -> int:
    for i in range(12):
        if s[O_BOARD + i] == card:
            return i
    return -1


@njit(cache=True, inline="always")
def reserve_slot(s: np.ndarray, p: int, card: int) -> int:
    for j in range(3):
        if s[O_RES + 3 * p + j] == card:
            return j
    return -1


@njit(cache=True)
def order_goals(s: np.ndarray, p: int, deny: bool, cards: np.ndarray,
                kinds: np.ndarray) -> int:
    """The goals a BuyOrder (BuyAndDeny with ``deny``) chromosome permutes: buy each known
    face-up card and each own reserved card, then (denies) reserve each face-up card."""
    n = 0
    for i in range(12):
        c = s[O_BOARD + i]
        if 0 <= c < HIDDEN:
            cards[n] = c
            kinds[n] = GOAL_BUY
            n += 1
    for j in range(3):
        c = s[O_RES + 3 * p + j]
        if 0 <= c < HIDDEN:
            cards[n] = c
            kinds[n] = GOAL_BUY
            n += 1
    if deny:
        for i in range(12):
            c = s[O_BOARD + i]
            if 0 <= c < HIDDEN:
                cards[n] = c
                kinds[n] = GOAL_DENY
                n += 1
    return n


@njit(cache=True)
def shortfall(s: np.ndarray, p: int, card: int) -> int:
    """Tokens seat ``p`` still lacks for ``card`` after bonuses, its tokens and its gold."""
    short = 0
    for c in range(5):
        need = COST[card, c] - s[O_BON + 5 * p + c] - s[O_TOK + 6 * p + c]
        if need > 0:
            short += need
    short -= s[O_TOK + 6 * p + 5]
    return short if short > 0 else 0


@njit(cache=True)
def seek(s: np.ndarray, p: int, card: int, kind: int, w: np.ndarray, moves: np.ndarray,
         tmp: np.ndarray) -> int:
    """BuySeeker: seat ``p``'s move towards one goal; GONE when the goal is closed (card
    bought, reserved or taken by another seat), BLOCKED when it cannot act on it now.

    Buy: buy it if affordable; else reserve it if another seat could buy it; else the take
    (returns resolved with F) that leaves the smallest shortfall, Take 3 before Take 2 on
    ties (the legal order); with no take left, reserve it. Deny: reserve it.
    """
    slot = board_slot(s, card)
    room = n_reserved(s, p) < 3
    if kind == GOAL_DENY:
        return M_RESERVE + slot if slot >= 0 and room else GONE
    j = -1
    if slot < 0:
        j = reserve_slot(s, p, card)
        if j < 0:
            return GONE
    if can_afford(s, p, card):
        return M_BUY + slot if slot >= 0 else M_BUYRES + j
    if slot >= 0 and room:
        for q in range(s[O_NP]):
            if q != p and can_afford(s, q, card):
                return M_RESERVE + slot
    n = legal_main(s, moves)
    best = 1 << 30
    pick = BLOCKED
    for i in range(n):
        m = moves[i]
        if m < M_TAKE or m >= M_RESERVE:
            continue
        copy_state(tmp, s)
        apply_move(tmp, m)
        resolve(tmp, p, w)
        short = shortfall(tmp, p, card)
        if short < best:
            best = short
            pick = m
    if pick == BLOCKED and slot >= 0 and room:
        pick = M_RESERVE + slot
    return pick


# --------------------------------------------------------------------------- exact moves


@njit(cache=True)
def exact_alphabet(s: np.ndarray, p: int, ak: np.ndarray, av: np.ndarray) -> int:
    """ExactMove's genes at this root: (kind, value) of every exact move it can name."""
    n = 0
    for i in range(12):
        c = s[O_BOARD + i]
        if 0 <= c < HIDDEN:
            ak[n], av[n] = A_BUY, c
            n += 1
    for j in range(3):
        c = s[O_RES + 3 * p + j]
        if 0 <= c < HIDDEN:
            ak[n], av[n] = A_BUY, c
            n += 1
    for r in range(25):
        ak[n], av[n] = A_TAKE, r
        n += 1
    for c in range(5):
        ak[n], av[n] = A_TAKE2, c
        n += 1
    for i in range(12):
        c = s[O_BOARD + i]
        if 0 <= c < HIDDEN:
            ak[n], av[n] = A_RESERVE, c
            n += 1
    for t in range(3):
        ak[n], av[n] = A_BLIND, t
        n += 1
    return n


@njit(cache=True)
def exact_move(s: np.ndarray, p: int, kind: int, value: int, legal: np.ndarray,
               n: int) -> int:
    """The move an exact gene names here, or -1 when it is illegal."""
    if kind == A_BUY:
        slot = board_slot(s, value)
        if slot >= 0:
            return M_BUY + slot if can_afford(s, p, value) else -1
        j = reserve_slot(s, p, value)
        return M_BUYRES + j if j >= 0 and can_afford(s, p, value) else -1
    if kind == A_RESERVE:
        slot = board_slot(s, value)
        return M_RESERVE + slot if slot >= 0 and n_reserved(s, p) < 3 else -1
    m = M_TAKE + value if kind == A_TAKE else M_TAKE2 + value if kind == A_TAKE2 else \
        M_BLIND + value
    for i in range(n):
        if legal[i] == m:
            return m
    return -1


@njit(cache=True)
def exact_gene(s: np.ndarray, p: int, m: int, ak: np.ndarray, av: np.ndarray,
               size: int) -> int:
    """The alphabet index naming legal move ``m`` here (-1: a card unknown at the root)."""
    if m < M_BUYRES:
        kind, value = A_BUY, s[O_BOARD + m - M_BUY]
    elif m < M_TAKE:
        kind, value = A_BUY, s[O_RES + 3 * p + m - M_BUYRES]
    elif m < M_TAKE2:
        kind, value = A_TAKE, m - M_TAKE
    elif m < M_RESERVE:
        kind, value = A_TAKE2, m - M_TAKE2
    elif m < M_BLIND:
        kind, value = A_RESERVE, s[O_BOARD + m - M_RESERVE]
    else:
        kind, value = A_BLIND, m - M_BLIND
    for i in range(size):
        if ak[i] == kind and av[i] == value:
            return i
    return -1


@njit(cache=True)
def _repair(s: np.ndarray, p: int, legal: np.ndarray, n: int, ak: np.ndarray,
            av: np.ndarray, size: int, rng: np.ndarray, scratch: np.ndarray) -> int:
    """A uniformly random legal move that the alphabet can name, as its gene (-1: none)."""
    count = 0
    for i in range(n):
        g = exact_gene(s, p, legal[i], ak, av, size)
        if g >= 0:
            scratch[count] = g
            count += 1
    if count == 0:
        return -1
    return scratch[rand_below(rng, count)]


# --------------------------------------------------------------------------- decisions table

EMPTY = -(1 << 40)  # a free slot (no answer is this negative)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_G = np.uint64(0x9E3779B97F4A7C15)
_FNV = np.uint64(0x100000001B3)


def table_size(entries: int) -> int:
    """Slots of a decisions table for about ``entries`` answers (at most half full)."""
    return 1 << max(8, min(20, int(2 * max(entries, 1) - 1).bit_length()))


def new_table(entries: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty decisions table for about ``entries`` answers (keys, answers)."""
    size = table_size(entries)
    return np.zeros((2, size), dtype=np.uint64), np.full(size, EMPTY, dtype=np.int64)


@njit(cache=True, inline="always")
def _fmix(h: np.uint64) -> np.uint64:
    h = (h ^ (h >> np.uint64(30))) * _M1
    h = (h ^ (h >> np.uint64(27))) * _M2
    return h ^ (h >> np.uint64(31))


@njit(cache=True)
def position_hash(s: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """Two independent 64-bit hashes of a position (everything a decision can read)."""
    n = SIZE if s[O_REFILL] else O_DECK
    h1 = np.uint64(0xCBF29CE484222325)
    h2 = _G
    for i in range(n):
        x = np.uint64(s[i] & 0xFFFFFFFF)
        h1 = (h1 ^ x) * _FNV
        h2 = _fmix(h2 + x + np.uint64(i))
    return _fmix(h1), h2


@njit(cache=True)
def lookup(keys: np.ndarray, answers: np.ndarray, h1: np.uint64, h2: np.uint64,
           question: int) -> tuple[int, int]:
    """(answer or EMPTY, slot) of ``question`` about the position hashed (h1, h2)."""
    k1 = _fmix(h1 + np.uint64(question) * _G)
    k2 = h2 ^ (np.uint64(question + 1) * _M1)
    mask = answers.size - 1
    i = int(k1 >> np.uint64(40)) & mask
    while True:
        a = answers[i]
        if a == EMPTY or (keys[0, i] == k1 and keys[1, i] == k2):
            return a, i
        i = (i + 1) & mask


@njit(cache=True)
def store(keys: np.ndarray, answers: np.ndarray, h1: np.uint64, h2: np.uint64,
          question: int, slot: int, answer: int, used: np.ndarray) -> None:
    """Keep an answer in the free ``slot`` found by :func:`lookup` (while half empty)."""
    if 2 * used[0] < answers.size:
        keys[0, slot] = _fmix(h1 + np.uint64(question) * _G)
        keys[1, slot] = h2 ^ (np.uint64(question + 1) * _M1)
        answers[slot] = answer
        used[0] += 1


@njit(cache=True)
def greedy_at(line: np.ndarray, h1: np.uint64, h2: np.uint64, w: np.ndarray,
              scratch: np.ndarray, moves: np.ndarray, keys: np.ndarray, answers: np.ndarray,
              used: np.ndarray) -> int:
    """Greedy's move in ``line`` (hashed h1, h2), through the decisions table."""
    a, slot = lookup(keys, answers, h1, h2, 0)
    if a != EMPTY:
        return a
    a = greedy(line, w, scratch, moves)
    store(keys, answers, h1, h2, 0, slot, a, used)
    return a


@njit(cache=True)
def seek_at(line: np.ndarray, h1: np.uint64, h2: np.uint64, p: int, g: int,
            cards: np.ndarray, kinds: np.ndarray, w: np.ndarray, moves: np.ndarray,
            tmp: np.ndarray, keys: np.ndarray, answers: np.ndarray, used: np.ndarray) -> int:
    """BuySeeker's answer for goal ``g`` in ``line``, through the decisions table."""
    a, slot = lookup(keys, answers, h1, h2, 1 + g)
    if a != EMPTY:
        return a
    a = seek(line, p, cards[g], kinds[g], w, moves, tmp)
    store(keys, answers, h1, h2, 1 + g, slot, a, used)
    return a


# --------------------------------------------------------------------------- simulation


@njit(cache=True)
def _own_move(line: np.ndarray, h1: np.uint64, h2: np.uint64, p: int, genes: np.ndarray,
              ptr: int, enc: int, cards: np.ndarray, kinds: np.ndarray, ak: np.ndarray,
              av: np.ndarray, w: np.ndarray, rng: np.ndarray, work: np.ndarray,
              keys: np.ndarray, answers: np.ndarray, used: np.ndarray,
              repairing: np.ndarray) -> tuple[int, int]:
    """(move, next gene position) of one own turn of a plan (``work``: scratch rows)."""
    length = genes.size
    legal, moves, pool = work[0, :MAX_LEGAL], work[1, :MAX_LEGAL], work[2, :MAX_LEGAL]
    tmp, scratch = work[3], work[4]
    if enc == ENC_ORDER:
        while ptr < length:
            if kinds[genes[ptr]] == GOAL_GREEDY:
                break
            m = seek_at(line, h1, h2, p, genes[ptr], cards, kinds, w, moves, tmp, keys,
                        answers, used)
            if m == GONE:
                ptr += 1
                continue
            if m >= 0:
                return m, ptr
            break
        return greedy_at(line, h1, h2, w, scratch, moves, keys, answers, used), ptr
    n = legal_main(line, legal)
    if enc == ENC_INDEX:
        if ptr < length:
            return legal[genes[ptr] % n], ptr + 1
    elif enc == ENC_SKIP:
        while ptr < length:
            g = genes[ptr]
            ptr += 1
            m = exact_move(line, p, ak[g], av[g], legal, n)
            if m >= 0:
                return m, ptr
    elif ptr < length:  # ENC_REPAIR: an illegal gene regenerates the rest as play goes on
        g = genes[ptr]
        m = -1 if repairing[0] else exact_move(line, p, ak[g], av[g], legal, n)
        if m >= 0:
            return m, ptr + 1
        repairing[0] = 1
        g = _repair(line, p, legal, n, ak, av, ak.size, rng, pool)
        if g >= 0:
            genes[ptr] = g
            return exact_move(line, p, ak[g], av[g], legal, n), ptr + 1
        ptr += 1
    return greedy_at(line, h1, h2, w, scratch, moves, keys, answers, used), ptr


@njit(cache=True)
def plan_value(root: np.ndarray, genes: np.ndarray, enc: int, depth: int, cards: np.ndarray,
               kinds: np.ndarray, ak: np.ndarray, av: np.ndarray, w: np.ndarray,
               rng: np.ndarray, line: np.ndarray, work: np.ndarray, keys: np.ndarray,
               answers: np.ndarray, used: np.ndarray, out: np.ndarray) -> float:
    """Play one chromosome ``depth`` turns from ``root`` (a view); its F. ``out`` gets the
    first move and the number of genes read (the expressed prefix). ``w``: F's weights,
    optionally followed by the weights of the Greedy that models the other seats (their
    moves, returns and nobles; a position's mover fixes whose weights answer it, so the
    decisions table holds both)."""
    me = root[O_CUR]
    own, other = w[:N_COEF], w[w.size - N_COEF:]
    copy_state(line, root)
    ptr = 0
    read = 0
    first = -1
    repairing = np.zeros(1, dtype=np.int64)
    for _turn in range(depth):
        if line[O_DONE]:
            break
        p = line[O_CUR]
        h1, h2 = position_hash(line)
        if p == me:
            m, ptr = _own_move(line, h1, h2, p, genes, ptr, enc, cards, kinds, ak, av, own,
                               rng, work, keys, answers, used, repairing)
            read = max(read, min(ptr + (1 if enc == ENC_ORDER else 0), genes.size))
            if first < 0:
                first = m
            apply_move(line, m)
            resolve(line, p, own)
        else:
            m = greedy_at(line, h1, h2, other, work[4], work[1, :MAX_LEGAL], keys, answers,
                          used)
            apply_move(line, m)
            resolve(line, p, other)
    out[0] = first
    out[1] = read
    return score(line, me, own)


@njit(cache=True)
def evaluate_plans(root: np.ndarray, genes: np.ndarray, enc: int, depth: int,
                   cards: np.ndarray, kinds: np.ndarray, ak: np.ndarray, av: np.ndarray,
                   w: np.ndarray, rng: np.ndarray, keys: np.ndarray, answers: np.ndarray,
                   used: np.ndarray, fitness: np.ndarray, first: np.ndarray,
                   expressed: np.ndarray) -> None:
    """Score every row of ``genes`` (repairs written back into it); ``keys``, ``answers``
    and ``used`` are the move's decisions table (:func:`new_table`, ``used`` one int);
    ``w`` as :func:`plan_value` reads it."""
    line = np.empty(SIZE, dtype=np.int64)
    work = np.empty((5, SIZE), dtype=np.int64)
    out = np.empty(2, dtype=np.int64)
    for i in range(genes.shape[0]):
        fitness[i] = plan_value(root, genes[i], enc, depth, cards, kinds, ak, av, w, rng, line,
                                work, keys, answers, used, out)
        first[i] = out[0]
        expressed[i] = out[1]
