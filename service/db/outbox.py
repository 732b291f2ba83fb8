"""The webhook outbox, filled in one place: before every flush, the rows it writes that are
events a webhook can ask for (a sweep or final run reaching an end state, a trial failing, a
sweep's budget-spent or converged event, a model version, an alias move, a schedule firing that
failed or was skipped) become delivery rows for the enabled webhooks of the row's project that
want them. They are flushed and committed with the change itself: a rolled-back change notifies
nobody, and a committed one is sent even if the server dies first (the controller's webhook
sender finds it). Use cases need not know about webhooks; the transition tables in
``service.states`` stay the only place states change.

Registered on every session factory (``service.db.session``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from enum import StrEnum
from typing import Any, TypeVar

from sqlalchemy import inspect, select
from sqlalchemy.orm import Session

from raysweep.lifecycle import ExperimentState, FinalRunState, FiringOutcome, TrialState
from raysweep.webhooks import DeliveryState, WebhookEvent
from service.db.base import utcnow
from service.db.models.registry import (
    FinalRunRow,
    ModelAliasHistoryRow,
    ModelNameRow,
    ModelVersionRow,
)
from service.db.models.schedules import (
    ScheduleFiringRow,
    ScheduleRow,
    WebhookDeliveryRow,
    WebhookRow,
)
from service.db.models.sweeps import EventRow, ExperimentRow, TrialRow

StateT = TypeVar("StateT", bound=StrEnum)

# a sweep whose trials fail one after another sends one trial.failed per webhook this often
TRIAL_FAILED_EVERY = timedelta(minutes=5)

SWEEP_ENDS = {
    ExperimentState.completed: WebhookEvent.sweep_completed,
    ExperimentState.failed: WebhookEvent.sweep_failed,
    ExperimentState.cancelled: WebhookEvent.sweep_cancelled,
}
SWEEP_EVENTS = {  # EventRow kinds
    "budget_spent": WebhookEvent.sweep_budget_spent,
    "converged": WebhookEvent.sweep_converged,
}
FINAL_RUN_ENDS = {
    FinalRunState.completed: WebhookEvent.final_run_completed,
    FinalRunState.failed: WebhookEvent.final_run_failed,
}
FIRING_ENDS = {
    FiringOutcome.failed: WebhookEvent.schedule_firing_failed,
    FiringOutcome.skipped: WebhookEvent.schedule_firing_skipped,
    FiringOutcome.missed: WebhookEvent.schedule_firing_skipped,
}


@dataclass(frozen=True)
class Notice:
    event: str
    project: str
    subject: str | None
    message: str
    data: dict[str, Any] = field(default_factory=dict)


def payload(notice: Notice, at: str) -> dict[str, Any]:
    """What a ``json`` webhook receives (the delivery's id is added when it is sent)."""
    return {
        "event": str(notice.event),
        "project": notice.project,
        "created_at": at,
        "message": notice.message,
        "data": notice.data,
    }


def capture(session: Session, _flush_context: Any, _instances: Any) -> None:
    """The ``before_flush`` hook: delivery rows for what this flush writes."""
    with session.no_autoflush:
        notices = list(_notices(session))
        if notices:
            enqueue(session, notices)


def enqueue(session: Session, notices: list[Notice]) -> list[WebhookDeliveryRow]:
    """Delivery rows for ``notices``, one per enabled webhook of the notice's project that
    wants its event (every webhook of a ``webhook.test`` notice's project is the caller's
    business: ``usecases.webhooks``)."""
    now = utcnow()
    hooks: dict[str, list[WebhookRow]] = {}
    added: list[WebhookDeliveryRow] = []
    for notice in notices:
        if notice.project not in hooks:
            hooks[notice.project] = list(
                session.scalars(
                    select(WebhookRow).where(
                        WebhookRow.project == notice.project, WebhookRow.enabled.is_(True)
                    )
                )
            )
        for hook in hooks[notice.project]:
            if notice.event not in hook.events:
                continue
            if notice.event == WebhookEvent.trial_failed and _rate_limited(
                session, hook.id, notice.subject, added
            ):
                continue
            row = WebhookDeliveryRow(
                webhook_id=hook.id,
                event=str(notice.event),
                subject=notice.subject,
                payload=payload(notice, now.isoformat()),
                state=DeliveryState.pending,
                attempts=0,
                next_attempt_at=now,
                created_at=now,
            )
            session.add(row)
            added.append(row)
    return added


def _rate_limited(
    session: Session, webhook_id: int, subject: str | None, added: list[WebhookDeliveryRow]
) -> bool:
    if any(
        r.webhook_id == webhook_id and r.event == WebhookEvent.trial_failed and r.subject == subject
        for r in added
    ):
        return True
    recent = session.scalar(
        select(WebhookDeliveryRow.id)
        .where(
            WebhookDeliveryRow.webhook_id == webhook_id,
            WebhookDeliveryRow.event == WebhookEvent.trial_failed.value,
            WebhookDeliveryRow.subject == subject,
            WebhookDeliveryRow.created_at > utcnow() - TRIAL_FAILED_EVERY,
        )
        .limit(1)
    )
    return recent is not None


def _changed_to(row: Any, attribute: str, states: type[StateT]) -> StateT | None:
    """The state this flush writes to ``attribute`` if it writes a new one, else None."""
    history = inspect(row).attrs[attribute].history
    if not history.added or history.added[0] is None:
        return None
    value = states(history.added[0])  # a row may be given the plain string
    if history.deleted and history.deleted[0] is not None and states(history.deleted[0]) is value:
        return None
    return value


def _notices(session: Session) -> Iterator[Notice]:
    for row in [*session.new, *session.dirty]:
        # sweeps and final runs are inserted queued: only a later move ends them
        if isinstance(row, ExperimentRow) and row not in session.new:
            yield from _sweep_ended(row)
        elif isinstance(row, TrialRow):
            yield from _trial_failed(session, row)
        elif isinstance(row, EventRow) and row in session.new:
            yield from _sweep_event(session, row)
        elif isinstance(row, FinalRunRow) and row not in session.new:
            yield from _final_run_ended(session, row)
        elif isinstance(row, ModelVersionRow) and row in session.new:
            yield _version_created(row)
        elif isinstance(row, ModelAliasHistoryRow) and row in session.new:
            yield from _alias_moved(session, row)
        elif isinstance(row, ScheduleFiringRow):
            yield from _firing_ended(session, row)


def _project_of(session: Session, experiment_id: str) -> str | None:
    experiment = session.get(ExperimentRow, experiment_id)
    return None if experiment is None else experiment.project


def _sweep_ended(row: ExperimentRow) -> Iterator[Notice]:
    state = _changed_to(row, "state", ExperimentState)
    if state not in SWEEP_ENDS:
        return
    message = f"sweep {row.name} ({row.id}) {state.value}"
    if row.error:
        message += f": {row.error.splitlines()[0][:300]}"
    yield Notice(
        SWEEP_ENDS[state],
        row.project,
        row.id,
        message,
        {
            "experiment_id": row.id,
            "name": row.name,
            "state": state.value,
            "error": row.error,
            "metric": row.metric,
            "mode": row.mode,
            "best_metric": row.best_metric,
            "best_trial_id": row.best_trial_id,
        },
    )


def _trial_failed(session: Session, row: TrialRow) -> Iterator[Notice]:
    if _changed_to(row, "state", TrialState) is not TrialState.failed:
        return
    project = _project_of(session, row.experiment_id)
    if project is None:
        return
    error = (row.error or "").strip().splitlines()
    yield Notice(
        WebhookEvent.trial_failed,
        project,
        row.experiment_id,
        f"trial {row.number} of sweep {row.experiment_id} failed"
        + (f": {error[-1][:300]}" if error else ""),
        {
            "experiment_id": row.experiment_id,
            "trial_id": row.id,
            "trial_number": row.number,
            "error": row.error,
        },
    )


def _sweep_event(session: Session, row: EventRow) -> Iterator[Notice]:
    event = SWEEP_EVENTS.get(row.kind)
    sweep = session.get(ExperimentRow, row.experiment_id) if event is not None else None
    if event is None or sweep is None:
        return
    # written by finish_sweep with the sweep's best trial already set on its row
    yield Notice(
        event,
        sweep.project,
        row.experiment_id,
        f"sweep {sweep.name} ({row.experiment_id}): {row.message}",
        {
            "experiment_id": row.experiment_id,
            "name": sweep.name,
            "reason": row.message,
            "metric": sweep.metric,
            "mode": sweep.mode,
            "best_metric": sweep.best_metric,
            "best_trial_id": sweep.best_trial_id,
        },
    )


def _final_run_ended(session: Session, row: FinalRunRow) -> Iterator[Notice]:
    state = _changed_to(row, "state", FinalRunState)
    if state is None or state not in FINAL_RUN_ENDS:
        return
    project = _project_of(session, row.experiment_id)
    if project is None:
        return
    message = f"final run {row.id} of sweep {row.experiment_id} ({row.model_name}) {state.value}"
    if row.error:
        message += f": {row.error.splitlines()[0][:300]}"
    yield Notice(
        FINAL_RUN_ENDS[state],
        project,
        row.experiment_id,
        message,
        {
            "final_run_id": row.id,
            "experiment_id": row.experiment_id,
            "trial_id": row.trial_id,
            "model_name": row.model_name,
            "purpose": row.purpose,
            "state": state.value,
            "error": row.error,
            "metrics": row.metrics,
        },
    )


def _version_created(row: ModelVersionRow) -> Notice:
    return Notice(
        WebhookEvent.model_version_created,
        row.project,
        row.name,
        f"model {row.name} version {row.version} registered from sweep {row.experiment_id}",
        {
            "name": row.name,
            "version": row.version,
            "experiment_id": row.experiment_id,
            "trial_id": row.trial_id,
            "final_run_id": row.final_run_id,
            "metrics": row.metrics,
            "test_metrics": row.test_metrics,
        },
    )


def _alias_moved(session: Session, row: ModelAliasHistoryRow) -> Iterator[Notice]:
    name = session.get(ModelNameRow, row.name)
    if name is None:
        return
    yield Notice(
        WebhookEvent.alias_moved,
        name.project,
        row.name,
        f"{row.name}@{row.alias} moved to version {row.version}"
        + (f" from {row.previous_version}" if row.previous_version is not None else ""),
        {
            "name": row.name,
            "alias": row.alias,
            "version": row.version,
            "previous_version": row.previous_version,
            "set_by": row.set_by,
        },
    )


def _firing_ended(session: Session, row: ScheduleFiringRow) -> Iterator[Notice]:
    outcome = _changed_to(row, "outcome", FiringOutcome)
    if outcome is None or outcome not in FIRING_ENDS:
        return
    schedule = session.get(ScheduleRow, row.schedule_id)
    if schedule is None:
        return
    yield Notice(
        FIRING_ENDS[outcome],
        schedule.project,
        schedule.id,
        f"schedule {schedule.name}: the firing due {row.scheduled_for.isoformat()} "
        f"{outcome.value}: {row.message}",
        {
            "schedule_id": schedule.id,
            "schedule": schedule.name,
            "scheduled_for": row.scheduled_for.isoformat(),
            "outcome": outcome.value,
            "message": row.message,
            "kind": str(schedule.kind),
            "experiment_id": row.experiment_id,
            "final_run_id": row.final_run_id,
        },
    )
