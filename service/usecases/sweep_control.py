"""Controlling a sweep: cancelling, pausing and resuming it (queued again through admission;
on resume, a paused sweep's open trials that trained but kept no checkpoint end cancelled)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import ExperimentState, TrialState
from raysweep.schemas import ExperimentRead
from raysweep.spec import ExperimentSpec
from service.db import repositories as repo
from service.db.base import utcnow
from service.db.models.sweeps import ExperimentRow, TrialRow
from service.states import (
    IllegalTransition,
    end_sweep,
    move_experiment,
    move_trial,
)
from service.usecases.admission import queue_refusal
from service.usecases.experiments import to_read


def cancel_experiment(db: sessionmaker[Session], experiment_id: str) -> ExperimentRead:
    """Idempotent: a queued sweep is cancelled at once; a running one is asked to stop (its
    driver honours the request at the next result, the controller stops the job after a grace
    period). Cancelling a finished sweep is a ``Conflict`` (via ``IllegalTransition``)."""
    with db.begin() as session:
        row = repo.get_experiment_row(session, experiment_id, for_update=True)
        request_cancel(session, row, "cancel requested")
        session.flush()
        return to_read(session, row)


def request_cancel(session: Session, row: ExperimentRow, reason: str) -> None:
    """Cancel ``row`` (locked by the caller) as ``cancel_experiment`` does, with ``reason``."""
    state = row.state
    if state in (ExperimentState.cancelled, ExperimentState.cancelling):
        return
    if state in (ExperimentState.queued, ExperimentState.paused):
        end_sweep(session, row, ExperimentState.cancelled)
        repo.add_event(session, row.id, "cancelled", f"{reason}; cancelled while {state.value}")
    else:
        move_experiment(row, ExperimentState.cancelling)
        row.stop_requested_at = utcnow()
        repo.add_event(session, row.id, "cancel_requested", reason)


def pause_experiment(db: sessionmaker[Session], experiment_id: str) -> ExperimentRead:
    """Idempotent: a running sweep moves to ``pausing`` (its driver stops it once the running
    trials have checkpointed; Tune's state and the checkpoints stay for resume); a queued one is
    paused at once. Pausing a cancelling or finished sweep is a ``Conflict``."""
    with db.begin() as session:
        row = repo.get_experiment_row(session, experiment_id, for_update=True)
        state = row.state
        if state in (ExperimentState.pausing, ExperimentState.paused):
            return to_read(session, row)
        if state is ExperimentState.queued:
            move_experiment(row, ExperimentState.paused)
            repo.add_event(session, row.id, "paused", "paused before running")
        else:
            move_experiment(row, ExperimentState.pausing)
            row.stop_requested_at = utcnow()
            repo.add_event(session, row.id, "pause_requested", "pause requested")
        session.flush()
        return to_read(session, row)


def resume_experiment(db: sessionmaker[Session], experiment_id: str) -> ExperimentRead:
    """Idempotent: a paused sweep is queued again and its next driver restores the Tune state
    and the trials' checkpoints. Resuming a queued or running sweep changes nothing; a pausing,
    cancelling or finished one is a ``Conflict``."""
    with db.begin() as session:
        row = repo.get_experiment_row(session, experiment_id, for_update=True)
        state = row.state
        if state in (ExperimentState.queued, ExperimentState.running):
            return to_read(session, row)
        if state is not ExperimentState.paused:  # a finished sweep is extended, not resumed
            raise IllegalTransition("experiment", state, ExperimentState.queued)
        # queueing it again passes the admission a submit does (quota, queue, budget)
        if refusal := queue_refusal(session, ExperimentSpec.model_validate(row.spec)):
            raise refusal.error
        move_experiment(row, ExperimentState.queued)
        row.stop_requested_at = None  # the pause it asked for is over
        repo.add_event(session, row.id, "resume_requested", "resume requested")
        end_trials_without_checkpoint(session, row.id)
        session.flush()
        return to_read(session, row)


def end_trials_without_checkpoint(session: Session, experiment_id: str) -> None:
    """A paused sweep's open trials that trained but kept no checkpoint end cancelled, each with
    an event: resuming them would retrain them from their first epoch under iterations already
    stored (the next driver takes a final trial for done)."""
    for trial in session.scalars(
        select(TrialRow).where(
            TrialRow.experiment_id == experiment_id,
            TrialRow.state == TrialState.pending,
            TrialRow.iteration > 0,
            ~repo.keeps_a_checkpoint(),
        )
    ):
        move_trial(trial, TrialState.cancelled)
        trial.early_stopping = (
            "cancelled at resume: it saved no checkpoint to continue from, and resuming it "
            "would retrain it from its first epoch"
        )
        repo.add_event(
            session,
            experiment_id,
            "trial_cancelled",
            f"trial #{trial.number}: {trial.early_stopping}",
            trial_id=trial.id,
        )
