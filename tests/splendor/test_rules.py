"""Each rule of Splendor on hand-set positions of the compact state."""

from __future__ import annotations

import numpy as np
import pytest

from games.core import InputError
from games.splendor import _rules as R
from games.splendor._cards import COST, HIDDEN
from games.splendor._state import SplendorState


def fresh(players: int = 2, seed: int = 0) -> tuple[SplendorState, np.ndarray]:
    st = SplendorState.new(players, seed)
    return st, st.array


def kinds(st: SplendorState, lo: int, hi: int) -> list[int]:
    return [m for m in st.legal_moves() if lo <= m < hi]


@pytest.mark.parametrize("players, gems, nobles", [(2, 4, 3), (3, 5, 4), (4, 7, 5)])
def test_setup_supply(players, gems, nobles):
    st, a = fresh(players)
    assert st.bank() == [gems] * 5 + [5]
    assert len(st.nobles()) == nobles and len({n for n, _ in st.nobles()}) == nobles
    assert all(c >= 0 for row in st.board() for c in row)
    assert st.deck_sizes() == [36, 26, 16]
    with pytest.raises(InputError):
        SplendorState.new(5)


def test_take_three_and_take_two():
    st, a = fresh()
    assert len(kinds(st, R.M_TAKE, R.M_TAKE2)) == 10  # every 3-colour set, no smaller ones
    assert kinds(st, R.M_TAKE2, R.M_RESERVE) == [R.M_TAKE2 + c for c in range(5)]
    st.apply(R.M_TAKE + 0)  # white, blue, green
    assert st.tokens(0) == [1, 1, 1, 0, 0, 0] and st.bank()[:3] == [3, 3, 3]
    assert R.M_TAKE2 + 0 not in st.legal_moves()  # white pile now 3 < 4
    st.apply(R.M_TAKE2 + 3)
    assert st.tokens(1)[3] == 2 and st.bank()[3] == 2


def test_fewer_colours_only_when_fewer_remain():
    st, a = fresh()
    a[R.O_BANK:R.O_BANK + 5] = [0, 2, 0, 1, 0]
    takes = kinds(st, R.M_TAKE, R.M_TAKE2)
    assert len(takes) == 1 and R.TAKE_SETS[takes[0] - R.M_TAKE].tolist() == [0, 1, 0, 1, 0]
    a[R.O_BANK:R.O_BANK + 5] = [0, 0, 0, 1, 0]
    takes = kinds(st, R.M_TAKE, R.M_TAKE2)
    assert len(takes) == 1 and R.TAKE_SETS[takes[0] - R.M_TAKE].tolist() == [0, 0, 0, 1, 0]


def test_reserve_face_up_gold_refill_and_limit():
    st, a = fresh()
    card = st.board()[1][2]
    nxt = int(a[R.O_DECK + R.DECK_OFF[1] + 4])
    st.apply(R.M_RESERVE + 6)
    assert st.reserved(0) == [card] and st.tokens(0)[5] == 1 and st.bank()[5] == 4
    assert st.board()[1][2] == nxt and st.deck_sizes()[1] == 25
    a[R.O_BANK + 5] = 0
    st.apply(R.M_RESERVE + 0)
    assert st.tokens(1)[5] == 0 and len(st.reserved(1)) == 1  # no gold left: none taken
    a[R.O_CUR] = 0
    st.apply(R.M_RESERVE + 1)
    st.apply(R.M_TAKE + 0)
    a[R.O_CUR] = 0
    st.apply(R.M_BLIND + 2)
    assert len(st.reserved(0)) == 3
    assert not kinds(st, R.M_RESERVE, R.M_PASS) or st.current_player() != 0
    a[R.O_CUR] = 0
    assert kinds(st, R.M_RESERVE, R.M_PASS) == []


def test_blind_reserve_is_hidden_from_others():
    st, a = fresh()
    top = int(a[R.O_DECK + R.DECK_OFF[0] + 4])
    st.apply(R.M_BLIND + 0)
    assert st.reserved(0) == [top] and st.deck_sizes()[0] == 35
    assert st.view(0).reserved(0) == [top]
    assert st.view(1).reserved(0) == [HIDDEN + 0]
    hidden = st.view(1).array
    assert (hidden[R.O_DECK:R.O_DECK + 90] >= HIDDEN).all() and hidden[R.O_REFILL] == 0
    sampled = st.view(1, sampled=True, rng=np.random.default_rng(5)).array
    pool = sorted(a[R.O_DECK + 5:R.O_DECK + 40].tolist() + [top])
    assert sorted(sampled[R.O_DECK + 5:R.O_DECK + 40].tolist()
                  + [int(sampled[R.O_RES])]) == pool


def test_buy_face_up_with_bonuses_and_gold():
    st, a = fresh()
    card = st.board()[0][0]
    cost = COST[card]
    colour = int(np.argmax(cost))
    a[R.O_BON + colour] = 1  # one bonus of the dearest colour
    need = np.maximum(cost - a[R.O_BON:R.O_BON + 5], 0)
    a[R.O_TOK:R.O_TOK + 5] = need
    a[R.O_TOK + colour] -= 1  # one short: gold must pay it
    a[R.O_TOK + 5] = 1
    a[R.O_BANK:R.O_BANK + 6] -= a[R.O_TOK:R.O_TOK + 6]
    assert R.M_BUY + 0 in st.legal_moves()
    st.apply(R.M_BUY + 0)
    assert st.tokens(0) == [0] * 6 and st.bank() == [4] * 5 + [5]
    assert a[R.O_OWNER + card] == 0 and st.cards_bought()[0] == 1
    assert st.board()[0][0] >= 0 and st.deck_sizes()[0] == 35


def test_buy_reserved_shifts_the_reserve():
    st, a = fresh()
    st.apply(R.M_RESERVE + 0)
    st.apply(R.M_TAKE + 0)
    st.apply(R.M_RESERVE + 1)
    st.apply(R.M_TAKE + 9)
    first, second = st.reserved(0)
    a[R.O_TOK:R.O_TOK + 5] += COST[first]
    a[R.O_BANK:R.O_BANK + 5] -= COST[first]
    assert R.M_BUYRES + 0 in st.legal_moves()
    st.apply(R.M_BUYRES + 0)
    assert st.reserved(0) == [second] and st.cards_bought()[0] == 1


def test_return_to_ten_is_a_choice():
    st, a = fresh()
    a[R.O_TOK:R.O_TOK + 6] = [2, 2, 2, 2, 0, 1]
    a[R.O_BANK:R.O_BANK + 6] = [2, 2, 2, 2, 4, 4]
    st.apply(R.M_TAKE + 9)  # red, black, green? row 9 is (2, 3, 4): green, red, black
    assert st.phase == "return" and st.current_player() == 0
    assert sum(st.tokens(0)) == 12
    assert st.legal_moves() == [R.M_RETURN + c for c in range(6)]
    st.apply(R.M_RETURN + 4)  # give back the black just taken
    assert st.phase == "return"
    st.apply(R.M_RETURN + 5)  # and the gold
    assert st.phase == "main" and st.current_player() == 1 and sum(st.tokens(0)) == 10


def test_two_nobles_need_a_choice_and_only_one_visits():
    st, a = fresh()
    a[R.O_NOB:R.O_NOB + 3] = [0, 1, 5]  # WUG 3-3-3, WUK 3-3-3, W4 U4
    a[R.O_BON:R.O_BON + 5] = [3, 3, 3, 0, 3]
    st.apply(R.M_TAKE + 0)  # any move: the end of the turn checks nobles
    assert st.phase == "noble" and st.legal_moves() == [R.M_NOBLE + 0, R.M_NOBLE + 1]
    st.apply(R.M_NOBLE + 1)
    assert st.nobles()[1] == (1, 0) and st.nobles()[0] == (0, -1)
    assert st.points()[0] == 3 and st.current_player() == 1
    st.apply(R.M_TAKE + 0)
    st.apply(R.M_TAKE + 1)  # seat 0 again: noble 0 now visits alone, no choice
    assert st.nobles()[0] == (0, 0) and st.points()[0] == 6 and st.current_player() == 1


def test_round_finishes_after_fifteen():
    st, a = fresh(3)
    a[R.O_PTS + 1] = 15
    st.apply(R.M_TAKE + 0)
    st.apply(R.M_TAKE + 1)  # seat 1 ends its turn on 15 points
    assert not st.is_terminal() and st.current_player() == 2
    st.apply(R.M_TAKE + 2)
    assert st.is_terminal() and st.rounds == 1 and st.returns() == [0.0, 1.0, 0.0]
    assert not st.capped


def test_ties_go_to_fewer_cards_then_shared():
    st, a = fresh()
    a[R.O_PTS:R.O_PTS + 2] = [15, 15]
    a[R.O_NCARD:R.O_NCARD + 2] = [7, 6]
    a[R.O_DONE] = 1
    assert st.returns() == [0.0, 1.0]
    a[R.O_NCARD:R.O_NCARD + 2] = [6, 6]
    assert st.returns() == [0.5, 0.5]


def test_pass_when_stuck_and_standstill_ends_the_game():
    st, a = fresh()
    a[R.O_BANK:R.O_BANK + 5] = 0
    for p in range(2):
        a[R.O_RES + 3 * p:R.O_RES + 3 * p + 3] = [HIDDEN, HIDDEN, HIDDEN]  # never payable
    assert st.legal_moves() == [R.M_PASS]
    st.apply(R.M_PASS)
    assert not st.is_terminal()
    st.apply(R.M_PASS)
    assert st.is_terminal() and st.capped


def test_round_cap():
    st = SplendorState.new(2, 0, cap=2)
    for m in (R.M_TAKE + 0, R.M_TAKE + 9, R.M_TAKE + 1):
        st.apply(m)
    assert not st.is_terminal()
    st.apply(R.M_TAKE + 8)
    assert st.is_terminal() and st.capped and st.rounds == 2


def test_illegal_move_refused():
    st, _ = fresh()
    with pytest.raises(ValueError):
        st.apply(R.M_BUYRES + 0)


def test_standstill_after_fifteen_is_a_normal_end():
    st, a = fresh()
    a[R.O_BANK:R.O_BANK + 5] = 0
    for p in range(2):
        a[R.O_RES + 3 * p:R.O_RES + 3 * p + 3] = [HIDDEN, HIDDEN, HIDDEN]
    a[R.O_PTS + 1] = 15
    a[R.O_FINAL] = 1
    st.apply(R.M_PASS)
    st.apply(R.M_PASS)
    assert st.is_terminal() and not st.capped and st.returns() == [0.0, 1.0]
