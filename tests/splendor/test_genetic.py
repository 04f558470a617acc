"""The online genetic players: legal and reproducible moves, blind to hidden cards, plans
simulated as documented (checked against the turn-level API), BuySeeker's protocol, DEAP's
permutation operators keeping permutations, the evaluation budget, and matches that do not
depend on the number of workers."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.splendor import _rules as R
from games.splendor._genetic import make_problem
from games.splendor._heuristics import ALL_EVAL2, score
from games.splendor._plans import (
    ENC_INDEX,
    GOAL_BUY,
    GOAL_GREEDY,
    GONE,
    evaluate_plans,
    new_table,
    seek,
    shortfall,
)
from games.splendor._players import make_bot
from games.splendor._state import SplendorState
from tests.splendor.test_search import hide_differently, positions, with_blind_reserve

SMALL = {"depth": 6, "population": 12, "evaluations": 60}
BOTS = [("index-move", {}), ("exact-move", {}), ("exact-move", {"illegal": "repair"}),
        ("buy-order", {}), ("buy-and-deny", {}),
        ("buy-order", {"operators": "crossover+restricted"}),
        ("buy-and-deny", {"operators": "restricted-mutation", "heuristic": "alleval2"}),
        ("buy-order", {"start": "greedy"}), ("buy-and-deny", {"start": "greedy+reuse"})]


def pick(st: SplendorState, name: str, values: dict, seed: int = 0, recorder=None) -> int:
    bot = make_bot(name, {**SMALL, **values}, rng=np.random.default_rng(seed))
    bot.recorder = recorder
    bot.detail = recorder is not None
    return bot.act(st)


@pytest.mark.parametrize("name, values", BOTS)
def test_moves_are_legal_and_repeat_with_the_seed(name, values):
    for players in (2, 3):
        for i, st in enumerate(positions(6, players)):
            m = pick(st.clone(), name, values, seed=i)
            assert m in st.legal_moves()
            assert pick(st.clone(), name, values, seed=i) == m


def test_budget_generations_and_statistics():
    rec: list = []
    for st in positions(5):
        pick(st, "buy-and-deny", {"population": 10, "evaluations": 45}, recorder=rec)
    for stats in rec:
        assert len(stats.generations) == 4  # 45 // 10
        assert stats.generations[0].evaluated == 10
        assert stats.evaluations == sum(g.evaluated for g in stats.generations) <= 45
        assert 0 < stats.simulation + stats.deap <= stats.seconds
        for g in stats.generations:
            assert 0 < g.distinct_expressed <= g.distinct <= 1
            assert g.cx_better <= g.cx_children and g.mut_better <= g.mut_children
        assert any(g.cx_children for g in stats.generations[1:])


def test_evolution_leaves_pythons_random_state_alone():
    random.seed(5)
    before = random.getstate()
    draw = random.random
    pick(positions(1)[0], "buy-order", {})
    assert random.getstate() == before
    assert random.random == draw  # the module's functions are its own again


@pytest.mark.parametrize("name, values", [("buy-and-deny", {}),
                                          ("exact-move", {"illegal": "repair"})])
def test_search_ignores_hidden_cards(name, values):
    rng = np.random.default_rng(3)
    for st in positions(8):
        st = with_blind_reserve(st)
        assert pick(hide_differently(st, rng), name, values) == pick(st, name, values)


def test_index_plans_are_the_documented_simulation():
    """IndexMove's plan value replayed through the turn-level API: own moves are legal move
    g mod n, the opponent plays Greedy, returns and nobles are greedy, F scores the end."""
    rng = np.random.default_rng(1)
    w = ALL_EVAL2.array()
    greedy = make_bot("greedy2")
    for st in positions(6):
        me = st.current_player()
        params = make_bot("index-move", SMALL).params
        root = st.view(me).array
        problem = make_problem("index-move", params, root, w, np.array([1], dtype=np.uint64))
        genes = rng.integers(0, 64, size=(4, problem.length))
        fit, first, _ = problem.evaluate(genes.copy())
        for i in range(4):
            line = st.view(me)
            k = 0
            turns = 0
            own_first = None
            while turns < SMALL["depth"] and not line.is_terminal():
                mover = line.current_player()
                if mover == me:  # genes index the plain moves (buys paid gold last)
                    legal = [m for m in line.legal_moves() if m < R.M_PAID]
                    move = legal[int(genes[i, k]) % len(legal)]
                    k += 1
                    own_first = move if own_first is None else own_first
                else:
                    move = greedy.act(line)
                line.apply(move)
                while not line.is_terminal() and line.current_player() == mover \
                        and line.phase != "main":
                    line.apply(greedy.act(line))
                turns += 1
            assert first[i] == own_first
            assert fit[i] == pytest.approx(score(line.array, me, w))


def test_buy_seeker_buys_then_denies_then_saves_up():
    st = SplendorState.new(2, 4)
    a = st.array
    card = int(a[R.O_BOARD + 8])  # a tier-3 card
    moves = np.empty(R.MAX_LEGAL, dtype=np.int64)
    tmp = np.empty(R.SIZE, dtype=np.int64)
    w = ALL_EVAL2.array()
    rich = a.copy()
    rich[R.O_TOK:R.O_TOK + 5] = 7
    rich[R.O_BANK:R.O_BANK + 5] = 0
    assert seek(rich, 0, card, GOAL_BUY, w, moves, tmp) == R.M_BUY + 8
    other = a.copy()
    other[R.O_TOK + 6:R.O_TOK + 11] = 7
    other[R.O_BANK:R.O_BANK + 5] = 0
    other[R.O_BANK + 1] = 4
    assert seek(other, 0, card, GOAL_BUY, w, moves, tmp) == R.M_RESERVE + 8
    m = seek(a, 0, card, GOAL_BUY, w, moves, tmp)
    after = []
    for take in [x for x in st.legal_moves() if R.M_TAKE <= x < R.M_RESERVE]:
        b = a.copy()
        R.apply_move(b, take)
        after.append((shortfall(b, 0, card), take))
    assert (shortfall(_played(a, m), 0, card), m) == min(after)
    gone = a.copy()
    gone[R.O_BOARD + 8] = -1
    assert seek(gone, 0, card, GOAL_BUY, w, moves, tmp) == GONE


def _played(a: np.ndarray, m: int) -> np.ndarray:
    b = a.copy()
    R.apply_move(b, m)
    return b


def test_repair_writes_back_legal_genes():
    params = make_bot("exact-move", {**SMALL, "illegal": "repair"}).params
    for st in positions(4):
        root = st.view(st.current_player()).array
        problem = make_problem("exact-move", params, root, ALL_EVAL2.array(),
                               np.array([2], dtype=np.uint64))
        genes = np.zeros((6, problem.length), dtype=np.int64)  # all "buy the first card"
        fit, first, _ = problem.evaluate(genes)
        again = problem.evaluate(genes.copy())  # repaired genes now play without repair
        assert np.array_equal(again[0], fit) and np.array_equal(again[1], first)
        assert first[0] in st.legal_moves()


def test_permutation_operators_keep_permutations():
    from games.splendor._evolve import Problem, evolve
    from games.splendor._genetic_params import BuyOrderParams

    target = np.arange(9)[::-1]

    def evaluate(genes):
        fit = -np.abs(genes - target).sum(axis=1).astype(float)
        return fit, genes[:, 0].copy(), np.full(len(genes), 9)

    p = BuyOrderParams(population=30, evaluations=600, cxpb=0.7, mutpb=0.3)
    best, stats = evolve(Problem(9, 9, True, evaluate), p, seed=3)
    assert sorted(best) == list(range(9))
    assert best.fitness.values[0] >= stats.generations[0].best
    assert stats.generations[-1].best > stats.generations[0].best  # it does evolve


def test_evaluate_plans_handles_an_empty_goal_list():
    st = positions(1)[0]
    root = st.view(st.current_player()).array
    n = 3
    fit = np.empty(n)
    first = np.empty(n, dtype=np.int64)
    read = np.empty(n, dtype=np.int64)
    e = np.empty(0, dtype=np.int64)
    keys, answers = new_table(10)
    evaluate_plans(root, np.empty((n, 0), dtype=np.int64), 3, 4, e, e, e, e,
                   ALL_EVAL2.array(), np.array([1], dtype=np.uint64), keys, answers,
                   np.zeros(1, dtype=np.int64), fit, first, read)
    assert (read == 0).all() and first[0] in st.legal_moves()
    assert ENC_INDEX == 0


def test_a_match_is_the_same_for_any_number_of_jobs():
    from games.splendor.game import GAME
    from tuning.evaluation import WorkerPool
    from tuning.evaluation._match import run_match

    bots = [GAME.parse_bot("buy-and-deny:depth=4,population=6,evaluations=12"),
            GAME.parse_bot("greedy")]
    results = []
    for jobs, block in ((1, 6), (2, 2)):
        with WorkerPool(jobs) as pool:
            data = run_match("splendor", bots, {}, games=6, seed=11, pool=pool,
                             block=block).to_dict()
        for key in ("seconds", "games_per_second"):
            data.pop(key)
        results.append(data)
    assert results[0] == results[1]


def test_watch_replays_the_game_play_plays():
    from games.splendor._trace import trace_game
    from games.splendor.game import GAME

    text = "exact-move:depth=4,population=6,evaluations=12,illegal=repair"
    out = GAME.play([GAME.parse_bot(text), GAME.parse_bot("greedy")], {}, 8, 1, 1)
    trace = trace_game([text, "greedy"], {}, 8, 1)
    assert trace.points == out.score[0].tolist() and trace.rounds == int(out.turns[0])


@pytest.mark.parametrize("name, values", BOTS)
def test_the_decisions_table_changes_no_result(name, values):
    """Plans scored through a move's shared table equal plans simulated from scratch."""
    from games.splendor._genetic_params import GENETIC_PARAMS

    params = GENETIC_PARAMS[name](**{**SMALL, **values, "evaluations": 400})
    rng = np.random.default_rng(2)
    for st in positions(4):
        root = st.view(st.current_player()).array
        problem = make_problem(name, params, root, params_weights(params),
                               np.array([5], dtype=np.uint64))
        if problem.permutation:
            genes = np.array([rng.permutation(problem.length) for _ in range(60)])
        else:
            genes = rng.integers(0, problem.alphabet, size=(60, problem.length))
        genes = np.repeat(genes, 3, axis=0)  # repeats: answers come from the table
        cached = problem.evaluate(genes.copy())
        fresh = _scratch_evaluate(problem, root, genes.copy(), params, name)
        for a, b in zip(cached, fresh, strict=True):
            assert np.array_equal(a, b)


def params_weights(params) -> np.ndarray:
    from games.splendor._genetic import weights_of

    return weights_of(params)


def _scratch_evaluate(problem, root, genes, params, name):
    """The same plans with a table that stores nothing (every answer computed)."""
    from games.splendor._genetic import encoding
    from games.splendor._plans import exact_alphabet, order_goals

    p = int(root[R.O_CUR])
    cards = np.zeros(28, dtype=np.int64)
    kinds = np.zeros(28, dtype=np.int64)
    n = order_goals(root, p, name == "buy-and-deny", cards, kinds)
    if getattr(params, "start", "random") != "random":
        cards[n], kinds[n] = -1, GOAL_GREEDY
    ak = np.zeros(64, dtype=np.int64)
    av = np.zeros(64, dtype=np.int64)
    size = exact_alphabet(root, p, ak, av)
    keys, answers = new_table(1)
    full = np.array([answers.size], dtype=np.int64)
    n = genes.shape[0]
    out = np.empty(n), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    evaluate_plans(root, genes, encoding(name, params), params.depth, cards, kinds, ak[:size],
                   av[:size], params_weights(params), np.array([5], dtype=np.uint64), keys,
                   answers, full, *out)
    return out


@pytest.mark.parametrize("name, values", BOTS[:5])
def test_sampled_refills_plan_legal_moves(name, values):
    """With sampled refills the plans see new cards appear; goals stay the root's cards."""
    for i, st in enumerate(positions(5)):
        bot = make_bot(name, {**SMALL, **values}, sampled=True, rng=np.random.default_rng(i))
        assert bot.act(st.clone()) in st.legal_moves()
