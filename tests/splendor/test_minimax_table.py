"""The transposition table and iterative deepening of the Splendor minimax: the same moves
and values as without them, fewer positions searched, and the table's bound rules."""

from __future__ import annotations

import numpy as np
import pytest

from games.core import BotSpec, InputError
from games.splendor import _rules as R
from games.splendor._heuristics import LEAF_MODES
from games.splendor._kernel import CFG_DEEPEN, CFG_TT, CFG_W, decide_counted, workspace
from games.splendor._minimax import _children, _minimax
from games.splendor._players import bot_row, make_bot
from games.splendor._search import NEG, POS, view
from games.splendor._ttable import (
    C_GEN,
    C_HITS,
    C_NODES,
    C_STORES,
    EXACT,
    LOWER,
    N_COUNTERS,
    UPPER,
    lookup,
    position_key,
    store,
    table_bits,
    tables,
)
from games.splendor.game import GAME
from tests.splendor.test_search import choice, positions


@pytest.mark.parametrize("players, depth, weights, leaf", [
    (2, 3, "minimax", "root"), (2, 4, "minimax2", "root"), (3, 3, "minimax", "difference"),
    (2, 4, "minimax", "difference"), (2, 3, "minimax2", "mover"), (3, 4, "minimax2", "mover")])
def test_table_and_deepening_keep_plain_minimax_move(players, depth, weights, leaf):
    for st in positions(10 if depth < 4 else 5, players, seed=11):
        plain = choice(st, weights, depth=depth, prune=False, leaf=leaf, tt=False,
                       deepen=False)
        for tt, deepen in ((True, False), (False, True), (True, True)):
            fast = choice(st, weights, depth=depth, leaf=leaf, tt=tt, deepen=deepen)
            assert fast == plain, (tt, deepen, st.describe())
        assert choice(st, weights, depth=depth, prune=False, leaf=leaf, tt=True) == plain


def _searcher(st, depth: int, leaf: str, prune: bool, tt: bool):
    """(number of root children, search(i, alpha, beta)): child i searched ``depth - 1``
    turns in the window, every call of one searcher sharing one table (one search)."""
    row = bot_row("minimax2", make_bot("minimax2", {"depth": depth, "leaf": leaf}).params)
    w = np.ascontiguousarray(row[CFG_W:])
    s = np.empty_like(st.array)
    view(st.array, st.current_player(), 0, np.array([1], dtype=np.uint64), s)
    _, kids, moves, keys, order, _, _ = workspace(depth)
    tk, tv, ti, count = tables(table_bits(depth))
    count[C_GEN] = 1
    root = int(s[R.O_CUR])
    n = _children(s, w, kids[0], moves[0], count)
    first = kids[0, :n].copy()
    mode = LEAF_MODES.index(leaf)

    def search(i: int, alpha: float, beta: float) -> float:
        return _minimax(first[i], root, root, depth - 1, alpha, beta, w, mode, kids, moves,
                        keys, order, prune, tk, tv, ti, count, tt)

    return n, search


@pytest.mark.parametrize("leaf", ["root", "difference"])
def test_table_gives_the_same_values(leaf):
    """Full-window values of every root child: plain, alpha-beta, each with the table."""
    for st in positions(4, seed=5):
        n, plain = _searcher(st, 4, leaf, False, False)
        exact = [plain(i, NEG, POS) for i in range(n)]
        for prune, tt in ((False, True), (True, False), (True, True)):
            n, fast = _searcher(st, 4, leaf, prune, tt)
            assert [fast(i, NEG, POS) for i in range(n)] == exact


@pytest.mark.parametrize("depth", [3, 4])
def test_table_bounds_stay_bounds_across_windows(depth):
    """Alpha-beta with the table, child by child: a window above the value fails low, one
    below fails high, one around it gives it exactly, and a full window afterwards (the
    table now holding the bounds of those searches) still gives the exact value; windows
    near and far from the value."""
    for st in greedy_positions(4, seed=21):
        n, plain = _searcher(st, depth, "root", False, False)
        exact = [plain(i, NEG, POS) for i in range(n)]
        for gap in (1e-6, 2.0, 20.0):  # each with a table of its own
            n, fast = _searcher(st, depth, "root", True, True)
            for i, v in enumerate(exact):
                assert fast(i, v + gap, POS) <= v + gap
                assert fast(i, NEG, v - gap) >= v - gap
                assert fast(i, v - gap, v + gap) == v
                assert fast(i, NEG, POS) == v


def greedy_positions(count: int, seed: int) -> list:
    """Mid-game positions of Greedy against Greedy (10 to 30 turns in)."""
    rng = np.random.default_rng(seed)
    bot = make_bot("greedy")
    out = []
    for i in range(count):
        st = GAME.new_state({}, seed + i, 2)
        for _ in range(int(rng.integers(10, 30))):
            if st.is_terminal():
                break
            st.apply(bot.act(st))
        if not st.is_terminal() and st.phase == "main":
            out.append(st)
    return out


def test_table_searches_fewer_positions_at_depth_five():
    total = {False: np.zeros(N_COUNTERS, dtype=np.int64),
             True: np.zeros(N_COUNTERS, dtype=np.int64)}
    for st in greedy_positions(6, seed=9):
        for tt in (False, True):
            row = bot_row("minimax", make_bot("minimax", {"depth": 5, "tt": tt,
                                                          "deepen": tt}).params)
            decide_counted(st.array.copy(), row, np.array([1], dtype=np.uint64), total[tt])
    assert total[False][C_HITS] == 0 and total[False][C_STORES] == 0
    assert total[True][C_HITS] > 0
    assert total[True][C_NODES] < total[False][C_NODES]


def test_position_key_covers_the_state_and_the_search():
    st = positions(1, seed=3)[0]
    a = st.array.copy()
    key = position_key(a, 1)
    assert position_key(a.copy(), 1) == key
    assert position_key(a, 2) != key
    b = a.copy()
    b[R.O_BANK + 1] += 1  # one bank colour
    assert position_key(b, 1) != key
    b = a.copy()
    b[R.O_SIM] += 1  # turns simulated: a different depth left
    assert position_key(b, 1) != key


def test_lookup_uses_a_bound_only_when_it_settles_the_window():
    tk, tv, ti, count = tables(10)
    count[C_GEN] = 1
    key = np.int64(12345)
    store(tk, tv, ti, count, key, 3, 5.0, LOWER, 17)
    assert lookup(tk, tv, ti, count, key, 3, 0.0, 4.0) == (True, 5.0, 17)
    assert lookup(tk, tv, ti, count, key, 3, 0.0, 6.0)[0::2] == (False, 17)
    assert lookup(tk, tv, ti, count, key, 2, 0.0, 4.0)[0::2] == (False, 17)  # other depth
    store(tk, tv, ti, count, key, 3, 5.0, UPPER, 8)
    assert lookup(tk, tv, ti, count, key, 3, 5.0, 9.0) == (True, 5.0, 8)
    assert not lookup(tk, tv, ti, count, key, 3, 4.0, 9.0)[0]
    store(tk, tv, ti, count, key, 3, 5.0, EXACT, 2)
    assert lookup(tk, tv, ti, count, key, 3, 6.0, 9.0) == (True, 5.0, 2)
    assert lookup(tk, tv, ti, count, np.int64(54321), 3, 0.0, 9.0) == (False, 0.0, -1)


def test_deeper_entry_keeps_its_slot():
    tk, tv, ti, count = tables(10)
    count[C_GEN] = 1
    deep, shallow = np.int64(4), np.int64(4 + 1024)  # one bucket
    store(tk, tv, ti, count, deep, 4, 1.0, EXACT, 1)
    store(tk, tv, ti, count, shallow, 2, 2.0, EXACT, 2)
    assert lookup(tk, tv, ti, count, deep, 4, 0.0, 9.0)[0]
    assert lookup(tk, tv, ti, count, shallow, 2, 0.0, 9.0)[0]


def test_matches_play_the_same_with_and_without_the_aids():
    """Whole games: Minimax(4) with table and deepening (its default) plays every move as
    without them, so the results are identical."""
    with_aids = GAME.play([BotSpec("minimax", {"depth": 4}), BotSpec("greedy")], {}, 3, 0, 6)
    without = GAME.play([BotSpec("minimax", {"depth": 4, "tt": False, "deepen": False}),
                         BotSpec("greedy")], {}, 3, 0, 6)
    assert np.array_equal(with_aids.outcome, without.outcome)
    assert np.array_equal(with_aids.score, without.score)
    assert np.array_equal(with_aids.turns, without.turns)


def test_aids_default_on_from_depth_four_and_bad_values_refused():
    for depth, on in ((3, 0.0), (4, 1.0), (5, 1.0)):
        row = bot_row("minimax", make_bot("minimax", {"depth": depth}).params)
        assert row[CFG_TT] == on and row[CFG_DEEPEN] == on
    row = bot_row("minimax2", make_bot("minimax2", {"depth": 5, "tt": 0}).params)
    assert row[CFG_TT] == 0.0 and row[CFG_DEEPEN] == 1.0
    spec = GAME.parse_bot("minimax:3,tt=1,deepen=true")
    assert spec.params == {"depth": 3, "tt": 1, "deepen": True}
    with pytest.raises(InputError, match="'tt'"):
        make_bot("minimax", {"tt": 2})
