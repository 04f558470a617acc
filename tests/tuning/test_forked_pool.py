"""Forked workers: results in order, errors come back, a dead worker stops the run with one
clear error (a shared pool's match equals one job's: tests/tuning/test_evaluate.py)."""

from __future__ import annotations

import os
import signal
import sys

import pytest

from tuning.evaluation import WorkerPool
from tuning.evaluation._forked import WorkerDied

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks workers")


def _square(x: int) -> int:
    return x * x


def _fail(x: int) -> int:
    if x == 3:
        raise ValueError(f"bad task {x}")
    return x


def _die(x: int) -> int:
    if x == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return x


def _pid() -> int:
    return os.getpid()


@pytest.mark.parametrize("share", [False, True])
def test_results_come_back_in_task_order(share):
    with WorkerPool(3, share=share) as pool:
        assert pool.map(_square, [(i,) for i in range(50)]) == [i * i for i in range(50)]
        # a stream stopped early leaves the pool ready for the next one
        it = pool.imap(_square, [(i,) for i in range(50)])
        assert [next(it) for _ in range(5)] == [0, 1, 4, 9, 16]
        it.close()
        assert pool.map(_square, [(i,) for i in range(7)]) == [i * i for i in range(7)]


def test_an_error_in_a_worker_is_raised_here():
    with WorkerPool(2) as pool, pytest.raises(ValueError, match="bad task 3"):
        pool.map(_fail, [(i,) for i in range(6)])


def test_a_killed_worker_stops_the_run_with_one_clear_error():
    with WorkerPool(2) as pool, pytest.raises(WorkerDied, match="ended unexpectedly"):
        pool.map(_die, [(i,) for i in range(6)])


def test_on_workers_runs_once_in_each_worker():
    with WorkerPool(3) as pool:
        pids = pool.on_workers(_pid)
    assert len(pids) == len(set(pids)) == 3 and os.getpid() not in pids
    with WorkerPool(3, share=True) as pool:  # this process is the third
        assert len(set(pool.on_workers(_pid))) == 2



def test_on_workers_in_the_middle_of_a_stream_loses_none_of_its_results():
    with WorkerPool(2) as pool:
        it = pool.imap(_square, [(i,) for i in range(20)])
        first = [next(it) for _ in range(3)]
        assert len(pool.on_workers(_pid)) == 2
        assert first + list(it) == [i * i for i in range(20)]
