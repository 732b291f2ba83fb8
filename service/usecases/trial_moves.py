"""What a running trial's driver reports about it, besides results: it started again, waits
for or got its workers, ended, yielded, restarted; each moves the trial's row (through
``service.states``) and leaves an event. A trial that has ended stays ended: a report delivered
again (a restored driver) changes nothing. ``recording.py`` calls these in a batch's
transaction."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy.orm import Session

from raysweep.lifecycle import TrialState
from service.db import repositories as repo
from service.db.models.sweeps import TrialRow
from service.states import move_trial
from service.usecases.reports import (
    ReservationReclaimed,
    TrialEnded,
    TrialRestarted,
    TrialStarted,
    TrialWaiting,
    TrialYielded,
)


def resume_trial(session: Session, experiment_id: str, op: TrialStarted, trial_id: int) -> None:
    """A stored trial started again (a restored driver, a promotion)."""
    row = session.get_one(TrialRow, trial_id)
    if row.state.is_final:
        return  # a restored driver re-started a trial that had ended: it stays ended
    if op.config and not row.config:
        row.config = op.config
    if row.state in (TrialState.pending, TrialState.paused):
        move_trial(row, TrialState.running)
    repo.add_event(
        session,
        experiment_id,
        "trial_resumed",
        f"trial {op.tune_id} resumed",
        trial_id=row.id,
    )


def store_waiting(session: Session, experiment_id: str, op: TrialWaiting, trial_id: int) -> None:
    row = session.get_one(TrialRow, trial_id)
    if row.state.is_final:
        return
    if op.reason is not None and row.waiting_for is None:
        repo.add_event(
            session,
            experiment_id,
            "trial_waiting",
            f"trial {op.tune_id} is {op.reason}",
            trial_id=trial_id,
        )
    elif op.reason is None and row.waiting_for is not None:
        # the wait's end, as the gate saw it (the timeline's bar ends here, not at the
        # trial's first result after it)
        repo.add_event(
            session,
            experiment_id,
            "trial_placed",
            f"trial {op.tune_id}'s workers were placed",
            trial_id=trial_id,
        )
    row.waiting_for = op.reason


def end_trial(session: Session, experiment_id: str, op: TrialEnded, trial_id: int) -> None:
    row = session.get_one(TrialRow, trial_id)
    if row.state.is_final:
        return  # a re-delivered end (restored driver) changes nothing
    move_trial(row, op.state)
    row.error = op.error
    row.waiting_for = None
    if op.state is TrialState.pruned and row.early_stopping:
        message = f"trial {op.tune_id} {row.early_stopping}"
    else:
        message = f"trial {op.tune_id} {op.state.value}" + (
            f": {op.error.strip().splitlines()[-1]}" if op.error else ""
        )
    repo.add_event(session, experiment_id, f"trial_{op.state.value}", message, trial_id=trial_id)


def store_event(
    session: Session,
    experiment_id: str,
    op: TrialYielded | ReservationReclaimed | TrialRestarted,
    trial_ids: Mapping[str, int],
) -> None:
    """An event a trial's driver reported: it yielded its workers, a reservation of its was
    reclaimed, its worker group restarted (counted on the trial)."""
    match op:
        case TrialYielded():
            repo.add_event(
                session,
                experiment_id,
                "trial_preempted",
                f"trial {op.tune_id}: paused at its checkpoint at iteration "
                f"{op.iteration} to yield its workers to a project below its fair "
                "share; it resumes from that checkpoint when a slot is free",
                trial_id=trial_ids[op.tune_id],
                data={"iteration": op.iteration},
            )
        case ReservationReclaimed():
            repo.add_event(
                session,
                experiment_id,
                "reservation_reclaimed",
                f"trial {op.tune_id}: {op.message}" if op.tune_id else op.message,
                trial_id=trial_ids.get(op.tune_id),
            )
        case TrialRestarted() if op.tune_id not in trial_ids:
            repo.add_event(
                session,
                experiment_id,
                "trial_restarted",
                f"{op.tune_id} (no trial of this sweep): worker group restarted after {op.reason}",
                data={"count": op.count},
            )
        case TrialRestarted():
            row = session.get_one(TrialRow, trial_ids[op.tune_id])
            row.restarts += op.count
            repo.add_event(
                session,
                experiment_id,
                "trial_restarted",
                f"trial {op.tune_id}: worker group restarted (from its latest "
                f"checkpoint, if it has one) after {op.reason}",
                trial_id=row.id,
                data={"count": op.count, "restarts": row.restarts},
            )
