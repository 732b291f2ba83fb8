"""What promotion ASHA and population-based training share: trials that train in segments,
pause between them holding nothing, and resume on the warm worker groups Tune's actor cache keeps
for them (``TrialActorHold``). Each scheduler says which trials wait (``_waiting_ids``) and
forgets a trial that ended (``_forget``); this base counts the trials that train, holds one
actor per trial slot while any trial waits, and takes the metric and mode from the spec."""

from __future__ import annotations

from typing import Any

from ray.tune.experiment import Trial
from ray.tune.schedulers import FIFOScheduler

from service.engine.ray_compat import TrialActorHold


class SegmentedScheduler(FIFOScheduler):
    def __init__(self, max_running: int) -> None:
        super().__init__()
        self._max_running = max(1, max_running)
        self._actors = TrialActorHold()

    def __setstate__(self, state: dict[str, Any]) -> None:
        # a scheduler Tune pickled (tuner.pkl) before the actor hold existed restores with one
        self.__dict__.update(state)
        self.__dict__.setdefault("_actors", TrialActorHold())

    def set_search_properties(self, metric: str | None, mode: str | None, **spec: Any) -> bool:
        return True  # the metric and mode come from the spec, in the constructor

    def on_trial_complete(self, tune_controller: Any, trial: Trial, result: dict[str, Any]) -> None:
        self._forget(trial.trial_id)

    def on_trial_error(self, tune_controller: Any, trial: Trial) -> None:
        self._forget(trial.trial_id)

    def on_trial_remove(self, tune_controller: Any, trial: Trial) -> None:
        self._forget(trial.trial_id)

    def _waiting_ids(self) -> set[str]:
        """The trials waiting for their next segment (paused, parked, ready)."""
        raise NotImplementedError

    def _forget(self, tune_id: str) -> None:
        raise NotImplementedError

    def _hold_actors(self, tune_controller: Any, trial: Trial) -> None:
        """One actor per trial slot while a trial waits for its next segment, none once none
        does (Tune's choice again: the sweep is ending)."""
        count = self._max_running if self._waiting_ids() else 0
        self._actors.hold(tune_controller, trial, count)

    def _running(self, tune_controller: Any, but: Trial | None = None) -> int:
        waiting = self._waiting_ids()
        return sum(
            1
            for trial in tune_controller.get_trials()
            if trial.status in (Trial.RUNNING, Trial.PENDING)
            and trial is not but
            and trial.trial_id not in waiting
        )
