"""Ctrl-C, SIGTERM and kill -9 leave a way back: a stopped `run`, `evolve` or `train` leaves
one line on stderr that says what was kept and the command that continues, and a study
killed midway and resumed ends with the trials of an uninterrupted run."""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import textwrap
import time
from pathlib import Path

import numpy as np
import optuna
import pytest
from optuna.trial import TrialState

from tuning._spec import load_spec
from tuning.evaluation import WorkerPool
from tuning.study import _storage as st
from tuning.study._runner import open_study, run_study


def _study(journal: Path) -> optuna.Study | None:
    if not journal.exists():
        return None
    opened = st.open_storage(str(journal), create=False)
    names = st.study_names(opened)
    return optuna.load_study(study_name=names[0], storage=opened.storage) if names else None


def _midway(journal: Path, done: int = 5) -> bool:
    """Whether ``done`` trials are complete and the next one has played a block (a stop now
    falls inside a trial, not inside a write to the journal)."""
    study = _study(journal)
    if study is None:
        return False
    trials = study.get_trials(deepcopy=False)
    return (sum(t.state == TrialState.COMPLETE for t in trials) >= done
            and any(t.state == TrialState.RUNNING and t.intermediate_values for t in trials))


def _trials(journal: Path) -> list[tuple[dict, float]]:
    """The trials that count, in the order they were played: parameters and value."""
    study = _study(journal)
    assert study is not None
    return [(t.params, t.value) for t in study.get_trials(deepcopy=False)
            if t.state != TrialState.FAIL]


def _wait_for(predicate, proc: subprocess.Popen, timeout: float = 90.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    out, err = proc.communicate()
    pytest.fail(f"the run ended or hung before the point to stop it: {err[-1500:]}")


def _spec(make_spec, sampler: str = "tpe") -> Path:
    """Ten trials of four blocks; tpe draws its first four at random, then from history."""
    return make_spec(name="stop", trials=10, games=200, block=50, pruner="none",
                     sampler=sampler)


def _uninterrupted(path: Path, tmp_path: Path, monkeypatch) -> list[tuple[dict, float]]:
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0")
    journal = tmp_path / "whole.journal"
    with WorkerPool(1) as pool:
        run_study(load_spec(path), str(journal), reevaluate_best=False, pool=pool)
    return _trials(journal)


def _stop_line(err: str, proc: subprocess.Popen) -> str:
    """The one line a stop leaves: the last on stderr, and the only one of its kind."""
    assert proc.returncode == 130, err[-1500:]
    assert "Traceback" not in err, err[-1500:]
    lines = [line for line in err.splitlines() if line.strip()]
    assert sum(line.startswith("stopped ") for line in lines) == 1, err[-1500:]
    assert lines[-1].startswith("stopped"), err[-1500:]
    return lines[-1]


def _continue(line: str) -> list[str]:
    """The arguments of the command the stop line says continues the run."""
    words = shlex.split(line.split("continue with: ", 1)[1])
    assert words[0] == "tabletune"
    return words[1:]


@pytest.mark.parametrize("sampler,jobs", [("tpe", 1), ("random", 2), ("ntbea", 1)])
def test_a_killed_run_resumes_to_the_trials_of_an_uninterrupted_one(tmp_path, make_spec, cli,
                                                                    monkeypatch, sampler, jobs):
    path = _spec(make_spec, sampler)
    whole = _uninterrupted(path, tmp_path, monkeypatch)
    journal = tmp_path / "killed.journal"
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0.05")  # 0.2 s a trial
    victim = cli.start("run", str(path), "--storage", str(journal), "-j", str(jobs))
    try:  # past tpe's start-up trials: the next ones depend on the history
        _wait_for(lambda: _midway(journal), victim)
    finally:
        victim.kill()  # SIGKILL: no handler runs
        victim.communicate(timeout=30)
    cut = _study(journal)
    assert cut is not None and cut.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0")
    res = cli("run", str(path), "--storage", str(journal), "-j", str(jobs), "--json")
    assert res.returncode == 0, res.stderr[-1500:]
    assert "marked stale running trial(s)" in " ".join(res.stderr.split())
    study = _study(journal)
    failed = study.get_trials(deepcopy=False, states=(TrialState.FAIL,))
    retried = [t.user_attrs.get("retry_of") for t in study.get_trials(deepcopy=False)]
    # a claimed trial is played again, in order; a queued one (no parameters yet) that
    # waited behind it is queued again as it was
    assert failed and all(t.number in retried for t in failed if t.params)
    assert _trials(journal) == whole


def test_a_retry_is_played_before_the_trials_queued_behind_it(make_spec, tmp_path):
    import socket

    spec = load_spec(make_spec(name="queued", trials=6, pruner="none"))
    queued = [{"x": 0.1, "y": 0.2, "k": 4}, {"x": 0.9, "y": 0.8, "k": 6},
              {"x": 0.4, "y": 0.5, "k": 2}]

    def run(journal: Path, cut: bool) -> list[tuple[dict, float]]:
        study, opened = open_study(spec, str(journal))
        for params in queued:
            study.enqueue_trial(params)
        if cut:  # the first, left running by a process that is gone; two queued behind it
            dists = {n: p.distribution() for n, p in spec.space.items()}
            trial = st.claim_trial(study, opened, 6, dists)
            dead = subprocess.Popen(["true"])
            dead.wait()
            study._storage.set_trial_system_attr(trial._trial_id, "tabletune:owner",
                                                 [socket.gethostname(), dead.pid])
        with WorkerPool(1) as pool:
            run_study(spec, str(journal), reevaluate_best=False, pool=pool)
        return _trials(journal)

    whole = run(tmp_path / "whole.journal", cut=False)
    assert [params for params, _ in whole[:3]] == queued
    assert run(tmp_path / "cut.journal", cut=True) == whole


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_run_says_how_to_continue_and_continues_exactly(tmp_path, make_spec, cli,
                                                                  monkeypatch, sig):
    path = _spec(make_spec)
    whole = _uninterrupted(path, tmp_path, monkeypatch)
    journal = tmp_path / "stopped.journal"
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0.05")
    proc = cli.start("run", str(path), "--storage", str(journal))
    _wait_for(lambda: _midway(journal), proc)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    line = _stop_line(err, proc)
    assert line.startswith("stopped after trial ") and " of 10; " in line
    assert f"kept in {journal}" in line
    assert _continue(line) == ["run", str(path), "--storage", str(journal)]
    study = _study(journal)
    assert not study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0")
    res = cli(*_continue(line))
    assert res.returncode == 0, res.stderr[-1500:]
    assert "stale" not in res.stderr  # the stop handed its trial back itself
    assert _trials(journal) == whole


# `run` above meets both signals; every long command turns SIGTERM into the same stop as
# Ctrl-C (tuning/_stopping.py), so the evolution meets SIGTERM and the training Ctrl-C.
@pytest.mark.parametrize("sig", [signal.SIGTERM])
def test_a_stopped_evolution_says_how_to_continue_and_continues_exactly(tmp_path, toy_spec,
                                                                        cli, monkeypatch, sig):
    from tuning.evolution._runner import build_evolution

    path = toy_spec
    whole = build_evolution(load_spec(path), WorkerPool(), generations=6,
                            checkpoint=tmp_path / "whole.ckpt").run()
    ck = tmp_path / "stopped.ckpt"
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0.01")
    monkeypatch.setenv("TABLETUNE_PROGRESS_SECONDS", "0.1")  # every generation's row
    proc = cli.start("evolve", str(path), "-g", "6", "--checkpoint", str(ck))
    _wait_for(lambda: ck.with_suffix(".log").is_file()
              and "gen   1/" in ck.with_suffix(".log").read_text(), proc)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    line = _stop_line(err, proc)
    assert line.startswith("stopped after generation ") and f"checkpoint {ck};" in line
    args = _continue(line)
    assert args[:3] == ["evolve", str(path), "--resume"] and "-g" in args
    monkeypatch.setenv("TABLETUNE_TEST_DELAY", "0")
    res = cli(*args, "--json")
    assert res.returncode == 0, res.stderr[-1500:]
    data = json.loads(res.stdout)
    assert data["generations"] == 6
    assert [h["genome"] for h in data["hall_of_fame"]] == [t for t, _ in whole.hall_of_fame]


TRAIN = """
[study]
name = "learned-stop"
game = "dominion"
optimizer = "train"
strategy = "learned"
objective = "win_rate"

[game]
kingdom = "default"

[train]
games = {games}
round_games = 400
block = 200
jobs = 1
opponents = ["self", "big-money"]
probe = ["big-money"]
probe_games = 100
probe_every = 2
snapshot_every = 1
checkpoint_every = 1000
model = "{folder}/model.npz"
checkpoint = "{folder}/checkpoint.pkl"
"""


def _train_spec(tmp_path: Path, games: int) -> Path:
    path = tmp_path / "learned-stop.toml"
    path.write_text(textwrap.dedent(TRAIN.format(games=games, folder=tmp_path)))
    return path


def test_a_stop_before_the_first_checkpoint_keeps_the_rounds_and_resumes_exactly(tmp_path):
    from games.core import BotSpec
    from games.dominion._cards import DEFAULT_KINGDOM
    from tuning.train import (
        TrainingStopped,
        TrainSpec,
        load_checkpoint,
        new_state,
        train,
        train_spec,
    )

    def spec(folder: Path) -> TrainSpec:  # no checkpoint of its own before the end
        return train_spec("dominion", dict(
            games=2000, round_games=400, block=200, probe_games=100, probe_every=2,
            checkpoint_every=1000, snapshot_every=1, opponents=("self", "big-money"),
            model=str(folder / "model.npz"), checkpoint=str(folder / "ck.pkl")))

    opps = {"big-money": BotSpec("big-money")}
    whole_spec, part_spec = spec(tmp_path / "whole"), spec(tmp_path / "part")
    with WorkerPool(1) as pool:
        whole = train(new_state("t", whole_spec, DEFAULT_KINGDOM), whole_spec, opps, pool)

    def stop_at_round_2(event: dict) -> None:
        if event["round"] == 2:
            raise KeyboardInterrupt  # as Ctrl-C between two rounds

    with WorkerPool(1) as pool, pytest.raises(TrainingStopped) as info:
        train(new_state("t", part_spec, DEFAULT_KINGDOM), part_spec, opps, pool,
              progress=stop_at_round_2)
    assert info.value.games == 800 and info.value.checkpoint == part_spec.checkpoint
    kept = load_checkpoint(part_spec.checkpoint, "t", part_spec.trainer)
    assert kept.round == 2 and kept.games == 800
    assert Path(part_spec.model).is_file()
    with WorkerPool(1) as pool:
        resumed = train(kept, part_spec, opps, pool)
    assert np.array_equal(resumed.estimator.weights(), whole.estimator.weights())
    assert resumed.curve == whole.curve


@pytest.mark.parametrize("sig", [signal.SIGINT])
def test_a_stopped_training_says_how_to_continue_and_continues(tmp_path, cli, monkeypatch,
                                                               sig):
    from games import registry
    from tuning.train import load_checkpoint

    trainer = registry.get("dominion").trainer()
    path = _train_spec(tmp_path, games=400_000)  # far more than the test lets it play
    ck = tmp_path / "checkpoint.pkl"
    monkeypatch.setenv("TABLETUNE_PROGRESS_SECONDS", "0.1")  # a line every round

    def run_until_a_round(*args: str) -> str:
        proc = cli.start("train", *args)
        assert proc.stderr is not None
        seen = []
        for text in proc.stderr:  # progress lines: "train: 800/400,000 games, ..."
            seen.append(text)
            if text.startswith("train: ") and "/400,000 games" in text:
                break
        else:
            proc.kill()
            pytest.fail("no progress line: " + "".join(seen)[-1500:])
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)
        return _stop_line("".join(seen) + err, proc)

    first = run_until_a_round(str(path))
    assert first.startswith("stopped after ") and f"kept in {ck} " in first
    games = load_checkpoint(ck, "learned-stop", trainer).games
    assert games > 0 and f"stopped after {games:,} of 400,000 games" in first
    args = _continue(first)
    assert args == ["train", str(path), "--resume"]
    second = run_until_a_round(*args[1:])
    more = load_checkpoint(ck, "learned-stop", trainer).games
    assert more > games and f"stopped after {more:,} of 400,000 games" in second
