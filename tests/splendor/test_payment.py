"""Paying for a card is the player's choice: gold may stand in for colours the player could
pay; every payment is a move of the turn-level state, and bots pay by their policy (gold
last by default, which leaves every seeded game as it was)."""

from __future__ import annotations

import numpy as np
import pytest

from games.core import InputError
from games.splendor import _rules as R
from games.splendor._cards import COLOUR, COST, TIER
from games.splendor._kernel import CFG_PAY, run_games
from games.splendor._payment import (
    PAY_GOLD_FIRST,
    PAY_GOLD_LAST,
    PAY_KEEP_TARGET,
    paid_move,
    pay_as,
    payment_index,
)
from games.splendor._players import GreedyParams, bot_row
from games.splendor._state import SplendorState
from games.splendor._trace import trace_game
from games.splendor.game import GAME


def holding_the_price(card: int, gold: int) -> tuple[SplendorState, np.ndarray]:
    """Seat 0 to move with coloured tokens that pay ``card`` exactly, plus ``gold`` gold,
    every token taken from the bank; ``card`` face up in tier 1 slot 1."""
    st = SplendorState.new(2, 0)
    a = st.array
    a[R.O_BOARD] = card
    a[R.O_TOK:R.O_TOK + 5] = COST[card]
    a[R.O_TOK + 5] = gold
    a[R.O_BANK:R.O_BANK + 6] -= a[R.O_TOK:R.O_TOK + 6]
    assert (a[R.O_BANK:R.O_BANK + 6] >= 0).all()
    return st, a


def supply(st: SplendorState) -> list[int]:
    """Tokens per colour in the bank and every hand together (conserved by every move)."""
    return [st.bank()[c] + sum(st.tokens(p)[c] for p in range(st.players)) for c in range(6)]


def two_colour_card() -> int:
    return next(c for c in range(90) if TIER[c] == 0 and (COST[c] > 0).sum() >= 2
                and COST[c].max() <= 2)


def test_gold_may_pay_where_colours_could_and_is_applied_exactly():
    card = two_colour_card()
    st, a = holding_the_price(card, gold=2)
    x, y = np.flatnonzero(COST[card])[:2]
    gold = np.zeros(5, dtype=np.int64)
    gold[x], gold[y] = 1, 1
    move = paid_move(0, payment_index(gold))
    legal = st.legal_moves()
    assert R.M_BUY + 0 in legal and move in legal  # both the plain and the paid buy
    total, bank = supply(st), st.bank()
    st.apply(move)
    kept = [1 if c in (x, y) else 0 for c in range(5)]
    assert st.tokens(0) == [*kept, 0]  # a token of x and of y kept, both gold spent
    assert st.bank() == [bank[c] + int(COST[card, c]) - kept[c] for c in range(5)] + [bank[5] + 2]
    assert supply(st) == total
    assert a[R.O_OWNER + card] == 0 and st.cards_bought()[0] == 1
    assert st.bonuses(0)[int(COLOUR[card])] == 1
    assert "paying gold for" in st.move_to_string(st.history[-1])


def test_the_plain_buy_still_pays_gold_last():
    card = two_colour_card()
    st, a = holding_the_price(card, gold=2)
    bank = st.bank()
    st.apply(R.M_BUY + 0)
    assert st.tokens(0) == [0, 0, 0, 0, 0, 2]
    assert st.bank() == [bank[c] + int(COST[card, c]) for c in range(5)] + [bank[5]]


def test_a_buy_from_the_reserve_may_be_paid_with_gold_too():
    card = two_colour_card()
    st, a = holding_the_price(card, gold=1)
    a[R.O_RES] = card
    a[R.O_BOARD] = -1
    x = int(np.flatnonzero(COST[card])[0])
    gold = np.zeros(5, dtype=np.int64)
    gold[x] = 1
    total = supply(st)
    st.apply(paid_move(R.M_BUYRES, payment_index(gold)))
    assert st.reserved(0) == [] and st.tokens(0)[x] == 1 and st.tokens(0)[5] == 0
    assert supply(st) == total


def test_payments_the_rules_forbid_are_refused():
    card = two_colour_card()
    free = int(np.flatnonzero(COST[card] == 0)[0])
    x, y = (int(c) for c in np.flatnonzero(COST[card])[:2])
    for held, bad in ((3, {free: 1}),                    # a colour the card does not cost
                      (1, {x: 1, y: 1}),                 # more gold than the player holds
                      (3, {x: int(COST[card, x]) + 1})):  # more gold than x costs
        st, a = holding_the_price(card, gold=held)
        gold = np.zeros(5, dtype=np.int64)
        for c, n in bad.items():
            gold[c] = n
        move = paid_move(0, payment_index(gold))
        assert move not in st.legal_moves()
        with pytest.raises(ValueError):
            st.apply(move)
    st, a = holding_the_price(card, gold=1)
    a[R.O_TOK + x] -= 1  # one x short: gold must pay it, the plain buy does so
    a[R.O_BANK + x] += 1
    st.apply(R.M_BUY + 0)
    assert st.tokens(0)[5] == 0 and st.tokens(0)[x] == 0


def test_policies_pay_as_they_say():
    card = two_colour_card()
    x, y = (int(c) for c in np.flatnonzero(COST[card])[:2])
    st, a = holding_the_price(card, gold=2)
    assert pay_as(a, R.M_BUY + 0, PAY_GOLD_LAST) == R.M_BUY + 0
    assert pay_as(a, R.M_TAKE + 0, PAY_GOLD_FIRST) == R.M_TAKE + 0  # not a buy
    first = pay_as(a, R.M_BUY + 0, PAY_GOLD_FIRST)  # as much gold as it takes, white first
    want = np.zeros(5, dtype=np.int64)
    left = 2
    for c in range(5):
        want[c] = min(int(COST[card, c]), left)
        left -= want[c]
    assert first == paid_move(0, payment_index(want)) and first in st.legal_moves()
    # keep-target: the next target (the only other card in sight) needs x, not y
    assert COLOUR[card] != x
    target = next(c for c in range(90) if c != card and COST[c, x] >= 2
                  and all(COST[c, z] == 0 for z in np.flatnonzero(COST[card]) if z != x))
    a[R.O_BOARD + 1:R.O_BOARD + 12] = -1
    a[R.O_BOARD + 1] = target
    keep = pay_as(a, R.M_BUY + 0, PAY_KEEP_TARGET)
    want = np.zeros(5, dtype=np.int64)
    want[x] = min(2, int(COST[card, x]), int(COST[target, x]))
    assert keep == paid_move(0, payment_index(want)) and keep in st.legal_moves()
    # without gold there is nothing to choose: every policy plays the plain buy
    st, a = holding_the_price(card, gold=0)
    for policy in (PAY_GOLD_FIRST, PAY_KEEP_TARGET):
        assert pay_as(a, R.M_BUY + 0, policy) == R.M_BUY + 0
        assert [m for m in st.legal_moves() if m >= R.M_PAID] == []


def test_default_policy_is_gold_last_and_plays_the_same_games():
    assert bot_row("greedy", GreedyParams())[CFG_PAY] == 0.0
    plain = GAME.play([GAME.parse_bot("greedy"), GAME.parse_bot("random")], {}, 3, 0, 60)
    named = GAME.play([GAME.parse_bot("greedy:pay=gold-last"), GAME.parse_bot("random")],
                      {}, 3, 0, 60)
    assert np.array_equal(plain.score, named.score)
    assert np.array_equal(plain.turns, named.turns)
    with pytest.raises(InputError, match="pay"):
        GAME.check_bot(GAME.parse_bot("greedy:pay=never"))


@pytest.mark.parametrize("bot", ["greedy:pay=gold-first", "minimax2:2,pay=keep-target",
                                 "random-search:2,5,pay=gold-first"])
def test_policies_play_legal_games_that_differ(bot):
    specs = [GAME.parse_bot(bot), GAME.parse_bot("greedy")]
    opts = GAME.check_options({})
    rows = GAME.rows(specs, opts)
    gold_last = rows.copy()
    gold_last[0, CFG_PAY] = 0.0
    seats = np.array([[g % 2, 1 - g % 2] for g in range(80)], dtype=np.int64)
    seeds = np.arange(1, 81, dtype=np.uint64) * np.uint64(7919)
    out = run_games(seeds, seats, rows, 100, check=True)
    base = run_games(seeds, seats, gold_last, 100, check=True)
    assert (out["errors"] == 0).all() and (base["errors"] == 0).all()
    assert not np.array_equal(out["score"], base["score"])  # the policy changes games


def test_traces_replay_paid_buys_through_the_turn_level_state():
    bots = ["random-search:2,5,pay=gold-first", "greedy2:pay=keep-target"]
    paid = 0
    for index in range(3):
        trace = trace_game(bots, {}, seed=5, index=index)
        out = GAME.play([GAME.parse_bot(b) for b in bots], {}, 5, index, 1)
        assert trace.points == out.score[0].tolist() and trace.rounds == out.turns[0]
        paid += sum(s.move >= R.M_PAID for s in trace.steps)
    assert paid > 0
