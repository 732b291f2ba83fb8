"""Tune -> the API: the callback feeding the recorder, and the stopper honouring control
requests (cancel, pause) and the sweep's target.

Tune pickles its callbacks, stopper and scheduler into the experiment directory so that
``Tuner.restore`` can rebuild them. These classes therefore hold only plain data and reach the
driver's process-local state (the recorder, its job's API) through ``DriverContext.current()``.
"""

from __future__ import annotations

import logging
import math
import os
import signal
from typing import Any

from ray import cloudpickle, tune
from ray.exceptions import RayActorError, RayTaskError
from ray.tune.experiment import Trial
from ray.tune.result import AUTO_RESULT_KEYS

from raysweep.lifecycle import TrialState
from raysweep.mode import Mode
from service.engine.driver_context import DriverContext
from service.engine.trial import (
    CONTROL_KEYS,
    FAILED_KEY,
    TrialFailedBefore,
    named,
    run_name,
)
from service.engine.user_code import CODE_LOAD_MARKER, CodeLoadError
from service.usecases.job_outcomes import error_line
from service.usecases.reports import (
    ResultReported,
    TrialEnded,
    TrialRestarted,
    TrialStarted,
    TrialYielded,
)
from trainers.registry import YIELDED_KEY

# Tune's bookkeeping; the rest of a result is what the trainer reported
SKIPPED_KEYS = set(AUTO_RESULT_KEYS) - {"time_total_s"} | {
    "done",
    "trial_id",
    "experiment_tag",
    "should_checkpoint",
    "checkpoint_path",
    "time_this_iter_s",
    "timestamp",
    YIELDED_KEY,
}
CHECKPOINT_PATH_KEY = "checkpoint_path"  # added by TuneReportCallback
log = logging.getLogger(__name__)


def reported_metrics(result: dict[str, Any]) -> dict[str, Any]:
    metrics = {}
    for key, value in result.items():
        if key in SKIPPED_KEYS or not isinstance(value, int | float | str | bool):
            continue
        metrics[key] = None if isinstance(value, float) and not math.isfinite(value) else value
    return metrics


def latest_error(trial: Trial) -> BaseException | None:
    """The trial's latest error as Tune pickled it, read beside the trial's local files (Tune's
    ``get_pickled_error`` reads the copy on storage, which is synced later)."""
    path = trial.pickled_error_file
    if not path or not os.path.exists(path):
        return None
    try:
        with open(path, "rb") as handle:
            error = cloudpickle.load(handle)
    except Exception:  # not unpicklable here: treated as an error of the trial's own
        log.warning("could not read the pickled error of trial %s", trial.trial_id, exc_info=True)
        return None
    return error if isinstance(error, BaseException) else None


def process_lost(error: BaseException | None) -> bool:
    """Whether a trial's error is the loss of an actor (its own, or one it waited on, such as
    its Train controller), as Tune itself tells them apart, rather than an error it raised."""
    if isinstance(error, RayTaskError):
        error = error.as_instanceof_cause()
    return isinstance(error, RayActorError)


def code_load_message(error_text: str) -> str:
    """The ``CodeLoadError: ...`` line of a trial's traceback (the import error it wraps)."""
    lines = [line for line in error_text.splitlines() if CODE_LOAD_MARKER in line]
    return lines[-1].split(CODE_LOAD_MARKER, 1)[1].strip() if lines else error_text.strip()[-2000:]


def requirements_message(error_text: str) -> str | None:
    """Why Ray could not set up the trial's runtime environment (installing the code's
    requirements), in pip's words; None for any other error."""
    if "RuntimeEnvSetupError" not in error_text:
        return None
    said = [line.strip() for line in error_text.splitlines() if line.strip().startswith("ERROR:")]
    why = "; ".join(said[-3:]) if said else error_line(error_text)
    return f"cannot install the code's requirements: {why}"


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
        config = {k: v for k, v in trial.config.items() if k not in CONTROL_KEYS}
        DriverContext.current().recorder.submit(TrialStarted(named(trial), config))

    def on_trial_result(
        self, iteration: int, trials: list[Trial], trial: Trial, result: dict[str, Any], **info: Any
    ) -> None:
        context = DriverContext.current()
        step = result.get(context.time_attr, result.get("training_iteration", 0))
        if result.get(YIELDED_KEY):
            context.recorder.submit(TrialYielded(named(trial), int(step)))
        if context.request == "pause" and result.get(CHECKPOINT_PATH_KEY):
            context.checkpointed_since_pause.add(trial.trial_id)
        context.recorder.submit(
            ResultReported(
                named(trial), int(step), reported_metrics(result), result.get(CHECKPOINT_PATH_KEY)
            )
        )

    def on_step_end(self, iteration: int, trials: list[Trial], **info: Any) -> None:
        context = DriverContext.current()
        context.report_waiting()
        context.report_usage()
        if context.ready_to_pause(trials):
            # Tune's own graceful interrupt: it saves the experiment state with the running
            # trials still unfinished, so Tuner.restore resumes them from their checkpoints
            context.interrupted = True
            os.kill(os.getpid(), signal.SIGUSR1)

    def on_trial_complete(
        self, iteration: int, trials: list[Trial], trial: Trial, **info: Any
    ) -> None:
        context = DriverContext.current()
        context.waiting.pop(named(trial), None)
        broken = context.contract_errors.get(trial.trial_id)
        if broken is not None:
            context.trial_failed(broken)
            context.recorder.submit(TrialEnded(named(trial), TrialState.failed, broken))
            return
        state = context.end_state(trial)
        if state is not TrialState.cancelled:
            context.trial_ended_well(named(trial), state)
        context.recorder.submit(TrialEnded(named(trial), state))

    def on_trial_recover(
        self, iteration: int, trials: list[Trial], trial: Trial, **info: Any
    ) -> None:
        """Tune starts a failed trial again (``fault_tolerance.max_failures``). After the loss
        of its own process (its node) that is a restart, counted like Ray Train's; after an
        error of its own (its Train run failed past max_failures, or its code) a new attempt
        would repeat it, so that attempt fails at once and the trial ends failed."""
        if not process_lost(latest_error(trial)):
            trial.set_config({**trial.config, FAILED_KEY: True})
            trial.max_failures = 0
            # its own error ends it: stored now, with that error (the record of a final trial
            # never changes, so the next attempt's TrialFailedBefore, or a stop of the sweep
            # meanwhile, leaves it as it is), and counted for fail_fast_after
            context = DriverContext.current()
            text = trial_error_text(trial)
            context.trial_failed(text)
            context.recorder.submit(TrialEnded(named(trial), TrialState.failed, text))
            return
        lines = trial_error_text(trial).strip().splitlines()
        reason = f"the trial's own process was lost ({lines[-1][:300] if lines else 'no error'})"
        DriverContext.current().recorder.submit(TrialRestarted(named(trial), reason))

    def on_trial_error(
        self, iteration: int, trials: list[Trial], trial: Trial, **info: Any
    ) -> None:
        context = DriverContext.current()
        context.waiting.pop(named(trial), None)
        text = trial_error_text(trial)
        if CodeLoadError.__name__ in text and context.sweep_error is None:
            context.sweep_error = code_load_message(text)
            log.error("trial %s cannot load its code; failing the sweep", trial.trial_id)
        # every trial's process needs the same environment: the first that cannot have it
        # fails the sweep
        if (unmet := requirements_message(text)) and context.sweep_error is None:
            context.sweep_error = unmet
            log.error("trial %s: %s; failing the sweep", trial.trial_id, unmet)
        if TrialFailedBefore.__name__ not in text:  # counted when it first failed
            context.trial_failed(text)
        context.recorder.submit(TrialEnded(named(trial), TrialState.failed, text))


class SweepStopper(tune.Stopper):
    """Stops the whole sweep on a control request found in the database (polled at most every
    ``poll_s``), once a trial reaches the target metric, once the sweep has converged, or once
    it has spent its compute budget."""

    def __call__(self, trial_id: str, result: dict[str, Any]) -> bool:
        context = DriverContext.current()
        if context.requires_time_attr and context.time_attr not in result:
            # early stopping cannot judge it: stopped, and failed with the reason
            context.contract_errors[trial_id] = (
                f"the trial's results lack {context.time_attr!r}, which early stopping judges "
                f"trials at: report it with every result (ray.train.report({{"
                f"{context.time_attr!r}: ..., ...}})), or set early_stopping.scheduler: none"
            )
            return True
        value = result.get(context.metric)
        if (
            context.target is not None
            and isinstance(value, int | float)
            and Mode(context.mode).reached(value, context.target)
        ):
            # the name the database knows the trial by (Tune reports its config with the result)
            config = result.get("config")
            name = run_name(trial_id, config) if isinstance(config, dict) else trial_id
            context.target_reached_by = context.target_reached_by or name
        return False

    def stop_all(self) -> bool:
        context = DriverContext.current()
        return (
            context.poll_request() == "cancel"
            or context.target_reached_by is not None
            or context.sweep_error is not None
            or context.poll_convergence() is not None
            or context.budget_spent is not None
        )
