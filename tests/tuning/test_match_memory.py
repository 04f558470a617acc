"""A match holds the same memory whatever its length: blocks and tasks are drawn lazily,
never listed, so a billion or a trillion games stream like a million."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tracemalloc

import pytest

from games import registry
from games.core import InputError
from tuning.evaluation import WorkerPool
from tuning.evaluation._match import run_match

#: bytes a match a thousand times longer may hold beyond the shorter one (the lists of
#: blocks and tasks this rules out held 200-370 MB for a billion games)
MARGIN = 1_000_000


class _Enough(Exception):
    """Raised from the progress callback to stop a match after a few blocks."""


def _peak(game_name: str, bot_names: list[str], games: int, pool: WorkerPool) -> int:
    """Peak bytes traced while a match of ``games`` games starts and plays its first 2,000
    games (one block alone, or the probes and the rest of the first block with workers)."""
    game = registry.get(game_name)
    bots = [game.parse_bot(b) for b in bot_names]
    options = game.check_options({})
    runs = len(bots) if game.seats(len(bots), options) == 1 else 1

    def progress(done: int, total: int, seconds: float) -> None:
        assert total == games * runs
        if done >= 2000:
            raise _Enough

    tracemalloc.start()
    try:
        with pytest.raises(_Enough):
            run_match(game_name, bots, options, games=games, seed=1, pool=pool,
                      progress=progress)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("game_name, bots, jobs, backend", [
    ("deckbuilder", ["greedy"], 1, "loky"),
    ("deckbuilder", ["greedy", "picky"], 2, "loky"),  # one run per bot: two line-ups
    ("dominion", ["big-money", "smithy-big-money"], 2, "threading"),  # as `play` shares it
], ids=["one-job", "forked-solo-line-ups", "threads"])
def test_peak_memory_of_a_match_does_not_grow_with_its_length(game_name, bots, jobs,
                                                              backend):
    with WorkerPool(jobs, backend, share=True) as pool:
        _peak(game_name, bots, 10**6, pool)  # first use: kernels, workers, caches
        short = _peak(game_name, bots, 10**6, pool)
        long = _peak(game_name, bots, 10**9, pool)
    assert long < short + MARGIN, (short, long)


def test_a_billion_game_match_shows_progress_at_once_and_stops_on_ctrl_c():
    env = {**os.environ, "TABLETUNE_PROGRESS_SECONDS": "0.2"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tuning.cli", "play", "quadratic", "--bots", "bowl,origin",
         "-n", str(10**9), "--jobs", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stderr is not None
        line = ""
        deadline = time.monotonic() + 60
        while "/1,000,000,000 games" not in line and time.monotonic() < deadline:
            line = proc.stderr.readline()
            assert line, "the match ended without a progress line"
        assert "/1,000,000,000 games" in line
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert "Traceback" not in err


def test_lazy_blocks_are_the_listed_blocks():
    from games.blocks import iter_blocks, map_blocks
    from games.core import seed_blocks

    for total, size, start in ((10, 4, 0), (10, 4, 5), (7, 7, 3), (0, 3, 2), (2001, 2000, 9)):
        assert list(iter_blocks(total, size, start)) == [(start + s, c) for s, c
                                                         in seed_blocks(total, size)]
    assert next(iter_blocks(10**12, 2000, 10**12)) == (10**12, 2000)
    with pytest.raises(InputError):
        iter_blocks(10, 0)  # refused at the call, before any block is drawn
    with WorkerPool(1) as pool:
        parts = map_blocks(slice, (), 10, pool=pool, start=3, block=4)  # (start, count)
    assert parts == [slice(3, 4), slice(7, 4), slice(11, 2)]
