"""A first use that compiles says so on stderr, and listing commands compile nothing.

Each check runs the command line in a fresh process with ``NUMBA_CACHE_DIR`` pointing to an
empty folder, so every kernel it calls is compiled there as on a new checkout (the notice
of :mod:`games.compiling` fires only on a real compile, never on a cache load).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _cli(tmp_path: Path, *words: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), PYTHONPATH=str(ROOT),
               TABLETUNE_PROGRESS_SECONDS="1")
    return subprocess.run([sys.executable, "-m", "tuning.cli", *words], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("words", [
    ("bots", "dominion"), ("bots", "thegame"), ("bots", "splendor"), ("bots", "deckbuilder"),
    ("bots", "dominion", "big-money", "--params"), ("bots", "splendor", "buy-and-deny"),
    ("bots", "thegame", "recovery-fallback", "--params"), ("studies",),
])
def test_listing_compiles_nothing(tmp_path: Path, words: tuple[str, ...]) -> None:
    done = _cli(tmp_path, *words)
    assert done.returncode == 0, done.stderr
    assert "compiling" not in done.stderr
    assert not list((tmp_path / "numba").rglob("*.nbi")), "a kernel was compiled"


def test_first_use_says_it_compiles(tmp_path: Path) -> None:
    done = _cli(tmp_path, "play", "deckbuilder", "-n", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0].startswith("compiling deckbuilder's numba kernels (first use only: ")
    assert "python -m games.warm" in lines[0]
    assert any(line.startswith("compiled deckbuilder kernels in ") for line in lines)
    again = _cli(tmp_path, "play", "deckbuilder", "-n", "2")  # now loaded from the cache
    assert again.returncode == 0 and "compil" not in again.stderr


def test_notice_names_the_game_and_ticks(tmp_path: Path) -> None:
    """A kernel of a ``games.<name>`` module is announced under that name, progress lines
    follow while it compiles, and the closing line counts its functions."""
    code = (
        "import time\n"
        "from games import compiling\n"
        "compiling.enable()\n"
        "import numba\n"
        "compiling.watch()\n"
        "def slow(x):\n"
        "    return x + 1\n"
        "slow.__module__ = 'games.toy.kernels'\n"
        "kernel = numba.njit(slow)\n"
        "listener = compiling._LISTENER\n"
        "listener.notice.functions = 0\n"
        "orig = listener.on_end\n"
        "def on_end(event):\n"
        "    time.sleep(1.5)\n"  # a long compile: the ticker speaks while it lasts
        "    orig(event)\n"
        "listener.on_end = on_end\n"
        "assert kernel(1) == 2\n"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), PYTHONPATH=str(ROOT),
               TABLETUNE_PROGRESS_SECONDS="0.5")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0].startswith("compiling toy's numba kernels (first use only: seconds to")
    assert any(line.startswith("still compiling toy kernels: ") for line in lines)
    assert lines[-1].startswith("compiled toy kernels in ")


STOP_DURING_COMPILE = """
import os, signal, threading, time
from games import compiling
compiling.enable()
import numba
compiling.watch()
from tuning._stopping import stop_signals

@numba.njit
def work(n):
    total = 0
    for i in range(n):
        total += i * i % 7
    return total

def stop_while_compiling():
    while not compiling.busy():
        time.sleep(0.001)
    os.kill(os.getpid(), signal.SIGTERM)

threading.Thread(target=stop_while_compiling, daemon=True).start()
with stop_signals():
    try:
        work(10)
        while True:
            time.sleep(0.01)
    except KeyboardInterrupt:
        print("stopped; compiled:", len(work.signatures))
"""


def test_a_stop_during_a_compile_waits_for_it(tmp_path: Path) -> None:
    """SIGTERM (or Ctrl-C) inside numba's compiler is held until the compile is done, then
    stops the run: interrupted in the compiler, a process can crash or hang at exit."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", STOP_DURING_COMPILE], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "stopped; compiled: 1" in done.stdout
    assert "stopping once the kernels being compiled are done" in done.stderr
