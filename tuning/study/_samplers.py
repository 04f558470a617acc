"""The study's sampler and pruner from its spec, with per-trial seeding.

Every sampler is wrapped so that each trial draws from a generator seeded by the study seed
and the trial's place in the study (:class:`TrialSeededSampler`): the same seed gives the
same trials, processes sharing a study never draw the same start-up candidates, and a run
stopped or killed mid-trial, then resumed, ends with the trials an uninterrupted run has.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable
from typing import Any

import optuna
from optuna.trial import TrialState

from games.core import InputError
from tuning._spec import StudySpec
from tuning.evaluation import derived_seed
from tuning.study import _storage as st


def place(study: optuna.Study, trial: optuna.trial.FrozenTrial) -> int:
    """The trial's place in the study: its number less the failed trials before it that a
    stop or a killed process left (their retry, or the next trial if they had no parameters
    yet, takes their place).

    Without a stop it is the trial number; after one, the trials sampled after the retries
    get the places, hence the seeds, they had in an uninterrupted run."""
    retried = sum(1 for t in study.get_trials(deepcopy=False, states=(TrialState.FAIL,))
                  if t.number < trial.number and st.was_requeued(t))
    return trial.number - retried


class TrialSeededSampler(optuna.samplers.BaseSampler):
    """Wrap a sampler so the trial at place n (:func:`place`) samples from a generator
    seeded by (seed, n).

    Results then reproduce for a seed, also across a stop or a killed process and its
    resume, and processes sharing a study never draw identical start-up candidates (each
    trial number is claimed by one process only).
    """

    def __init__(self, factory: Callable[[int], optuna.samplers.BaseSampler], seed: int) -> None:
        self._factory, self._seed = factory, seed
        self._inner: dict[int, optuna.samplers.BaseSampler] = {}
        self._lock = threading.Lock()  # a trial may be claimed ahead in another thread

    def _for(self, study: optuna.Study,
             trial: optuna.trial.FrozenTrial) -> optuna.samplers.BaseSampler:
        with self._lock:
            if trial.number not in self._inner:
                n = place(study, trial)
                self._inner[trial.number] = self._factory(derived_seed(self._seed, f"trial:{n}"))
            return self._inner[trial.number]

    def before_trial(self, study: optuna.Study, trial: optuna.trial.FrozenTrial) -> None:
        self._for(study, trial).before_trial(study, trial)

    def infer_relative_search_space(self, study: optuna.Study,
                                    trial: optuna.trial.FrozenTrial) -> dict[str, Any]:
        return self._for(study, trial).infer_relative_search_space(study, trial)

    def sample_relative(self, study: optuna.Study, trial: optuna.trial.FrozenTrial,
                        search_space: dict[str, Any]) -> dict[str, Any]:
        return self._for(study, trial).sample_relative(study, trial, search_space)

    def sample_independent(self, study: optuna.Study, trial: optuna.trial.FrozenTrial,
                           param_name: str, param_distribution: Any) -> Any:
        return self._for(study, trial).sample_independent(study, trial, param_name,
                                                          param_distribution)

    def after_trial(self, study: optuna.Study, trial: optuna.trial.FrozenTrial,
                    state: TrialState, values: Any) -> None:
        self._for(study, trial).after_trial(study, trial, state, values)
        with self._lock:
            self._inner.pop(trial.number, None)

    def reseed_rng(self) -> None:
        pass


def make_sampler(spec: StudySpec) -> optuna.samplers.BaseSampler:
    """The spec's sampler by name (TPE by default), seeded from the study seed; in batch mode
    (``[optuna] batch``) drawn a batch at a time (:mod:`tuning.study._batches`; ``qmc`` is
    the same for any worker count already: its sequence is indexed by trial number)."""
    name, seed = spec.optuna.sampler, spec.evaluation.seed
    startup = spec.optuna.n_startup_trials
    s = optuna.samplers
    if name == "qmc":  # a scrambled sequence indexed by trial number: one seed for all
        return s.QMCSampler(seed=seed % 2**32, scramble=True)
    if name == "cmaes":
        try:
            import cmaes  # noqa: F401
        except ImportError:
            raise InputError("sampler 'cmaes' needs the cmaes package") from None
    if name == "gp":
        try:
            import torch  # noqa: F401
        except ImportError:
            raise InputError("sampler 'gp' needs PyTorch: pip install -e '.[gp]'") from None
    factories: dict[str, Callable[[int], optuna.samplers.BaseSampler]] = {
        "tpe": lambda r: s.TPESampler(seed=r % 2**32, n_startup_trials=startup,
                                      multivariate=True, constant_liar=True),
        "random": lambda r: s.RandomSampler(seed=r % 2**32),
        "cmaes": lambda r: s.CmaEsSampler(seed=r % 2**32, n_startup_trials=startup,
                                          warn_independent_sampling=False),
        "gp": lambda r: s.GPSampler(seed=r % 2**32, n_startup_trials=startup),
        "nsgaii": lambda r: s.NSGAIISampler(seed=r % 2**32),
    }
    if name == "ntbea":
        from tuning.study._ntbea import NTBEASampler

        space, grids = ntbea_space(spec)
        settings = spec.optuna.ntbea
        factories["ntbea"] = lambda r: NTBEASampler(space, settings, seed=r % 2**32,
                                                    grids=grids)
    if spec.optuna.batch:
        from tuning.study._batches import BatchSampler

        space = {n: p.distribution() for n, p in spec.space.items()}
        return BatchSampler(factories[name], seed, spec.optuna.batch, space, place)
    return TrialSeededSampler(factories[name], seed)


def ntbea_space(spec: StudySpec) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """The study's space as Optuna distributions, and the stated grid of each float that has
    one (``grid = N`` in its ``[space.NAME]`` table)."""
    space = {n: p.distribution() for n, p in spec.space.items()}
    grids = {n: values for n, p in spec.space.items()
             if (values := p.grid_values()) is not None}
    return space, grids


def make_pruner(spec: StudySpec) -> optuna.pruners.BasePruner:
    """WilcoxonPruner (paired per-block test against the best trial), median, or none."""
    if spec.optuna.pruner == "wilcoxon":
        with warnings.catch_warnings():  # experimental in Optuna 3.6-5.0; the API is stable
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            return optuna.pruners.WilcoxonPruner(p_threshold=spec.optuna.p_threshold,
                                                 n_startup_steps=2)
    if spec.optuna.pruner == "median":
        return optuna.pruners.MedianPruner(n_startup_trials=5, n_warmup_steps=2)
    return optuna.pruners.NopPruner()
