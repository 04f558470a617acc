"""Evaluation: common random numbers, per-block results, intervals, jobs-independence."""

from __future__ import annotations

import numpy as np
import pytest

from games import registry
from games.core import BotSpec, InputError
from tuning.evaluation import Scorer, WorkerPool, derived_seed, evaluate, paired_difference

CAND = BotSpec("bowl", {"x": 0.3, "y": 0.6, "k": 5})
WORSE = BotSpec("bowl", {"x": 0.9, "y": 0.1, "k": 2})


def quad(noise: float | None = None) -> Scorer:
    return Scorer.build("quadratic", {} if noise is None else {"noise": noise}, "mean_score")


def test_result_identical_for_any_number_of_jobs_and_block_size():
    one = evaluate(quad(0.2), CAND, games=300, seed=5, block=60)
    with WorkerPool(2) as pool:
        two = evaluate(quad(0.2), CAND, games=300, seed=5, block=60, pool=pool)
        again = evaluate(quad(0.2), CAND, games=300, seed=5, block=20, pool=pool)
    big = evaluate(quad(0.2), CAND, games=300, seed=5, block=300)
    assert np.array_equal(one.scores, again.scores)
    assert np.array_equal(one.scores, two.scores) and np.array_equal(one.scores, big.scores)
    assert one.block_means == two.block_means and len(one.block_means) == 5
    assert one.mean == pytest.approx(np.mean(one.block_means))


def test_stderr_and_interval_match_the_samples():
    ev = evaluate(quad(0.2), CAND, games=400, seed=2, block=100)
    assert ev.games == 400
    assert ev.stderr == pytest.approx(ev.scores.std(ddof=1) / 20.0)
    lo, hi = ev.ci95
    assert lo < ev.mean < hi and hi - lo == pytest.approx(2 * 1.959963984540054 * ev.stderr)
    # the true value 1.0 of the optimum lies within a few standard errors
    assert abs(ev.mean - 1.0) < 5 * ev.stderr


def test_common_random_numbers_make_paired_differences_precise():
    a = evaluate(quad(0.5), CAND, games=200, seed=3, block=50)
    b = evaluate(quad(0.5), WORSE, games=200, seed=3, block=50)
    diff = paired_difference(a, b)
    # identical noise on identical seeds cancels: the difference is exact up to rounding
    true = (0.9 - 0.3) ** 2 + (0.1 - 0.6) ** 2 / 4 + 0.01 * 9 - 0.0
    assert diff.mean == pytest.approx(true, abs=1e-9)
    assert diff.stderr < 1e-9 < a.stderr
    other_seed = evaluate(quad(0.5), CAND, games=200, seed=4, block=50)
    assert not np.array_equal(a.scores, other_seed.scores)


def test_callback_sees_blocks_in_order_and_can_stop_early():
    seen = []

    def on_block(index, mean):
        seen.append(index)
        return index == 1

    with WorkerPool(2) as pool:
        ev = evaluate(quad(), CAND, games=500, seed=1, block=100, pool=pool, on_block=on_block)
        # the pool survives a stopped evaluation and serves the next one
        after = evaluate(quad(), CAND, games=200, seed=1, block=100, pool=pool)
    assert seen == [0, 1] and ev.stopped_early and ev.games == 200
    assert np.array_equal(after.scores, ev.scores)


def test_exact_evaluation_where_the_game_allows_it():
    from games.deckbuilder import fraction_of_optimum
    cand = BotSpec("picky")
    scorer = Scorer.build("deckbuilder", {"turns": 12}, "fraction_of_optimum")
    ev = evaluate(scorer, cand, games=100, seed=1, block=50)
    assert ev.exact and ev.stderr == 0.0 and ev.games == 0
    assert ev.mean == pytest.approx(fraction_of_optimum("picky", 12))
    sim = evaluate(scorer, cand, games=2000, seed=1, block=500, use_exact=False)
    assert abs(sim.mean - ev.mean) < 4 * sim.stderr


def test_derived_seeds_are_stable_and_distinct():
    assert derived_seed(1, "reevaluate") == derived_seed(1, "reevaluate")
    assert derived_seed(1, "reevaluate") != derived_seed(2, "reevaluate")
    assert derived_seed(1, "reevaluate") != 1


def test_unknown_game_and_zero_games_are_input_errors():
    with pytest.raises(InputError, match="unknown game"):
        Scorer.build("chess", {}, "win_rate")
    with pytest.raises(InputError, match="at least one game"):
        evaluate(quad(), CAND, games=0, seed=1, block=5)


def test_registry_lists_the_builtin_games():
    assert {"deckbuilder", "dominion", "thegame", "quadratic"} <= set(registry.names())
    assert registry.get("deckbuilder").objectives[0] == "fraction_of_optimum"


def test_a_pool_of_several_opponents_gives_each_its_own_seed_set():
    from tuning.evaluation import opponent_seed
    one = Scorer.build("dominion", {}, "win_rate", ["big-money"])
    two = Scorer.build("dominion", {}, "win_rate", ["big-money", "smithy-big-money"])
    bot = BotSpec("heuristic", {"province_money": 17.0})
    mixed = two.block(bot, 3, 0, 40)
    alone = one.block(bot, opponent_seed(3, 0), 0, 20)
    assert np.array_equal(mixed[0::2], alone)  # games 0, 2, 4 ... meet the first entry
    assert np.array_equal(one.block(bot, 3, 0, 40),
                          np.concatenate([one.block(bot, 3, 0, 15), one.block(bot, 3, 15, 25)]))


def test_a_pruned_evaluation_splits_blocks_but_sees_the_same_blocks_for_any_jobs():
    def stop_at(k):
        seen = []

        def on_block(index, mean):
            seen.append((index, mean))
            return index == k
        return seen, on_block

    one_seen, one_cb = stop_at(2)
    one = evaluate(quad(0.2), CAND, games=700, seed=9, block=101, on_block=one_cb)
    with WorkerPool(3) as pool:
        three_seen, three_cb = stop_at(2)
        three = evaluate(quad(0.2), CAND, games=700, seed=9, block=101, pool=pool,
                         on_block=three_cb)
    assert one_seen == three_seen and len(one_seen) == 3
    assert np.array_equal(one.scores, three.scores) and three.games == 303
    assert one.block_games == three.block_games == [101, 101, 101]


def test_split_block_covers_the_block_in_order():
    from tuning.evaluation._evaluator import split_block
    assert split_block(10, 7, 3) == [(10, 3), (13, 2), (15, 2)]
    assert split_block(0, 2, 5) == [(0, 1), (1, 1)]
    assert split_block(4, 9, 1) == [(4, 9)]


@pytest.mark.parametrize("method", ["fork", "loky"])
def test_either_start_method_gives_the_same_result(method, monkeypatch):
    monkeypatch.setenv("TABLETUNE_START_METHOD", method)
    with WorkerPool(2) as pool:
        ev = evaluate(quad(0.2), CAND, games=300, seed=5, block=30, pool=pool)
        assert pool.jobs == 2
    assert np.array_equal(ev.scores, evaluate(quad(0.2), CAND, games=300, seed=5,
                                              block=300).scores)


def test_an_unknown_start_method_is_an_input_error(monkeypatch):
    monkeypatch.setenv("TABLETUNE_START_METHOD", "spawn-everything")
    with pytest.raises(InputError, match="TABLETUNE_START_METHOD"):
        WorkerPool(2)


def test_tapered_blocks_cover_every_game_once_with_small_ones_last():
    from tuning.evaluation._match import tapered_blocks

    for games, size, jobs in ((20000, 2000, 2), (100, 40, 2), (7, 40, 4), (5000, 2, 2)):
        blocks = list(tapered_blocks(games, size, jobs))
        assert [s for s, _ in blocks] == list(np.cumsum([0] + [c for _, c in blocks[:-1]]))
        assert sum(c for _, c in blocks) == games and all(c >= 1 for _, c in blocks)
    blocks = list(tapered_blocks(20000, 2000, 2))
    assert blocks[:8] == [(i * 2000, 2000) for i in range(8)]
    assert {c for _, c in blocks[8:]} == {500}


def _match_data(game_name, bot_names, games, pool):
    from tuning.evaluation._match import run_match

    game = registry.get(game_name)
    bots = [game.parse_bot(b) for b in bot_names]
    data = run_match(game_name, bots, game.check_options({}), games=games, seed=3,
                     pool=pool).to_dict()
    for key in ("seconds", "games_per_second"):
        data.pop(key)
    return data


@pytest.mark.parametrize("share_seconds, games", [(0.0, 400), (1e9, 400), (0.2, 20000)],
                         ids=["pooled", "played-here", "probed-then-pooled"])
def test_a_match_with_tapered_blocks_is_the_match_of_one_job(share_seconds, games,
                                                             monkeypatch):
    from tuning.evaluation import _match as match

    # 0: the first game already says "share"; 1e9: every match is short enough to play
    # here; 0.2 s: the timed games decide (20,000 games take longer on any machine)
    monkeypatch.setattr(match, "SHARE_SECONDS", share_seconds)
    results = []
    # 2 jobs: blocks of 50 games, the last 100 games in blocks of 12-13; a shared pool (as
    # `play` uses) plays blocks in this process too; threads as `play` uses for Dominion
    for jobs, backend, share in ((1, "loky", False), (2, "loky", False), (2, "loky", True),
                                 (3, "loky", True), (2, "threading", True)):
        with WorkerPool(jobs, backend, share=share) as pool:
            results.append(_match_data("dominion", ["smithy-big-money", "big-money"], games,
                                       pool))
    assert all(r == results[0] for r in results[1:])


@pytest.mark.parametrize("backend", ["loky", "threading"])
def test_a_short_match_is_played_here_without_starting_workers(backend, monkeypatch):
    from tuning.evaluation import _match as match

    monkeypatch.setattr(match, "SHARE_SECONDS", 1e9)
    with WorkerPool(1) as pool:
        alone = _match_data("dominion", ["big-money", "smithy-big-money"], 300, pool)
    with WorkerPool(2, backend, share=True) as pool:
        assert _match_data("dominion", ["big-money", "smithy-big-money"], 300, pool) == alone
        assert (pool._workers, pool._executor, pool._threads) == (None, None, None)
    monkeypatch.setattr(match, "SHARE_SECONDS", 0.0)
    with WorkerPool(2, backend, share=True) as pool:
        assert _match_data("dominion", ["big-money", "smithy-big-money"], 300, pool) == alone
        assert (pool._workers, pool._executor, pool._threads) != (None, None, None)


@pytest.mark.parametrize("share_seconds", [0.0, 1e9])
def test_probes_keep_each_solo_bot_its_own_tally(share_seconds, monkeypatch):
    """A one-seat game plays one run per bot: the probe games belong to the first bot's."""
    from tuning.evaluation import _match as match

    monkeypatch.setattr(match, "SHARE_SECONDS", share_seconds)
    with WorkerPool(1) as pool:
        alone = _match_data("deckbuilder", ["greedy", "picky"], 200, pool)
    with WorkerPool(2, share=True) as pool:
        assert _match_data("deckbuilder", ["greedy", "picky"], 200, pool) == alone


def test_merged_blocks_join_neighbours_of_one_line_up_only():
    from tuning.evaluation._match import DEFAULT_BLOCK, _merged

    def task(start, count, line_up="a"):
        return ("g", line_up, {}, 1, start, count, True)

    tasks = [task(9, 16), task(25, 25), task(50, 12), task(0, 50, "b"), task(50, 50, "b"),
             task(100, DEFAULT_BLOCK, "b")]
    got = list(_merged(zip([0, 0, 0, 1, 1, 1], tasks, strict=True)))
    assert got == [(0, task(9, 53)), (1, task(0, 100, "b")), (1, task(100, DEFAULT_BLOCK, "b"))]
