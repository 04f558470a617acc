"""Threads: a pool of threads keeps task order, stops cleanly, raises a task's error here;
the games that say their kernels release the interpreter lock really do, so that threads
play them side by side (`tabletune play` then uses threads instead of forked workers)."""

from __future__ import annotations

import threading
import time

import pytest

from games import registry
from games.core import BotSpec
from tuning.evaluation import WorkerPool


def _square(x: int) -> int:
    time.sleep(0.001 * (x % 3))  # tasks finish out of order
    return x * x


def _fail(x: int) -> int:
    if x == 3:
        raise ValueError(f"bad task {x}")
    return x


def test_results_come_back_in_task_order_and_a_stopped_stream_leaves_the_pool_ready():
    with WorkerPool(3, "threading") as pool:
        assert pool.map(_square, [(i,) for i in range(60)]) == [i * i for i in range(60)]
        it = pool.imap(_square, [(i,) for i in range(1000)])
        assert [next(it) for _ in range(5)] == [0, 1, 4, 9, 16]
        it.close()
        assert pool.map(_square, [(i,) for i in range(7)]) == [i * i for i in range(7)]
        assert pool.on_workers(lambda: 1) == []  # threads are this process


def test_a_stopped_stream_draws_only_a_few_tasks_ahead():
    drawn = []

    def tasks():
        for i in range(10_000):
            drawn.append(i)
            yield (i,)

    with WorkerPool(2, "threading") as pool:
        it = pool.imap(_square, tasks())
        next(it)
        it.close()
    assert len(drawn) <= 1 + 2 * 2  # at most a window of two tasks per thread


def test_an_error_in_a_thread_is_raised_here():
    with WorkerPool(2, "threading") as pool, pytest.raises(ValueError, match="bad task 3"):
        pool.map(_fail, [(i,) for i in range(6)])


def test_threads_are_gone_after_the_run():
    with WorkerPool(2, "threading") as pool:
        pool.map(_square, [(i,) for i in range(10)])
    deadline = time.monotonic() + 5
    while any(t.name.startswith("tabletune-block") for t in threading.enumerate()):
        assert time.monotonic() < deadline, "block threads outlived their pool"
        time.sleep(0.01)


@pytest.mark.parametrize("module, kernel", [("games.dominion._play", "run_games"),
                                            ("games.splendor._kernel", "play_batch"),
                                            ("games.thegame._engine", "play_batch")])
def test_the_block_kernels_release_the_interpreter_lock(module, kernel):
    import importlib

    assert getattr(importlib.import_module(module), kernel).targetoptions.get("nogil") is True


def test_which_line_ups_release_the_lock():
    assert registry.get("dominion").releases_gil([BotSpec("big-money")] * 2, {})
    assert registry.get("thegame").releases_gil([BotSpec("recovery-fallback")], {})
    splendor = registry.get("splendor")
    assert splendor.releases_gil([BotSpec("greedy")] * 2, {})
    genetic = next(n for n in splendor.bots() if n not in ("greedy", "random")
                   and splendor.bots()[n].example)
    assert not splendor.releases_gil([BotSpec(genetic), BotSpec("greedy")], {})
    assert not registry.get("deckbuilder").releases_gil([BotSpec("greedy")], {})


def test_a_threaded_kernel_runs_beside_this_thread():
    """While a thread plays a Dominion block, this thread keeps running Python: the kernel
    does not hold the lock (with the lock held, the counter would stand still)."""
    from tuning.evaluation._match import play_block

    game = registry.get("dominion")
    bots = (game.parse_bot("big-money"), game.parse_bot("big-money"))
    opts = game.check_options({})
    play_block("dominion", bots, opts, 0, 0, 10, True)  # load the kernel first
    worker = threading.Thread(target=play_block, args=("dominion", bots, opts, 0, 0, 8000, True))
    ticks = 0
    worker.start()
    while worker.is_alive():
        ticks += 1
        time.sleep(0)
    worker.join()
    # a kernel that held the lock would stop this loop for the whole block (~0.1 s): the
    # block's few ms of Python allow a tick per switch interval (5 ms), about 20 in all
    # (measured with nogil removed); free, it ticks thousands of times, and several hundred
    # even when the other test worker keeps the second core busy
    assert ticks > 200
