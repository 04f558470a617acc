"""Ctrl-C while the command line is still importing (numba's start-up) ends in one line."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

# what the console script does; the interpreter's own start-up and the import of the tiny
# entry module come before any handler can run, so the signal is sent after them
START = ("import sys; from tuning.cli import main; sys.stderr.write('started\\n'); "
         "sys.stderr.flush(); sys.argv = ['tabletune', 'play', 'dominion', '--bots', "
         "'big-money', '-n', '100000000']; main()")


@pytest.fixture(scope="module")
def compiled_kernels():
    """Dominion's kernels in numba's cache first: the signal is meant to land in the
    imports of start-up, not in a first compile of minutes on a fresh checkout."""
    subprocess.run([sys.executable, "-c", "import games.dominion._kernel"], check=True,
                   timeout=900)


@pytest.mark.parametrize("delay", [0.05, 0.2, 0.5])
def test_ctrl_c_during_start_up_prints_no_traceback(delay, compiled_kernels):
    proc = subprocess.Popen([sys.executable, "-c", START], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr.readline() == "started\n"
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:  # never leave a 1e8-game match running for later tests
            proc.kill()
            proc.communicate()
    assert "Traceback" not in err, err
    assert proc.returncode == 130, (proc.returncode, err)
    assert len(err.strip().splitlines()) == 1, err
