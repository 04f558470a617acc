"""Claim the next trial while the current one is evaluated, where that changes nothing.

A trial's claim (Optuna's ``ask``: sampling and one storage record per parameter) takes
10-20 ms in this process. Between two trials the workers would wait for it; claimed in a
thread while the current trial's games are played, it costs them nothing. That is only done
when the next trial's parameters cannot depend on the current trial's result:

- the sampler draws independently of earlier results (``random``, ``qmc``), or
- the next trial is still one of the sampler's start-up trials (``tpe``, ``cmaes``, ``gp``
  draw those at random, from a generator seeded by the trial number), whether or not the
  current trial has been told, or
- in batch mode, the next trial belongs to the current trial's batch (drawn with it).

So a run gives the same trials with or without it, for any number of jobs. Past the start-up
trials (or with ``nsgaii``), trials are claimed one after the other as before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import optuna

from tuning._spec import StudySpec

#: samplers whose every draw ignores earlier results
_INDEPENDENT = ("random", "qmc")
#: samplers that draw their first ``n_startup_trials`` trials at random
_STARTUP = ("tpe", "cmaes", "gp")


def claim_ahead_is_exact(spec: StudySpec, next_number: int) -> bool:
    """Whether trial ``next_number`` gets the same parameters if it is claimed before the
    trial now running is told."""
    sampler = spec.optuna.sampler
    if sampler in _INDEPENDENT:
        return True
    if spec.optuna.batch:  # drawn with its batch, from the batches before: not this trial
        return next_number % spec.optuna.batch != 0
    return sampler in _STARTUP and next_number < spec.optuna.n_startup_trials


class TrialPrefetch:
    """At most one trial claimed ahead, in a background thread."""

    def __init__(self, claim: Callable[[], optuna.Trial | None]) -> None:
        self._claim = claim
        self._thread: threading.Thread | None = None
        self._trial: optuna.Trial | None = None
        self._error: BaseException | None = None

    @property
    def pending(self) -> bool:
        return self._thread is not None

    def start(self) -> None:
        """Claim the next trial in the background (no-op while one is pending)."""
        if self._thread is not None:
            return
        self._trial, self._error = None, None
        self._thread = threading.Thread(target=self._run, name="tabletune-claim-ahead",
                                        daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._trial = self._claim()
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread in take()
            self._error = exc

    def take(self) -> optuna.Trial | None:
        """The trial claimed ahead (None: the budget was full); raises what the claim raised."""
        if self._thread is None:
            raise RuntimeError("no trial is being claimed ahead")
        self._thread.join()
        self._thread = None
        trial, error = self._trial, self._error
        self._trial = self._error = None
        if error is not None:
            raise error
        return trial

    def abandon(self) -> optuna.Trial | None:
        """On a stop: the trial claimed ahead, if any, for the caller to fail and queue
        again with the trials stopped before it (``storage.requeue_trials``)."""
        if self._thread is None:
            return None
        try:
            return self.take()
        except Exception:  # noqa: BLE001 - the run is stopping for another reason already
            return None
