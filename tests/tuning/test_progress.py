"""Progress is throttled everywhere and never silent for long: at most one line every N
seconds, with time left, and a line during a long trial or re-evaluation."""

from __future__ import annotations

import io
import re
import sys

import pytest
from rich.console import Console

from games.core import InputError
from tuning.commands._progress import MatchProgress, Throttle, duration, progress_seconds
from tuning.commands.evolve import EvolutionProgress
from tuning.commands.study import StudyProgress


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _pipe() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=100_000, soft_wrap=True), buf


def _lines(buf: io.StringIO) -> list[str]:
    return [line for line in buf.getvalue().splitlines() if line.strip()]


def test_interval_from_the_environment(monkeypatch):
    monkeypatch.delenv("TABLETUNE_PROGRESS_SECONDS", raising=False)
    assert progress_seconds(terminal=True) == 2.0 and progress_seconds(terminal=False) == 10.0
    monkeypatch.setenv("TABLETUNE_PROGRESS_SECONDS", "0.5")
    assert progress_seconds(terminal=False) == 0.5
    for bad in ("0", "-1", "soon", "nan"):
        monkeypatch.setenv("TABLETUNE_PROGRESS_SECONDS", bad)
        with pytest.raises(InputError, match="TABLETUNE_PROGRESS_SECONDS"):
            progress_seconds(terminal=False)
    assert duration(65) == "1m05s" and duration(3700) == "1h01m" and duration(None) == "?"


def test_throttle_prints_at_most_once_per_interval():
    clock, (console, buf) = Clock(), _pipe()
    state = {"n": 0}
    throttle = Throttle(lambda: f"state {state['n']}", console, every=10, clock=clock,
                        ticker=False)
    for i in range(100):  # 100 events over 50 s
        state["n"] = i
        clock.now += 0.5
        throttle.poke()
    assert _lines(buf) == ["state 19", "state 39", "state 59", "state 79", "state 99"]
    assert throttle.poke(force=True) and _lines(buf)[-1] == "state 99"
    throttle.say("a warning")
    assert _lines(buf)[-1] == "a warning"


def test_study_progress_talks_during_long_trials_and_the_reevaluation():
    clock, (console, buf) = Clock(), _pipe()
    progress = StudyProgress(target=3, blocks=10, console=console, every=10, clock=clock)
    trial = {"event": "trial", "state": "COMPLETE", "games": 1000, "seconds": 20.0,
             "target": 3}
    clock.now += 20
    progress({**trial, "trial": 0, "value": 0.5, "best": 0.5, "done": 1})  # first: shown
    first = _lines(buf)[-1]
    assert first.startswith("trial 0 complete value 0.5000 | best 0.5000 | 1/3 trials")
    assert "50 games/s" in first and "0m40s left" in first
    for block in range(3):  # a long trial: 3 blocks in 30 s, no trial finishes
        clock.now += 10
        progress({"event": "block", "trial": 1, "block": block})
    during = _lines(buf)[1:]
    assert len(during) == 3 and all("trial 1 running: block" in line for line in during)
    assert "block 3/10, 0m30s" in during[-1] and "left" in during[-1]
    clock.now += 5
    progress({**trial, "trial": 1, "value": 0.7, "best": 0.7, "done": 2})  # not yet due
    assert len(_lines(buf)) == 4
    clock.now += 50
    progress({**trial, "trial": 2, "value": 0.6, "best": 0.7, "done": 3})  # last: shown
    assert _lines(buf)[-1].startswith("trial 2 complete value 0.6000 | best 0.7000 | 3/3")
    where = {"total": 2, "games": 5000, "blocks": 4}
    clock.now += 1
    progress({"event": "reevaluate", "candidate": {"strategy": "bowl", "params": {"x": 1}},
              "index": 0, **where})
    clock.now += 10
    progress({"event": "reevaluate-block", "block": 1, "index": 0, **where})
    line = _lines(buf)[-1]
    assert line.startswith("re-evaluating 1/2 bowl {'x': 1} on 5,000 fresh games: block 1/4")
    assert "0m10s elapsed, 1m10s left" in line
    confirm = {"total": 1, "index": 0, "games": 5000, "blocks": 4, "confirm": True}
    clock.now += 60
    progress({"event": "reevaluate", "candidate": {"strategy": "bowl", "params": {"x": 1}},
              **confirm})
    clock.now += 10
    progress({"event": "reevaluate-block", "block": 2, **confirm})
    line = _lines(buf)[-1]
    assert line.startswith("confirming 1/1 bowl {'x': 1} on 5,000 further fresh games: "
                           "block 2/4")
    assert "0m10s elapsed, 0m10s left" in line


def test_evolution_lines_are_throttled_and_the_last_always_shows():
    clock, (console, buf) = Clock(), _pipe()
    progress = EvolutionProgress(console, every=10, clock=clock)
    row = {"evals": 10, "best": 1.0, "best_stderr": 0.0, "mean": 0.5, "std": 0.1,
           "games": 0, "seconds": 0.5, "games_per_s": 0.0, "best_genome": "g",
           "generations": 40}
    for gen in range(41):
        clock.now += 0.5
        progress({**row, "gen": gen, "eta_seconds": 0.5 * (40 - gen)})
    lines = _lines(buf)
    assert lines[0].startswith("gen   0/40") and lines[-1].startswith("gen  40/40")
    assert len(lines) == 3  # gen 0, gen 20 (10 s later), gen 40 (the last)
    clock.now += 30  # the re-evaluation at the end runs long
    progress.finishing("re-evaluating the top 5")
    clock.now += 11
    progress.throttle.poke()
    assert _lines(buf)[-1] == "re-evaluating the top 5, 0m11s"
    quiet = EvolutionProgress(console, every=10, clock=clock)
    quiet({**row, "gen": 3, "eta_seconds": 100.0})
    clock.now += 25  # a long generation
    quiet.throttle.poke()
    assert _lines(buf)[-1] == "gen   4/40 running for 0m25s | best 1.0000 after gen 3 | 1m15s left"


def test_a_resumed_evolution_does_not_say_it_evaluates_the_first_population():
    clock, (console, _) = Clock(), _pipe()
    fresh, resumed = (EvolutionProgress(console, every=10, clock=clock) for _ in range(2))
    resumed.resuming = True
    clock.now += 11
    assert fresh.describe().startswith("gen   0: evaluating the first population")
    assert resumed.describe() == ("resumed from the checkpoint: its next generation is "
                                  "running, 0m11s")


def test_match_progress_has_time_left():
    clock, (console, buf) = Clock(), _pipe()
    progress = MatchProgress("play x", console, every=10, clock=clock)
    clock.now += 11
    progress(1000, 4000, 10.0)
    assert _lines(buf) == ["play x: 1,000/4,000 games, 100 games/s, 0m11s elapsed, "
                           "0m30s left"]


def test_piped_study_is_never_silent_for_long(make_spec, tmp_path, monkeypatch, capsys):
    """A study whose trials and re-evaluation are slow prints heartbeat lines on a pipe."""
    from tuning import cli

    monkeypatch.setenv("TABLETUNE_PROGRESS_SECONDS", "0.3")
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0.25")  # seconds per block of games
    path = make_spec(name="slow", trials=2, games=200, block=50, reevaluate_games=400)
    monkeypatch.setattr(sys, "argv", ["tabletune", "run", str(path), "--storage",
                                      str(tmp_path / "slow.journal")])
    with pytest.raises(SystemExit) as info:
        cli.main()
    assert info.value.code == 0
    err = capsys.readouterr().err.splitlines()
    assert any(re.search(r"trial \d running: block \d/4", line) for line in err), err
    assert any(line.startswith("re-evaluating") and "left" in line for line in err), err
    assert all(" left" in line for line in err if "trial" in line or "re-eval" in line)


def test_training_lines_say_how_long_a_round_runs(monkeypatch):
    from tuning.commands import train as train_cmd

    clock, (console, buf) = Clock(), _pipe()
    monkeypatch.setattr(train_cmd, "err_console", console)
    progress = train_cmd.TrainProgress(every=10, clock=clock)
    event = {"games": 2000, "total": 10000, "round": 1, "rounds": 5, "eps": 0.1,
             "score_vs": {"big-money": {"mean": 0.6, "ci95": [0.55, 0.65], "n": 400}},
             "games_per_s": 100.0, "seconds_left": 80.0}
    clock.now += 20
    progress(event)
    assert _lines(buf) == ["train: 2,000/10,000 games, eps 0.100, vs big-money 0.6000 "
                           "(0.5500..0.6500, n=400), 100 games/s, 1m20s left"]
    clock.now += 30
    progress.throttle.poke()
    assert _lines(buf)[-1].endswith("100 games/s, round 2 running for 0m30s, 0m50s left")
