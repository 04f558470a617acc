"""Batch mode (``[optuna] batch = B``): the same study for any number of workers, processes
and machines.

A study's trials are proposed B at a time. The trials of batch b (places b*B .. b*B + B - 1,
:func:`tuning.study._samplers.place`) are drawn, all of them together, by the spec's sampler
seeded for batch b, from a copy of the study that holds the trials of the batches before it
and nothing else; a trial of batch b waits until those have finished. Every process that
shares the study (several ``tabletune run`` on one journal or PostgreSQL database, each with
its own ``--jobs``, on loky, Ray or Dask) therefore draws the same parameters for the same
place, and because every candidate plays the same seeds, gets the same values: one process
with ``-j 1`` and four processes with ``-j 4`` make the same study and the same best.

What it costs: within a batch the sampler learns nothing from the batch's own results, and
a process may wait for a batch that another one is finishing. A pruner would decide by the
trials finished at that moment, which depend on the timing, so batch mode plays every trial
whole (``pruner = "none"``, checked when the spec loads).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import optuna
from optuna.distributions import BaseDistribution
from optuna.trial import FrozenTrial, TrialState

from tuning.evaluation import derived_seed
from tuning.study import _storage as st

__all__ = ["BatchSampler"]

#: seconds between two looks at the storage while a batch before this one is finishing
POLL_SECONDS = 0.2
#: trial system attributes of the study's own bookkeeping, never copied from a batch's draw
_OWN_PREFIXES = ("tabletune:", "fixed_params")


def _finished(trial: FrozenTrial) -> bool:
    """A trial whose place holds a result (a failed trial that was handed back holds none:
    its retry takes its place)."""
    if trial.state in (TrialState.COMPLETE, TrialState.PRUNED):
        return True
    return trial.state == TrialState.FAIL and not st.was_requeued(trial)


class BatchSampler(optuna.samplers.BaseSampler):
    """Draw the trials of each batch of ``size`` places together, from the batches before it
    (``factory(seed)``: the spec's sampler; ``space``: the study's distributions)."""

    def __init__(self, factory: Callable[[int], optuna.samplers.BaseSampler], seed: int,
                 size: int, space: dict[str, BaseDistribution],
                 place: Callable[[optuna.Study, FrozenTrial], int]) -> None:
        self._factory, self._seed, self._size = factory, seed, size
        self._space, self._place = dict(space), place
        self._drawn: dict[int, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
        self._lock = threading.Lock()
        self._fallback = optuna.samplers.RandomSampler(seed=seed % 2**32)

    def reseed_rng(self) -> None:
        pass  # every draw is seeded by its batch

    def infer_relative_search_space(self, study: optuna.Study,
                                    trial: FrozenTrial) -> dict[str, BaseDistribution]:
        return dict(self._space)

    def _history(self, study: optuna.Study, batch: int) -> list[FrozenTrial]:
        """The finished trials of the batches before ``batch``, in place order; waits until
        every one of their places has finished."""
        need = batch * self._size
        while True:
            trials = study.get_trials(deepcopy=True)
            placed = []
            for t in trials:
                if _finished(t):
                    where = self._place(study, t)
                    if where < need:
                        placed.append((where, t))
            if len({where for where, _ in placed}) >= need:
                return [t for _, t in sorted(placed, key=lambda p: (p[0], p[1].number))]
            time.sleep(POLL_SECONDS)

    def _draw(self, study: optuna.Study, batch: int
              ) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """The parameters (and the sampler's own trial attributes) of each place of
        ``batch``, drawn on a copy of the study holding only the batches before it."""
        history = self._history(study, batch)
        copy = optuna.create_study(storage=optuna.storages.InMemoryStorage(),
                                   direction=study.direction,
                                   sampler=self._factory(derived_seed(self._seed,
                                                                      f"batch:{batch}")))
        usable = [t for t in history if t.state != TrialState.FAIL
                  and set(t.params) == set(self._space)]
        copy.add_trials(usable)
        out = []
        for _ in range(self._size):
            trial = copy.ask(fixed_distributions=self._space)
            frozen = copy._storage.get_trial(trial._trial_id)
            out.append((dict(trial.params), dict(frozen.system_attrs)))
        return out

    def sample_relative(self, study: optuna.Study, trial: FrozenTrial,
                        search_space: dict[str, BaseDistribution]) -> dict[str, Any]:
        if not search_space:
            return {}
        where = self._place(study, trial)
        batch, slot = divmod(where, self._size)
        with self._lock:
            if batch not in self._drawn:
                self._drawn[batch] = self._draw(study, batch)
                for old in [b for b in self._drawn if b < batch - 1]:
                    del self._drawn[old]
            params, attrs = self._drawn[batch][slot]
        for key, value in attrs.items():  # a sampler's state (CMA-ES) for later batches
            if not key.startswith(_OWN_PREFIXES):
                study._storage.set_trial_system_attr(trial._trial_id, key, value)
        return {name: params[name] for name in search_space if name in params}

    def sample_independent(self, study: optuna.Study, trial: FrozenTrial, param_name: str,
                           param_distribution: BaseDistribution) -> Any:
        return self._fallback.sample_independent(study, trial, param_name, param_distribution)
