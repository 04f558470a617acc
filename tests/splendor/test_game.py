"""Splendor through the registry: seeded, split-invariant batches, rotation, bad input and
the invariants over 10^5 random games."""

from __future__ import annotations

import numpy as np
import pytest

from games.core import BotSpec, InputError
from games.registry import Outcomes
from games.splendor._players import make_bot
from games.splendor.game import GAME

BOTS = [BotSpec("greedy"), BotSpec("random")]


def same(a: Outcomes, b: Outcomes) -> None:
    for name in ("seating", "outcome", "score", "turns", "capped"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_seeded_and_block_split_invariant():
    whole = GAME.play(BOTS, {}, 5, 0, 60)
    same(whole, GAME.play(BOTS, {}, 5, 0, 60))
    parts = [GAME.play(BOTS, {}, 5, s, n) for s, n in ((0, 17), (17, 30), (47, 13))]
    same(whole, Outcomes.concat(parts))
    assert not np.array_equal(whole.score, GAME.play(BOTS, {}, 6, 0, 60).score)


def test_outcomes_and_rotation():
    out = GAME.play(BOTS, {}, 1, 3, 40)
    assert out.seating[:, 0].tolist() == [(k + 3) % 2 for k in range(40)]
    assert set(np.unique(out.outcome)) <= {-1, 0, 1}
    assert ((out.outcome == 1).sum(axis=1) <= 1).all()
    assert (out.bot_result()[:, 0].mean()) > 0.9  # Greedy beats random play
    three = GAME.play([BotSpec("greedy"), BotSpec("random"), BotSpec("random")], {}, 1, 0, 9)
    assert three.outcome.shape == (9, 3)


def test_positional_parameters_and_bad_input():
    assert GAME.parse_bot("minimax:3").params == {"depth": 3}
    assert GAME.parse_bot("random-search:10,500").params == {"depth": 10, "k": 500}
    for text in ("minimax:0", "minimax:-1", "nobody", "greedy:points=x", "greedy:speed=1"):
        with pytest.raises(InputError):
            GAME.parse_bot(text)
    with pytest.raises(InputError):
        GAME.play([BotSpec("greedy")] * 5, {}, 1, 0, 1)
    with pytest.raises(InputError):
        GAME.play(BOTS, {"refill": "always"}, 1, 0, 1)
    with pytest.raises(InputError):
        GAME.new_state({}, 1, 1)


def test_cap_reports_capped_games():
    out = GAME.play(BOTS, {"cap": 3}, 1, 0, 10)
    assert out.capped.all() and (out.turns == 3).all()


def test_turn_level_state_matches_the_kernel():
    """A game played through SplendorState with random bots ends legally; Greedy vs Greedy
    through the state gives the kernel's result for the same deal."""
    st = GAME.new_state({}, 9, 2)
    bots = [make_bot("greedy"), make_bot("greedy")]
    while not st.is_terminal():
        st.apply(bots[st.current_player()].act(st))
    kernel = GAME.play([BotSpec("greedy"), BotSpec("greedy")], {}, 9, 0, 1)
    assert st.points() == kernel.score[0].tolist() and st.rounds == kernel.turns[0]


def test_invariants_over_a_hundred_thousand_random_games():
    GAME.invariants({}, 2024, 100_000)


def test_invariant_check_catches_broken_positions():
    from games.splendor import _kernel as K
    from games.splendor import _rules as R
    from games.splendor._state import SplendorState

    seen, tally = np.empty(90, dtype=np.int64), np.empty((4, 8), dtype=np.int64)
    base = SplendorState.new(3, 4).array
    assert K.check_invariants(base, True, seen, tally) == 0
    cases = [
        (lambda a: a.__setitem__(R.O_TOK, 1), K.E_TOKENS),
        (lambda a: (a.__setitem__(R.O_TOK + 5, 5), a.__setitem__(R.O_TOK, 6),
                    a.__setitem__(R.O_BANK + 5, 0), a.__setitem__(R.O_BANK, -1)), K.E_LIMIT),
        (lambda a: a.__setitem__(R.O_BOARD + 1, a[R.O_BOARD]), K.E_CARDS),
        (lambda a: a.__setitem__(R.O_NOB + 1, a[R.O_NOB]), K.E_NOBLES),
        (lambda a: a.__setitem__(R.O_PTS, 3), K.E_POINTS),
        (lambda a: a.__setitem__(R.O_RES + 1, 0), K.E_RESERVED),
    ]
    for corrupt, bit in cases:
        a = base.copy()
        corrupt(a)
        assert K.check_invariants(a, True, seen, tally) & bit


def test_search_bots_split_invariant_with_sampled_refills():
    bots = [BotSpec("random-search", {"depth": 3, "k": 8}), BotSpec("minimax", {"depth": 2})]
    opts = {"refill": "sampled"}
    whole = GAME.play(bots, opts, 3, 0, 6)
    same(whole, Outcomes.concat([GAME.play(bots, opts, 3, 0, 2), GAME.play(bots, opts, 3, 2, 4)]))


@pytest.mark.parametrize("bots, refill", [
    (["greedy", "minimax:2"], "none"),
    (["greedy2", "random-search:3,10", "minimax:2,leaf=difference"], "sampled"),
])
def test_invariants_hold_for_searching_bots(bots, refill):
    from games.core import game_seeds
    from games.registry import seating_for
    from games.splendor._kernel import run_games

    rows = GAME.rows([GAME.parse_bot(b) for b in bots], {"refill": refill})
    n = 150
    out = run_games(game_seeds(8, n), seating_for(0, n, len(bots)), rows, 100, check=True)
    assert (out["errors"] == 0).all() and out["capped"].mean() < 0.5
