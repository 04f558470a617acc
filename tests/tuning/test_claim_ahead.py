"""Claiming the next trial ahead (while the current one plays) and playing start-up trials
back to back in one stream change no trial."""

from __future__ import annotations

import pytest

from tuning._spec import load_spec
from tuning.evaluation import WorkerPool
from tuning.study import _prefetch as prefetch
from tuning.study import _runner as runner
from tuning.study._runner import open_study, run_study


def _trials(spec, store):
    study, _ = open_study(spec, store, create=False)
    return [(t.number, t.state.name, t.params, t.value, t.intermediate_values)
            for t in study.get_trials(deepcopy=False)]


@pytest.mark.parametrize("pruner", ["wilcoxon", "none"])  # "none" with 2 jobs: streamed
@pytest.mark.parametrize("sampler", ["tpe", "random"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_same_trials_with_and_without_claiming_ahead(make_spec, tmp_path, monkeypatch,
                                                     sampler, jobs, pruner):
    # trials past the 4 start-up trials of TPE are claimed one after the other
    spec = load_spec(make_spec(trials=9, sampler=sampler, pruner=pruner))
    claimed_ahead = []
    real = prefetch.TrialPrefetch.start

    def counting_start(self):
        claimed_ahead.append(1)
        real(self)

    streamed = []
    real_stream = runner.evaluate_stream

    def counting_stream(*args, **kw):
        for key, ev in real_stream(*args, **kw):
            streamed.append(key.number)
            yield key, ev

    monkeypatch.setattr(prefetch.TrialPrefetch, "start", counting_start)
    monkeypatch.setattr(runner, "evaluate_stream", counting_stream)
    with WorkerPool(jobs) as pool:
        run_study(spec, str(tmp_path / "ahead.journal"), pool=pool, reevaluate_best=False)
    # start-up trials without a pruner go back to back through one stream of blocks
    stream_used = jobs == 2 and pruner == "none"
    assert streamed == ([] if not stream_used else list(range(9)) if sampler == "random"
                         else [0, 1, 2, 3])
    # in a single process nothing would overlap the claim: it is not done ahead
    assert len(claimed_ahead) == (0 if jobs == 1 else 9 if sampler == "random" else 3)
    monkeypatch.setattr(runner, "claim_ahead_is_exact", lambda spec, number: False)
    with WorkerPool(jobs) as pool:
        run_study(spec, str(tmp_path / "plain.journal"), pool=pool, reevaluate_best=False)
    ahead, plain = (_trials(spec, str(tmp_path / f"{n}.journal")) for n in ("ahead", "plain"))
    assert len(ahead) == 9 and ahead == plain
    assert all(t[1] == "COMPLETE" and len(t[4]) == 4 for t in ahead)


def test_exactness_rule(make_spec):
    tpe = load_spec(make_spec(name="tpe", sampler="tpe"))  # 4 start-up trials
    assert prefetch.claim_ahead_is_exact(tpe, 3)
    assert not prefetch.claim_ahead_is_exact(tpe, 4)
    assert prefetch.claim_ahead_is_exact(load_spec(make_spec(name="r", sampler="random")),
                                         10_000)
    assert not prefetch.claim_ahead_is_exact(load_spec(make_spec(name="n", sampler="nsgaii")),
                                             0)


@pytest.mark.parametrize("pruner", ["wilcoxon", "none"])  # one trial at a time; streamed
def test_a_stop_fails_and_requeues_the_trial_claimed_ahead(make_spec, tmp_path, monkeypatch,
                                                           pruner):
    spec = load_spec(make_spec(trials=6, sampler="random", pruner=pruner))
    calls = []

    def stop_in_trial_2(spec_, scorer, trial, *args):
        calls.append(trial.number)
        if trial.number == 2:
            raise KeyboardInterrupt
        return real(spec_, scorer, trial, *args)

    def stream_stopping_in_trial_2(*args, on_block, **kw):
        def watch(trial, index, mean):
            calls.append(trial.number)
            if trial.number == 2:
                raise KeyboardInterrupt
            on_block(trial, index, mean)
        return real_stream(*args, on_block=watch, **kw)

    real, real_stream = runner._run_trial, runner.evaluate_stream
    monkeypatch.setattr(runner, "_run_trial", stop_in_trial_2)
    monkeypatch.setattr(runner, "evaluate_stream", stream_stopping_in_trial_2)
    with WorkerPool(2) as pool, pytest.raises(KeyboardInterrupt):
        run_study(spec, str(tmp_path / "s.journal"), reevaluate_best=False, pool=pool)
    assert 2 in calls
    study, _ = open_study(spec, str(tmp_path / "s.journal"), create=False)
    states = {t.number: t.state.name for t in study.get_trials(deepcopy=False)}
    assert states[0] == states[1] == "COMPLETE"
    # 3 was claimed ahead and never finished; a stream may have claimed more by then (how
    # many depends on how far the workers got): every one is failed and requeued, in order
    # the stopped trial is queued again first, so the next run plays them all in order
    assert states[2] == "FAIL" and states[3] == "FAIL"
    stopped = [t for t in study.get_trials(deepcopy=False)
               if t.number >= 2 and t.state.name == "FAIL"]
    assert [t.number for t in stopped] == list(range(2, 2 + len(stopped)))
    waiting = [t for t in study.get_trials(deepcopy=False) if t.state.name == "WAITING"]
    assert [t.system_attrs["fixed_params"] for t in waiting] == [t.params for t in stopped]
    assert [t.user_attrs["retry_of"] for t in waiting] == [t.number for t in stopped]
    assert not [t for t in study.get_trials(deepcopy=False) if t.state.name == "RUNNING"]
