"""Optuna runner: build a study from a spec, run trials to a shared budget, re-evaluate the best.

``run_study`` claims trials until the study holds ``trials`` non-failed trials in total (so
running the same command again resumes, and several processes share one budget), scores each
candidate with :func:`tuning.evaluation.evaluate` on the spec's common seed set, reports every
seed block as an intermediate value (the WilcoxonPruner pairs blocks across trials), and
finally re-evaluates the top candidates on a fresh, larger seed set. The re-evaluated results
are stored as study user attributes; the reported best is the re-evaluated one.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import optuna
from optuna.trial import TrialState

from games.core import BotSpec
from tuning._spec import StudySpec
from tuning._stopping import held_stop
from tuning.evaluation import (
    Evaluation,
    Scorer,
    WorkerPool,
    candidate_bot,
    evaluate,
    evaluate_stream,
)
from tuning.study import _storage as st
from tuning.study._opening import (  # re-exported: callers open studies through the runner
    RUN_ATTR,
    StoredStudy,
    fingerprint,
    load_study,
    open_study,
    stored_run,
)
from tuning.study._prefetch import TrialPrefetch, claim_ahead_is_exact
from tuning.study._reevaluate import best_result, reevaluate

#: what callers import from here (opening a study lives in :mod:`tuning.study._opening`)
__all__ = ["RUN_ATTR", "RunSummary", "StoredStudy", "StudyStopped", "default_params",
           "fingerprint", "load_study", "open_study", "run_study", "state_counts",
           "stored_run"]

optuna.logging.set_verbosity(optuna.logging.WARNING)
warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
Progress = Callable[[dict[str, Any]], None]


@dataclass
class RunSummary:
    """What one ``tabletune run`` did, and where the study stands."""

    study: str
    storage: str
    trials_requested: int
    trials_run_here: int = 0
    stale_failed: list[int] = field(default_factory=list)
    seconds: float = 0.0
    objective_seconds: float = 0.0
    games: int = 0
    best: dict[str, Any] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def optuna_share(self) -> float:
        """Share of this process's loop time spent in Optuna (sampling, storage, pruning)."""
        return max(0.0, 1.0 - self.objective_seconds / self.seconds) if self.seconds else 0.0

    def to_dict(self) -> dict[str, Any]:
        best = self.best
        return {
            "study": self.study,
            "storage": self.storage,
            "trials_requested": self.trials_requested,
            "trials_completed": self.counts.get("COMPLETE", 0),
            "trials_pruned": self.counts.get("PRUNED", 0),
            "trials_failed": self.counts.get("FAIL", 0),
            "trials_run_here": self.trials_run_here,
            "stale_trials_failed": self.stale_failed,
            "best_params": best.get("params"),
            "best_value": best.get("mean"),
            "best_value_ci": best.get("ci95"),
            "best_value_games": best.get("games"),
            "best_trial": best.get("trial"),
            "best_reevaluated": best.get("reevaluated", False),
            "best_confirmed": best.get("confirmed", False),
            "best_selection_value": best.get("selection_value"),
            "best_selection_ci": best.get("selection_ci95"),
            "best_selection_games": best.get("selection_games"),
            "games": self.games,
            "seconds": self.seconds,
            "games_per_second": self.games / self.objective_seconds
            if self.objective_seconds else None,
            "optuna_overhead_share": self.optuna_share,
        }


def state_counts(study: optuna.Study) -> dict[str, int]:
    counts: dict[str, int] = {}
    for t in study.get_trials(deepcopy=False):
        counts[t.state.name] = counts.get(t.state.name, 0) + 1
    return counts


def _candidate(spec: StudySpec, params: dict[str, Any]) -> dict[str, Any]:
    return {"strategy": spec.strategy, "params": dict(params)}


def _record_evaluation(trial: optuna.Trial, ev: Evaluation, objective_seconds: float) -> None:
    """Store what a trial's evaluation played (games, error, interval, its own seconds)."""
    for key, value in (("games", ev.games), ("stderr", ev.stderr), ("ci95", list(ev.ci95)),
                       ("objective_seconds", objective_seconds)):
        trial.set_user_attr(key, value)


def _tell(study: optuna.Study, spec: StudySpec, trial: optuna.Trial, value: float | None,
          state: TrialState, games: int, beat: st.Heartbeat, summary: RunSummary,
          timing: dict[str, float], progress: Progress | None) -> None:
    """Tell an evaluated trial's result, count it and report it (a trial failed meanwhile
    as stale by another worker, which then retried it, is only reported)."""
    beat.drop(trial._trial_id)
    if not st.finish_trial(study, trial, value, state):
        if progress:  # its heartbeat lapsed and another worker retried it already
            progress({"event": "overtaken", "trial": trial.number})
        return
    summary.trials_run_here += 1
    summary.games += games
    if progress:
        progress({"event": "trial", "trial": trial.number, "state": state.name,
                  "value": value, "best": _best_value(study), "games": summary.games,
                  "seconds": timing["objective"] - timing["optuna"],
                  "done": st.budget_used(study)[0], "target": spec.optuna.trials})


def _run_trial(spec: StudySpec, scorer: Scorer, trial: optuna.Trial, progress: Progress | None,
               timing: dict[str, float], pool: WorkerPool
               ) -> tuple[float | None, TrialState, int]:
    """Evaluate one claimed trial; returns its value, final state and games played."""
    ev_spec = spec.evaluation
    prune = spec.optuna.pruner != "none"

    timing_blocks = {"optuna": 0.0}

    def on_block(index: int, mean: float) -> bool:
        t0 = time.perf_counter()
        trial.report(mean, index)
        stop = prune and trial.should_prune()
        spent = time.perf_counter() - t0
        timing["optuna"] += spent
        timing_blocks["optuna"] += spent
        if progress:
            progress({"event": "block", "trial": trial.number, "block": index})
        return stop

    t0 = time.perf_counter()
    ev = evaluate(scorer, candidate_bot(_candidate(spec, trial.params)),
                  games=ev_spec.games, seed=ev_spec.seed, block=ev_spec.block, pool=pool,
                  on_block=on_block, stoppable=prune)
    timing["objective"] += time.perf_counter() - t0
    _record_evaluation(trial, ev, ev.seconds - timing_blocks["optuna"])
    state = TrialState.PRUNED if ev.stopped_early else TrialState.COMPLETE
    return (None if ev.stopped_early else ev.mean), state, ev.games


def _streamable(spec: StudySpec, scorer: Scorer, pool: WorkerPool, next_number: int) -> bool:
    """Whether trials from here on can be played back to back (:func:`_run_streamed`): there
    are workers to keep busy, no pruner may stop a trial, no exact value replaces the games,
    and the next trial's parameters do not depend on this one's result (see
    :func:`claim_ahead_is_exact`)."""
    return (not pool.inline and spec.optuna.pruner == "none" and scorer.sampled_only
            and claim_ahead_is_exact(spec, next_number))


def _run_streamed(spec: StudySpec, scorer: Scorer, study: optuna.Study,
                  opened: st.OpenedStorage, first: optuna.Trial, ahead: TrialPrefetch,
                  beat: st.Heartbeat, pool: WorkerPool, progress: Progress | None,
                  timing: dict[str, float], summary: RunSummary, deadline: float | None) -> None:
    """Evaluate ``first`` and the trials claimed after it, back to back in one stream of
    blocks, for as long as each next trial's parameters cannot depend on the one before
    (random samplers, start-up trials): the next trial's first blocks go to the workers
    while this one's last blocks are still played, so no worker waits between trials.

    Each trial gets the games, values and reports it gets one at a time, in the same order.
    On a stop or an error the trials claimed are handed back (:func:`_give_back`)."""
    ev_spec = spec.evaluation
    unfinished: list[optuna.Trial] = []  # claimed and handed to the workers, not yet told

    def trials() -> Iterator[tuple[optuna.Trial, BotSpec]]:
        trial: optuna.Trial | None = first
        while trial is not None:
            unfinished.append(trial)
            more = (claim_ahead_is_exact(spec, trial.number + 1)
                    and (deadline is None or time.perf_counter() < deadline))
            if more:
                ahead.start()  # claimed while the workers play this trial's games
            yield trial, candidate_bot(_candidate(spec, trial.params))
            if not more:
                return
            trial = ahead.take()

    def on_block(trial: optuna.Trial, index: int, mean: float) -> None:
        t0 = time.perf_counter()
        trial.report(mean, index)
        timing["optuna"] += time.perf_counter() - t0
        if progress:
            progress({"event": "block", "trial": trial.number, "block": index})

    mark = time.perf_counter()
    try:
        for trial, ev in evaluate_stream(scorer, trials(), games=ev_spec.games,
                                         seed=ev_spec.seed, block=ev_spec.block, pool=pool,
                                         on_block=on_block):
            now = time.perf_counter()
            # the workers never stop between trials: each trial is charged the wall time
            # since the one before it was in, so the charges add up to the stream's time
            seconds, mark = now - mark, now
            timing["objective"] += seconds
            unfinished.remove(trial)
            _record_evaluation(trial, ev, seconds)
            _tell(study, spec, trial, ev.mean, TrialState.COMPLETE, ev.games, beat, summary,
                  timing, progress)
    except BaseException as exc:
        beat.watch(None)
        _give_back(study, opened, unfinished, ahead, isinstance(exc, KeyboardInterrupt))
        raise


def _give_back(study: optuna.Study, opened: st.OpenedStorage, claimed: list[optuna.Trial],
               ahead: TrialPrefetch, stopped: bool) -> None:
    """Hand back the trials a run leaves claimed when it ends early (``claimed``: the one
    evaluated first). On a stop (Ctrl-C, SIGTERM) every one, and any claimed ahead, is
    failed and queued again in order, so the next run plays them where this one would have;
    on an error the trial that raised is failed (it was tried) and the others queued again."""
    later = ahead.abandon()
    trials = [*claimed, *([later] if later is not None else [])]
    with held_stop(), opened.claim_lock():  # a second Ctrl-C waits for this to be whole
        if not stopped and claimed:
            st.finish_trial(study, claimed[0], None, TrialState.FAIL)
            trials = trials[1:]
        st.requeue_trials(study, opened, trials)


class StudyStopped(KeyboardInterrupt):
    """Ctrl-C or SIGTERM stopped :func:`run_study`: the finished trials are in the storage,
    the trials it was playing are queued again, and running it again continues."""

    def __init__(self, done: int, target: int, storage: str, reevaluating: bool) -> None:
        super().__init__(f"stopped after {done} of {target} trials")
        self.done, self.target, self.storage = done, target, storage
        self.reevaluating = reevaluating


def run_study(spec: StudySpec, location: str | None = None, progress: Progress | None = None,
              reevaluate_best: bool = True, pool: WorkerPool | None = None) -> RunSummary:
    """Run trials until the study holds ``spec.optuna.trials`` of them, then re-evaluate.

    ``pool``: the run's workers (opened by the caller for the whole run); by default one is
    opened here from the spec's jobs and backend. Ctrl-C (or SIGTERM, where the caller makes
    it one) hands the trials being played back to the study and raises
    :class:`StudyStopped`; running again continues as if nothing had stopped."""
    if pool is None:
        ev = spec.evaluation
        with WorkerPool(ev.jobs, ev.backend, ev.address) as own:
            return run_study(spec, location, progress, reevaluate_best, own)
    study, opened = open_study(spec, location)
    summary = RunSummary(spec.name, opened.location, spec.optuna.trials)
    with opened.claim_lock():
        summary.stale_failed = st.fail_stale_trials(study, opened)
        fresh = not study.get_trials(deepcopy=False)
        if spec.optuna.start_from_defaults and fresh:
            defaults = default_params(spec)
            if defaults:
                study.enqueue_trial(defaults, user_attrs={"start": "strategy defaults"})
        for i, params in enumerate(spec.optuna.enqueue if fresh else ()):
            study.enqueue_trial(params, user_attrs={"start": f"optuna.enqueue[{i}]"})
    if spec.optuna.pruner == "wilcoxon":
        import scipy.stats  # noqa: F401  (one-time import, kept out of trial timings)
    if progress and summary.stale_failed:
        progress({"event": "stale", "trials": summary.stale_failed})
    dists = {name: p.distribution() for name, p in spec.space.items()}
    timing = {"objective": 0.0, "optuna": 0.0}
    start = time.perf_counter()
    deadline = start + spec.optuna.timeout if spec.optuna.timeout else None

    def claim() -> optuna.Trial | None:
        trial = st.claim_trial(study, opened, spec.optuna.trials, dists)
        if trial is not None:
            beat.add(trial._trial_id)
        return trial

    ahead = TrialPrefetch(claim)
    reevaluating = False
    try:
        pool.start()  # before the heartbeat's and the claims' threads
        with st.Heartbeat(study, opened) as beat:
            _run_trials(spec, study, opened, claim, ahead, beat, pool, progress, timing,
                        summary, deadline)
        summary.seconds = time.perf_counter() - start
        summary.objective_seconds = timing["objective"] - timing["optuna"]
        running = study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
        if reevaluate_best and not running:
            reevaluating = True
            reevaluate(study, spec, progress=progress, pool=pool)
    except KeyboardInterrupt:
        counts = state_counts(study)
        raise StudyStopped(counts.get("COMPLETE", 0) + counts.get("PRUNED", 0),
                           spec.optuna.trials, opened.location, reevaluating) from None
    summary.counts = state_counts(study)
    summary.best = best_result(study)
    return summary


def _run_trials(spec: StudySpec, study: optuna.Study, opened: st.OpenedStorage,
                claim: Callable[[], optuna.Trial | None], ahead: TrialPrefetch,
                beat: st.Heartbeat, pool: WorkerPool, progress: Progress | None,
                timing: dict[str, float], summary: RunSummary, deadline: float | None) -> None:
    """Claim and evaluate trials until the budget is spent (or the deadline passes)."""
    while deadline is None or time.perf_counter() < deadline or ahead.pending:
        trial = ahead.take() if ahead.pending else claim()
        if trial is None:
            if opened.shared and st.others_running(study):
                # a cluster: wait for the others' last trials, retrying any that go stale
                time.sleep(min(0.5, st.heartbeat_seconds()))
                failed = st.fail_stale_trials(study, opened, by_pid=False)
                if progress and failed:
                    progress({"event": "stale", "trials": failed})
                continue
            break
        scorer = spec.scorer()
        if _streamable(spec, scorer, pool, trial.number + 1):
            _run_streamed(spec, scorer, study, opened, trial, ahead, beat, pool, progress,
                          timing, summary, deadline)
            continue
        if not pool.inline and claim_ahead_is_exact(spec, trial.number + 1):
            ahead.start()  # claimed while the workers play this trial's games
        try:
            value, state, games = _run_trial(spec, scorer, trial, progress, timing, pool)
        except BaseException as exc:
            beat.watch(None)
            _give_back(study, opened, [trial], ahead, isinstance(exc, KeyboardInterrupt))
            raise
        _tell(study, spec, trial, value, state, games, beat, summary, timing, progress)


def default_params(spec: StudySpec) -> dict[str, Any]:
    """The strategy's default parameters, clipped into the search space (the first trial)."""
    import dataclasses

    from games import registry
    info = registry.get(spec.game).bots().get(spec.strategy or "")
    params_type = None if info is None else info.params_type
    if params_type is None:
        return {}
    defaults = {f.name: f.default for f in dataclasses.fields(params_type)}
    out: dict[str, Any] = {}
    for name, p in spec.space.items():
        value = defaults.get(name)
        if value is None:
            continue
        if p.type == "categorical":
            if value in (p.choices or ()):
                out[name] = value
            continue
        value = min(max(value, p.low), p.high)
        out[name] = int(round(value)) if p.type == "int" else float(value)
    return out


def _best_value(study: optuna.Study) -> float | None:
    try:
        return study.best_value
    except ValueError:
        return None


