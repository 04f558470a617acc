"""An evolution remembers how it was started: resume settings, stop messages, worker exit."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from games.core import InputError
from tuning.evaluation import WorkerPool


def _invoke(*args: str):
    from tuning.cli import app
    return CliRunner().invoke(app, list(args))


def _stop_at(generation: int):
    def progress(row: dict) -> None:
        if row["gen"] == generation:
            raise KeyboardInterrupt
    return progress


def test_resume_alone_continues_with_the_started_settings(toy_spec, tmp_path):
    from tuning._spec import load_spec
    from tuning.evolution._engine import EvolutionInterrupted
    from tuning.evolution._runner import build_evolution

    spec = load_spec(toy_spec)
    full = build_evolution(spec, WorkerPool(), generations=5, population=4, seed=7,
                           checkpoint=tmp_path / "full.ckpt").run()
    ck = tmp_path / "part.ckpt"
    with pytest.raises(EvolutionInterrupted):
        build_evolution(spec, WorkerPool(), generations=5, population=4, seed=7, checkpoint=ck,
                        progress=_stop_at(2)).run()
    result = _invoke("evolve", str(toy_spec), "--checkpoint", str(ck), "--resume", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout[result.stdout.index("{"):])
    assert data["generations"] == 5  # the run's -g 5, not the spec's 3
    assert [h["genome"] for h in data["hall_of_fame"]] == [t for t, _ in full.hall_of_fame]
    assert "mu=4" in result.output and "seed=7" in result.output


def test_resume_below_the_reached_generation_is_refused(toy_spec, tmp_path):
    ck = tmp_path / "c.ckpt"
    assert _invoke("evolve", str(toy_spec), "-g", "4", "--checkpoint", str(ck)).exit_code == 0
    result = _invoke("evolve", str(toy_spec), "-g", "2", "--checkpoint", str(ck), "--resume")
    assert isinstance(result.exception, InputError)
    assert "already at generation 4" in str(result.exception)
    assert "-g 5" in str(result.exception)
    done = _invoke("evolve", str(toy_spec), "--checkpoint", str(ck), "--resume")
    assert done.exit_code == 0 and "already at generation 4 of 4" in done.output


def test_fingerprint_mismatch_names_the_setting(toy_spec, tmp_path):
    ck = tmp_path / "c.ckpt"
    assert _invoke("evolve", str(toy_spec), "-g", "1", "-p", "4",
                   "--checkpoint", str(ck)).exit_code == 0
    result = _invoke("evolve", str(toy_spec), "-p", "6", "--checkpoint", str(ck), "--resume")
    assert isinstance(result.exception, InputError)
    assert "population: checkpoint 4, now 6" in str(result.exception)


def test_stop_messages(toy_spec, tmp_path, monkeypatch):
    from tuning.evolution._engine import Evolution, EvolutionInterrupted

    ck = tmp_path / "c.ckpt"

    def stop_in_generation_0(self, resume=False):
        raise EvolutionInterrupted(-1, None)

    monkeypatch.setattr(Evolution, "run", stop_in_generation_0)
    early = _invoke("evolve", str(toy_spec), "--checkpoint", str(ck))
    assert early.exit_code == 130
    assert "generation -1" not in early.output and "nothing to resume" in early.output
    assert "--resume" not in early.output

    def stop_later(self, resume=False):
        raise EvolutionInterrupted(2, self.checkpoint)

    monkeypatch.setattr(Evolution, "run", stop_later)
    later = _invoke("evolve", str(toy_spec), "-g", "9", "-p", "5", "--seed", "11",
                    "--checkpoint", str(ck), "-j", "2")
    assert later.exit_code == 130
    line = " ".join(later.output.split())  # the runner's console wraps long lines
    assert (f"continue with: tabletune evolve {toy_spec} --resume -g 9 -P 5 --seed 11 "
            f"--checkpoint {ck} -j 2") in line


DOMINION = """
[study]
name = "dom-tiny"
game = "dominion"
optimizer = "deap"
objective = "win_rate"

[evaluation]
games = {games}
block = 100
seed = 1
opponents = ["big-money"]
reevaluate_top = 1
reevaluate_games = 100

[deap]
generations = 500
population = 4
offspring = 4

[genome]
kind = "dominion-buylist"
max_entries = 6
"""


def _dominion_spec(tmp_path: Path, games: int) -> Path:
    path = tmp_path / "dom-tiny.toml"
    path.write_text(textwrap.dedent(DOMINION.format(games=games)))
    return path


def _wait_for(proc: subprocess.Popen, text: str, timeout: float = 60) -> None:
    """Read the process's stderr (where status and progress go) until a line holds text."""
    deadline = time.monotonic() + timeout
    assert proc.stderr is not None
    seen = []
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        seen.append(line)
        if text in line:
            return
        if not line and proc.poll() is not None:
            break
    proc.kill()
    pytest.fail(f"no line with {text!r} on stderr: {''.join(seen)}")


def test_sigterm_in_generation_0_names_no_checkpoint(tmp_path, cli):
    spec = _dominion_spec(tmp_path, games=20000)
    ck = tmp_path / "c.ckpt"
    proc = cli.start("evolve", str(spec), "--checkpoint", str(ck))
    _wait_for(proc, "evolving dom-tiny")
    time.sleep(1.0)  # inside generation 0 (80,000 games), past the signal handler's setup
    proc.send_signal(signal.SIGTERM)
    # a kernel that compiles now (its cache entry lost to a concurrent writer) finishes first
    out, err = _communicate_or_dump(proc, timeout=240)
    assert proc.returncode == 130, err
    assert "generation -1" not in err and "nothing to resume" in err
    assert not ck.exists()


def _communicate_or_dump(proc: subprocess.Popen, timeout: float) -> tuple[str, str]:
    """``proc.communicate``; a process still running after ``timeout`` is failed with the
    Python stack of each of its threads (faulthandler on SIGABRT) and what it printed."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)  # PYTHONFAULTHANDLER (start_cli) dumps the stacks
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        pytest.fail(f"still running {timeout:.0f} s after the signal; stderr:\n{err}")


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_exit_soon_after_the_main_process_is_killed(tmp_path, cli, monkeypatch):
    monkeypatch.setenv("TABLETUNE_PROGRESS_SECONDS", "0.2")  # a line per generation, piped
    spec = _dominion_spec(tmp_path, games=2000)
    proc = cli.start("evolve", str(spec), "--checkpoint", str(tmp_path / "c.ckpt"),
                     "--jobs", "2")
    try:
        _wait_for(proc, "gen   1/")
        deadline = time.monotonic() + 30  # workers start after a second of work done alone
        while not (workers := _children(proc.pid)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert workers  # jobs 2: one worker process beside the main one (and loky helpers)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_running(p) for p in workers):
        time.sleep(0.2)
    left = [p for p in workers if _running(p)]
    for pid in left:  # do not leave them behind even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, f"worker processes still running 10 s after kill -9: {left}"


def test_checkpoint_on_a_directory_is_refused(toy_spec, tmp_path):
    for extra in ((), ("--resume",), ("--restart",)):
        result = _invoke("evolve", str(toy_spec), "--checkpoint", str(tmp_path), *extra)
        assert isinstance(result.exception, InputError), result.output
        assert "directory" in str(result.exception)


def test_checkpoint_settings_give_the_report_its_command_and_seed(toy_spec, tmp_path):
    from tuning._spec import load_spec
    from tuning.evolution._checkpoint import load_checkpoint
    from tuning.evolution._runner import checkpoint_result, run_flags

    ck = tmp_path / "ck.pkl"
    assert _invoke("evolve", str(toy_spec), "-g", "2", "-P", "4", "-s", "11",
                   "--checkpoint", str(ck)).exit_code == 0
    spec, payload = load_spec(toy_spec), load_checkpoint(ck)
    assert run_flags(spec, payload["settings"]) == ["-g", "2", "-P", "4", "--seed", "11"]
    run_spec, result = checkpoint_result(spec, payload)
    assert run_spec.evaluation.seed == 11 and spec.evaluation.seed != 11
    assert result.generation == 2 and isinstance(result.hall_of_fame[0][0], str)
