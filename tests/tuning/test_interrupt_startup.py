"""Ctrl-C while the command line is still importing (numba's start-up) ends in one line."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest


@pytest.mark.parametrize("delay", [0.1, 0.3, 0.6])
def test_ctrl_c_during_start_up_prints_no_traceback(delay):
    proc = subprocess.Popen(
        [sys.executable, "-m", "tuning.cli", "play", "dominion", "--bots", "big-money",
         "-n", "100000000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err
    # before the interpreter installs its handler the signal ends it at once (-2)
    assert proc.returncode in (130, -signal.SIGINT), (proc.returncode, err)
    if proc.returncode == 130:
        assert len(err.strip().splitlines()) == 1, err
