"""The batch kernel: whole games between configured bots, one game per seed, in numba.

A bot is one row of ``cfg``: ``[kind, depth, k, sampled, leaf mode, table, deepen,
payment policy, weights...]`` (see :func:`games.splendor._players.bot_row`; the policy pays
the buy the bot chose, see :mod:`games.splendor._payment`). Game ``g`` deals from its own
seed and its bots draw from a second stream of the same seed, so a game never depends on
which block or process plays it. With ``check`` the game's invariants are tested after
every turn and the first failure's code is written per game (0: none).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.splendor._cards import COLOUR, POINTS
from games.splendor._deal import rand_below, setup
from games.splendor._features import NV
from games.splendor._heuristics import N_COEF
from games.splendor._minimax import minimax
from games.splendor._payment import pay_as
from games.splendor._rules import (
    DECK_OFF,
    GEMS_FOR,
    GOLD_TOKENS,
    MAX_LEGAL,
    O_BANK,
    O_BOARD,
    O_BON,
    O_CAPPED,
    O_CUR,
    O_DECK,
    O_DONE,
    O_DPTR,
    O_NCARD,
    O_NNOB,
    O_NOB,
    O_NOBOWN,
    O_NP,
    O_OWNER,
    O_PHASE,
    O_PTS,
    O_RES,
    O_ROUND,
    O_TOK,
    PH_MAIN,
    SIZE,
    TIER_SIZE,
    TOKEN_LIMIT,
    WIN_POINTS,
    apply_move,
    legal_moves,
    outcome,
)
from games.splendor._search import (
    greedy,
    random_main,
    random_search,
    resolve,
    resolve_random,
    sub_decision,
    view,
)
from games.splendor._ttable import C_GEN, N_COUNTERS, table_bits, tables

K_RANDOM, K_GREEDY, K_MINIMAX, K_ALPHABETA, K_RSEARCH = 0, 1, 2, 3, 4
CFG_KIND, CFG_DEPTH, CFG_K, CFG_SAMPLED, CFG_LEAF, CFG_TT, CFG_DEEPEN, CFG_PAY, CFG_W = range(9)
#: F's weights, then a learned value's (:data:`games.splendor._features.NV`; zeros for every
#: bot that is not learned)
CFG_SIZE = CFG_W + N_COEF + NV
BOT_STREAM = np.uint64(0x5DEECE66D2545F49)

# invariant failure codes (bits)
E_TOKENS, E_LIMIT, E_CARDS, E_NOBLES, E_POINTS, E_RESERVED, E_BONUS = 1, 2, 4, 8, 16, 32, 64


@njit(cache=True)
def check_invariants(s: np.ndarray, full: bool, seen: np.ndarray, tally: np.ndarray) -> int:
    """0 when ``s`` (a true position between turns) keeps every invariant, else E_* bits.

    Always: tokens conserved per colour and never negative, at most 10 per player, reserves
    packed and at most 3, nobles distinct, 90 cards counted (board, reserves, decks,
    bought). With ``full`` also every card id exactly once, and points, bonuses and noble
    counts equal to what the bought cards and visiting nobles give. ``seen`` (90 ints) and
    ``tally`` (4 x 8 ints) are scratch space.
    """
    err = 0
    players = s[O_NP]
    for c in range(6):
        total = s[O_BANK + c]
        for p in range(players):
            total += s[O_TOK + 6 * p + c]
        if total != (GOLD_TOKENS if c == 5 else GEMS_FOR[players]) or s[O_BANK + c] < 0:
            err |= E_TOKENS
    counted = 0
    for p in range(players):
        tok = 0
        for c in range(6):
            tok += s[O_TOK + 6 * p + c]
            if s[O_TOK + 6 * p + c] < 0:
                err |= E_TOKENS
        if tok > TOKEN_LIMIT:
            err |= E_LIMIT
        gap = False
        for j in range(3):
            card = s[O_RES + 3 * p + j]
            if card < 0:
                gap = True
            elif gap or card >= 90:
                err |= E_RESERVED
            else:
                counted += 1
        counted += s[O_NCARD + p]
    for i in range(12):
        if s[O_BOARD + i] >= 90:
            err |= E_CARDS
        elif s[O_BOARD + i] >= 0:
            counted += 1
    for t in range(3):
        counted += TIER_SIZE[t] - s[O_DPTR + t]
    if counted != 90:
        err |= E_CARDS
    for k in range(5):
        nob = s[O_NOB + k]
        if nob < 0:  # the table's nobles fill the first slots (one more than the players,
            if k + 1 < 5 and s[O_NOB + k + 1] >= 0:  # or the rules' count)
                err |= E_NOBLES
            continue
        for k2 in range(k):
            if s[O_NOB + k2] == nob:
                err |= E_NOBLES
    if full:
        err |= _check_cards(s, seen, tally)
    return err


@njit(cache=True)
def _check_cards(s: np.ndarray, seen: np.ndarray, tally: np.ndarray) -> int:
    """Every card id exactly once; points, bonuses and nobles consistent with ownership."""
    err = 0
    players = s[O_NP]
    seen[:] = 0
    tally[:] = 0
    for i in range(12):
        if 0 <= s[O_BOARD + i] < 90:
            seen[s[O_BOARD + i]] += 1
    for p in range(players):
        for j in range(3):
            card = s[O_RES + 3 * p + j]
            if 0 <= card < 90:
                seen[card] += 1
    for t in range(3):
        for k in range(s[O_DPTR + t], TIER_SIZE[t]):
            seen[s[O_DECK + DECK_OFF[t] + k]] += 1
    for c in range(90):
        q = s[O_OWNER + c]
        if q >= 0:
            seen[c] += 1
            tally[q, 0] += 1
            tally[q, 1] += POINTS[c]
            tally[q, 3 + COLOUR[c]] += 1
    for c in range(90):
        if seen[c] != 1:
            err |= E_CARDS
    for k in range(5):
        if s[O_NOB + k] >= 0 and s[O_NOBOWN + k] >= 0:
            tally[s[O_NOBOWN + k], 2] += 1
    for p in range(players):
        if tally[p, 0] != s[O_NCARD + p]:
            err |= E_CARDS
        if tally[p, 2] != s[O_NNOB + p]:
            err |= E_NOBLES
        if tally[p, 1] + 3 * tally[p, 2] != s[O_PTS + p]:
            err |= E_POINTS
        for c in range(5):
            if tally[p, 3 + c] != s[O_BON + 5 * p + c]:
                err |= E_BONUS
    return err


@njit(cache=True)
def _decide(s: np.ndarray, row: np.ndarray, rng: np.ndarray, root: np.ndarray,
            kids: np.ndarray, moves: np.ndarray, keys: np.ndarray, order: np.ndarray,
            scratch: np.ndarray, line: np.ndarray, tkeys: np.ndarray, tvals: np.ndarray,
            tinfo: np.ndarray, count: np.ndarray) -> int:
    """The main move of the bot ``row`` for the player to move in ``s`` (the table arrays
    and counters: see games.splendor._ttable), a buy paid by the bot's payment policy."""
    m = _search(s, row, rng, root, kids, moves, keys, order, scratch, line, tkeys, tvals,
                tinfo, count)
    return m if row[CFG_PAY] == 0.0 else pay_as(s, m, int(row[CFG_PAY]))


@njit(cache=True)
def _search(s: np.ndarray, row: np.ndarray, rng: np.ndarray, root: np.ndarray,
            kids: np.ndarray, moves: np.ndarray, keys: np.ndarray, order: np.ndarray,
            scratch: np.ndarray, line: np.ndarray, tkeys: np.ndarray, tvals: np.ndarray,
            tinfo: np.ndarray, count: np.ndarray) -> int:
    """The main move the bot ``row`` chooses (buys as plain codes: paid gold last)."""
    kind = int(row[CFG_KIND])
    if kind == K_RANDOM:
        return random_main(s, rng, moves[0])
    w = row[CFG_W:]
    view(s, s[O_CUR], int(row[CFG_SAMPLED]), rng, root)
    if kind == K_GREEDY:
        return greedy(root, w, scratch, moves[0])
    if kind == K_RSEARCH:
        return random_search(root, int(row[CFG_DEPTH]), int(row[CFG_K]), w, rng, line,
                             scratch, moves[0])
    return minimax(root, int(row[CFG_DEPTH]), w, int(row[CFG_LEAF]), kids, moves, keys, order,
                   kind == K_ALPHABETA, tkeys, tvals, tinfo, count, row[CFG_TT] != 0.0,
                   row[CFG_DEEPEN] != 0.0)


@njit(cache=True)
def workspace(levels: int) -> tuple:
    """Scratch arrays for searches up to ``levels`` turns deep."""
    levels = max(levels, 1) + 1
    return (np.empty(SIZE, dtype=np.int64), np.empty((levels, MAX_LEGAL, SIZE), dtype=np.int64),
            np.empty((levels, MAX_LEGAL), dtype=np.int64),
            np.empty((levels, MAX_LEGAL), dtype=np.float64),
            np.empty((levels, MAX_LEGAL), dtype=np.int64),
            np.empty(SIZE, dtype=np.int64), np.empty(SIZE, dtype=np.int64))


@njit(cache=True, nogil=True)
def play_batch(seeds: np.ndarray, seating: np.ndarray, cfg: np.ndarray, cap: int,
               check: bool, result: np.ndarray, points: np.ndarray, rounds: np.ndarray,
               capped: np.ndarray, errors: np.ndarray, win: int, nobles: int) -> None:
    """Play one game per seed; seat k of game g is played by bot ``seating[g, k]``."""
    players = seating.shape[1]
    levels = 1
    for b in range(cfg.shape[0]):
        levels = max(levels, int(cfg[b, CFG_DEPTH]))
    root, kids, moves, keys, order, scratch, line = workspace(levels)
    tkeys, tvals, tinfo, count = tables(_table_bits(cfg))
    s = np.empty(SIZE, dtype=np.int64)
    deal = np.empty(1, dtype=np.uint64)
    rng = np.empty(1, dtype=np.uint64)
    res = np.empty(players, dtype=np.int64)
    seen = np.empty(90, dtype=np.int64)
    tally = np.empty((4, 8), dtype=np.int64)
    for g in range(seeds.size):
        deal[0] = seeds[g]
        rng[0] = seeds[g] ^ BOT_STREAM
        setup(s, players, cap, deal, win, nobles)
        err = 0
        last_owned = 0
        while not s[O_DONE]:
            p = s[O_CUR]
            row = cfg[seating[g, p]]
            if s[O_PHASE] == PH_MAIN:
                m = _decide(s, row, rng, root, kids, moves, keys, order, scratch, line, tkeys,
                            tvals, tinfo, count)
                apply_move(s, m)
            if int(row[CFG_KIND]) == K_RANDOM:
                resolve_random(s, p, rng)
            else:
                resolve(s, p, row[CFG_W:])
            if check and err == 0:
                # the full check whenever a card or noble changed hands, and at the end
                owned = 0
                for q in range(players):
                    owned += s[O_NCARD + q] + s[O_NNOB + q]
                err = check_invariants(s, owned != last_owned or s[O_DONE] == 1, seen, tally)
                last_owned = owned
        outcome(s, res)
        for p in range(players):
            result[g, p] = res[p]
            points[g, p] = s[O_PTS + p]
        rounds[g] = s[O_ROUND]
        capped[g] = s[O_CAPPED]
        errors[g] = err


@njit(cache=True)
def _table_bits(cfg: np.ndarray) -> int:
    """log2 of the table size the bots of ``cfg`` (rows) need: 0 when none uses one."""
    bits = 0
    for b in range(cfg.shape[0]):
        if cfg[b, CFG_TT] != 0.0:
            bits = max(bits, table_bits(int(cfg[b, CFG_DEPTH])))
    return bits


@njit(cache=True)
def decide(s: np.ndarray, row: np.ndarray, rng: np.ndarray) -> int:
    """The decision bot ``row`` takes in ``s`` for the phase due (the turn-level API's bots)."""
    return decide_counted(s, row, rng, np.zeros(N_COUNTERS, dtype=np.int64))


@njit(cache=True)
def decide_counted(s: np.ndarray, row: np.ndarray, rng: np.ndarray, total: np.ndarray) -> int:
    """:func:`decide`, adding the search's counters to ``total`` (games.splendor._ttable.C_*:
    searches, positions generated, table probes, hits and writes)."""
    p = s[O_CUR]
    moves = np.empty(8, dtype=np.int64)
    if s[O_PHASE] != PH_MAIN:
        if int(row[CFG_KIND]) == K_RANDOM:
            n = legal_moves(s, moves)
            return moves[rand_below(rng, n)]
        return sub_decision(s, p, row[CFG_W:])
    root, kids, mv, keys, order, scratch, line = workspace(max(int(row[CFG_DEPTH]), 1))
    tkeys, tvals, tinfo, count = tables(_table_bits(row.reshape(1, -1)))
    m = _decide(s, row, rng, root, kids, mv, keys, order, scratch, line, tkeys, tvals, tinfo,
                count)
    total[C_GEN:] += count[C_GEN:]
    return m


def run_games(seeds: np.ndarray, seating: np.ndarray, cfg: np.ndarray, cap: int,
              check: bool = False, win: int = WIN_POINTS, nobles: int = 0
              ) -> dict[str, np.ndarray]:
    """Python entry: allocate the outputs and play (``seeds`` uint64, ``seating`` int64;
    ``win`` and ``nobles``: the rules of :func:`games.splendor._deal.setup`)."""
    count, players = seating.shape
    out = {"outcome": np.zeros((count, players), dtype=np.int64),
           "score": np.zeros((count, players), dtype=np.int64),
           "turns": np.zeros(count, dtype=np.int64),
           "capped": np.zeros(count, dtype=np.int64),
           "errors": np.zeros(count, dtype=np.int64)}
    play_batch(np.ascontiguousarray(seeds, dtype=np.uint64),
               np.ascontiguousarray(seating, dtype=np.int64),
               np.ascontiguousarray(cfg, dtype=np.float64), int(cap), bool(check),
               out["outcome"], out["score"], out["turns"], out["capped"], out["errors"],
               int(win), int(nobles))
    return out
