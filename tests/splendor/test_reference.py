"""The compiled move generator against a plain Python reading of the rules, on positions
reached by random play with 2, 3 and 4 players: every main move, every way to pay a card
included."""

from __future__ import annotations

import itertools

import numpy as np

from games.splendor import _rules as R
from games.splendor._cards import COST, NOBLE_REQ
from games.splendor._state import SplendorState


def reference_main(st: SplendorState) -> set[tuple]:
    """Legal main moves as readable tuples, straight from the rule book."""
    p = st.current_player()
    tok, bon, bank = st.tokens(p), st.bonuses(p), st.bank()

    def pays(card: int) -> list[tuple[int, ...]]:
        """Every gold-per-colour payment of ``card``: gold stands in for any colour."""
        need = [max(0, int(COST[card, c]) - bon[c]) for c in range(5)]
        return [g for g in itertools.product(*(range(n + 1) for n in need))
                if sum(g) <= tok[5] and all(need[c] - g[c] <= tok[c] for c in range(5))]

    out: set[tuple] = set()
    for t, row in enumerate(st.board()):
        for k, card in enumerate(row):
            if card >= 0:
                out |= {("buy", t, k, g) for g in pays(card)}
    for j, card in enumerate(st.reserved(p)):
        out |= {("buy reserved", j, g) for g in pays(card)}
    colours = [c for c in range(5) if bank[c] > 0]
    for combo in itertools.combinations(colours, min(3, len(colours))):
        if combo:
            out.add(("take", combo))
    for c in range(5):
        if bank[c] >= 4:
            out.add(("take two", c))
    if len(st.reserved(p)) < 3:
        for t, row in enumerate(st.board()):
            for k, card in enumerate(row):
                if card >= 0:
                    out.add(("reserve", t, k))
        for t, left in enumerate(st.deck_sizes()):
            if left > 0:
                out.add(("blind", t))
    return out or {("pass",)}


def as_tuple(m: int, st: SplendorState) -> tuple:
    """A move code as the reference's tuple; a plain buy pays gold last."""
    if m >= R.M_PAID:
        b, k = divmod(m - R.M_PAID, R.N_PAYMENTS)
        return (*as_tuple(b, st)[:-1], tuple(int(g) for g in R.PAYMENTS[k]))
    p = st.current_player()
    if m < R.M_TAKE:
        card = st.board()[m // 4][m % 4] if m < R.M_BUYRES else st.reserved(p)[m - R.M_BUYRES]
        gold = tuple(max(0, int(COST[card, c]) - st.bonuses(p)[c] - st.tokens(p)[c])
                     for c in range(5))
        if m < R.M_BUYRES:
            return ("buy", m // 4, m % 4, gold)
        return ("buy reserved", m - R.M_BUYRES, gold)
    if m < R.M_TAKE2:
        return ("take", tuple(int(c) for c in np.flatnonzero(R.TAKE_SETS[m - R.M_TAKE])))
    if m < R.M_RESERVE:
        return ("take two", m - R.M_TAKE2)
    if m < R.M_BLIND:
        return ("reserve", (m - R.M_RESERVE) // 4, (m - R.M_RESERVE) % 4)
    if m < R.M_PASS:
        return ("blind", m - R.M_BLIND)
    return ("pass",)


def test_move_generator_matches_the_rule_book():
    rng = np.random.default_rng(11)
    checked = 0
    for game in range(60):
        players = 2 + game % 3
        st = SplendorState.new(players, 5, game)
        while not st.is_terminal():
            moves = st.legal_moves()
            if st.phase == "main":
                named = {as_tuple(m, st) for m in moves}
                assert named == reference_main(st)
                assert len(moves) == len(set(moves)) == len(named)
                checked += 1
            elif st.phase == "return":
                p = st.current_player()
                assert sum(st.tokens(p)) > 10
                assert moves == [R.M_RETURN + c for c in range(6) if st.tokens(p)[c] > 0]
            else:
                p = st.current_player()
                fits = [k for k, (nob, own) in enumerate(st.nobles()) if own < 0
                        and all(st.bonuses(p)[c] >= NOBLE_REQ[nob, c] for c in range(5))]
                assert len(fits) >= 2 and moves == [R.M_NOBLE + k for k in fits]
            st.apply(int(rng.choice(moves)))
    assert checked > 3000
