"""Tune -> database: the callback feeding the recorder, and the stopper honouring control
requests (cancel, pause) and the sweep's target.

Tune pickles its callbacks, stopper and scheduler into the experiment directory so that
``Tuner.restore`` can rebuild them. These classes therefore hold only plain data and reach the
driver's process-local state (the recorder, the database) through ``DriverContext.current()``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ray import tune
from ray.tune.experiment import Trial
from ray.tune.result import AUTO_RESULT_KEYS

from raysweep.schemas import TrialState
from service.engine.recorder import Recorder, ResultReported, TrialEnded, TrialStarted

# Tune's bookkeeping; the rest of a result is what the trainer reported
SKIPPED_KEYS = set(AUTO_RESULT_KEYS) - {"time_total_s"} | {
    "done",
    "trial_id",
    "experiment_tag",
    "should_checkpoint",
    "checkpoint_path",
    "time_this_iter_s",
    "timestamp",
}
CHECKPOINT_PATH_KEY = "checkpoint_path"  # added by TuneReportCallback


@dataclass
class DriverContext:
    """What one driver process shares between Tune's hooks; never pickled."""

    recorder: Recorder
    read_request: Callable[[], str | None]
    time_attr: str
    max_t: int
    metric: str
    mode: str
    target: float | None
    poll_s: float = 1.0
    pruned: set[str] = field(default_factory=set)
    request: str | None = None
    target_reached_by: str | None = None
    _last_poll: float = 0.0

    _current: ClassVar[DriverContext | None] = None

    def bind(self) -> DriverContext:
        DriverContext._current = self
        return self

    @classmethod
    def current(cls) -> DriverContext:
        if cls._current is None:
            raise RuntimeError("no driver context bound in this process")
        return cls._current

    def poll_request(self) -> str | None:
        now = time.monotonic()
        if self.request is None and now - self._last_poll >= self.poll_s:
            self._last_poll = now
            self.request = self.read_request()
        return self.request

    def end_state(self, trial: Trial) -> TrialState:
        """How a TERMINATED trial ended: pruned by ASHA, completed, or cancelled with its sweep."""
        if trial.trial_id in self.pruned:
            return TrialState.pruned
        if (trial.last_result or {}).get(self.time_attr, 0) >= self.max_t:
            return TrialState.completed
        if self.request is not None or self.target_reached_by is not None:
            return TrialState.cancelled
        return TrialState.completed


def reported_metrics(result: dict[str, Any]) -> dict[str, Any]:
    metrics = {}
    for key, value in result.items():
        if key in SKIPPED_KEYS or not isinstance(value, int | float | str | bool):
            continue
        metrics[key] = None if isinstance(value, float) and not math.isfinite(value) else value
    return metrics


def trial_error_text(trial: Trial) -> str:
    if trial.error_file:
        try:
            with open(trial.error_file) as handle:
                return handle.read()
        except OSError:
            pass
    error = trial.get_error()
    return str(error) if error is not None else "the trial failed without an error message"


class RecordingCallback(tune.Callback):
    """Never blocks Tune: every event is appended to the recorder's buffer."""

    def on_trial_start(
        self, iteration: int, trials: list[Trial], trial: Trial, **info: Any
    ) -> None:
        DriverContext.current().recorder.submit(TrialStarted(trial.trial_id, dict(trial.config)))

    def on_trial_result(
        self, iteration: int, trials: list[Trial], trial: Trial, result: dict[str, Any], **info: Any
    ) -> None:
        context = DriverContext.current()
        step = result.get(context.time_attr, result.get("training_iteration"))
        context.recorder.submit(
            ResultReported(
                trial.trial_id, int(step), reported_metrics(result), result.get(CHECKPOINT_PATH_KEY)
            )
        )

    def on_trial_complete(
        self, iteration: int, trials: list[Trial], trial: Trial, **info: Any
    ) -> None:
        context = DriverContext.current()
        context.recorder.submit(TrialEnded(trial.trial_id, context.end_state(trial)))

    def on_trial_error(
        self, iteration: int, trials: list[Trial], trial: Trial, **info: Any
    ) -> None:
        DriverContext.current().recorder.submit(
            TrialEnded(trial.trial_id, TrialState.failed, trial_error_text(trial))
        )


class SweepStopper(tune.Stopper):
    """Stops the whole sweep on a control request found in the database (polled at most every
    ``poll_s``), or once a trial reaches the target metric."""

    def __call__(self, trial_id: str, result: dict[str, Any]) -> bool:
        context = DriverContext.current()
        value = result.get(context.metric)
        if (
            context.target is not None
            and isinstance(value, int | float)
            and (value >= context.target if context.mode == "max" else value <= context.target)
        ):
            context.target_reached_by = context.target_reached_by or trial_id
        return False

    def stop_all(self) -> bool:
        context = DriverContext.current()
        return context.poll_request() is not None or context.target_reached_by is not None
