"""Schedule use cases: create, read, pause/resume, delete, and fire due times exactly once.

A firing is the row ``(schedule_id, scheduled_for)``, unique: it is inserted in the same
transaction that advances ``next_run_at`` and submits the sweep, with the schedule row locked
(``FOR UPDATE SKIP LOCKED`` on PostgreSQL), so two server processes never fire a due time twice
and a crash fires it either completely or not at all.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from raysweep.schemas import (
    ExperimentState,
    Page,
    ScheduleCreate,
    ScheduleFiringRead,
    ScheduleRead,
)
from raysweep.spec import ExperimentSpec, Problem
from service.cron import cron_problem, due_between, next_due
from service.db import repositories as repo
from service.db.models import ExperimentRow, ScheduleFiringRow, ScheduleRow
from service.errors import Conflict, InvalidInput, NotFound
from service.specs import check_spec
from service.usecases.experiments import add_experiment, package_files, request_cancel

BATCH = 20


def to_read(session: Session, row: ScheduleRow) -> ScheduleRead:
    last = session.scalars(
        select(ScheduleFiringRow)
        .where(ScheduleFiringRow.schedule_id == row.id)
        .order_by(ScheduleFiringRow.scheduled_for.desc())
        .limit(1)
    ).one_or_none()
    read = ScheduleRead.model_validate(row)
    return read.model_copy(
        update={"last_firing": ScheduleFiringRead.model_validate(last) if last else None}
    )


def create_schedule(
    db: sessionmaker[Session],
    request: ScheduleCreate,
    search_spaces_dir: Path,
    final_clusters: list[str],
    now: datetime,
    created_by: str | None,
) -> ScheduleRead:
    """Check the cron, the time zone and the spec template completely (``InvalidInput`` naming
    every problem), then store the schedule with its first due time."""
    problems = [
        Problem(path=k, message=v) for k, v in cron_problem(request.cron, request.timezone).items()
    ]
    spec: ExperimentSpec | None = None
    try:
        spec = check_spec(
            request.spec, search_spaces_dir, lambda sha: package_files(db, sha), final_clusters
        )
    except InvalidInput as error:
        problems += [Problem(path=f"spec.{p.path}", message=p.message) for p in error.details]
    if problems or spec is None:
        raise InvalidInput(f"the schedule has {len(problems)} problem(s)", problems)
    row = ScheduleRow(
        id=uuid.uuid4().hex[:12],
        name=request.name,
        kind=request.kind,
        cron=request.cron,
        timezone=request.timezone,
        enabled=request.enabled,
        overlap=request.overlap,
        misfire=request.misfire,
        template=spec.model_dump(mode="json"),
        next_run_at=next_due(request.cron, request.timezone, now) if request.enabled else None,
        created_by=created_by,
    )
    try:
        with db.begin() as session:
            session.add(row)
            session.flush()
            return to_read(session, row)
    except IntegrityError:
        raise Conflict(f"a schedule named {request.name!r} exists") from None


def get_row(session: Session, schedule_id: str, for_update: bool = False) -> ScheduleRow:
    row = session.get(ScheduleRow, schedule_id, with_for_update=for_update)
    if row is None:
        raise NotFound(f"schedule {schedule_id} not found")
    return row


def get_schedule(db: sessionmaker[Session], schedule_id: str) -> ScheduleRead:
    with db.begin() as session:
        return to_read(session, get_row(session, schedule_id))


def list_schedules(db: sessionmaker[Session], limit: int, offset: int) -> Page[ScheduleRead]:
    query = select(ScheduleRow)
    with db.begin() as session:
        total = repo.count(session, query)
        rows = session.scalars(query.order_by(ScheduleRow.name).limit(limit).offset(offset)).all()
        items = [to_read(session, row) for row in rows]
    return Page(items=items, total=total, limit=limit, offset=offset)


def set_enabled(
    db: sessionmaker[Session], schedule_id: str, enabled: bool, now: datetime
) -> ScheduleRead:
    """Pause (no next run) or resume (the next due time after now: times missed while paused are
    not fired)."""
    with db.begin() as session:
        row = get_row(session, schedule_id, for_update=True)
        if row.enabled != enabled:
            row.enabled = enabled
            row.next_run_at = next_due(row.cron, row.timezone, now) if enabled else None
        session.flush()
        return to_read(session, row)


def delete_schedule(db: sessionmaker[Session], schedule_id: str) -> None:
    """Removes the schedule and its firing history; the sweeps it submitted stay."""
    with db.begin() as session:
        session.delete(get_row(session, schedule_id))


def list_firings(
    db: sessionmaker[Session], schedule_id: str, limit: int, offset: int
) -> Page[ScheduleFiringRead]:
    query = select(ScheduleFiringRow).where(ScheduleFiringRow.schedule_id == schedule_id)
    with db.begin() as session:
        get_row(session, schedule_id)
        total = repo.count(session, query)
        rows = session.scalars(
            query.order_by(ScheduleFiringRow.scheduled_for.desc()).limit(limit).offset(offset)
        ).all()
        items = [ScheduleFiringRead.model_validate(r) for r in rows]
    return Page(items=items, total=total, limit=limit, offset=offset)


# --- firing ---------------------------------------------------------------------------------


def due_schedule_ids(db: sessionmaker[Session], now: datetime) -> list[str]:
    with db.begin() as session:
        due = session.scalars(
            select(ScheduleRow.id)
            .where(ScheduleRow.enabled.is_(True), ScheduleRow.next_run_at <= now)
            .order_by(ScheduleRow.next_run_at)
            .limit(BATCH)
        ).all()
        waiting = session.scalars(
            select(ScheduleFiringRow.schedule_id)
            .where(ScheduleFiringRow.outcome == "waiting")
            .distinct()
            .limit(BATCH)
        ).all()
    return list(dict.fromkeys([*due, *waiting]))


def fire_schedule(
    db: sessionmaker[Session], schedule_id: str, now: datetime, misfire_grace: timedelta
) -> int:
    """Fire what is due for one schedule, in one transaction; returns the firings recorded.
    Another process holding the schedule (or having fired the time) makes this a no-op."""
    try:
        with db.begin() as session:
            row = session.scalars(
                select(ScheduleRow)
                .where(ScheduleRow.id == schedule_id)
                .with_for_update(skip_locked=True)
            ).one_or_none()
            if row is None:
                return 0  # another server is firing it right now
            recorded = release_waiting(session, row)
            if row.enabled and row.next_run_at is not None and row.next_run_at <= now:
                recorded += fire_due(session, row, now, misfire_grace)
            return recorded
    except IntegrityError:
        return 0  # another server recorded this due time first


def fire_due(session: Session, row: ScheduleRow, now: datetime, grace: timedelta) -> int:
    """Fire the due times up to ``now``. Times more than ``grace`` old were missed (no server
    ran): ``misfire: skip`` records them as one ``missed`` row; ``run_once`` fires once for all
    of them (or lets an on-time firing stand for them)."""
    assert row.next_run_at is not None
    times = due_between(row.cron, row.timezone, row.next_run_at, now)
    row.next_run_at = next_due(row.cron, row.timezone, now)
    late = [t for t in times if now - t > grace]
    on_time = [t for t in times if now - t <= grace]
    recorded = 0
    if late and row.misfire == "skip":
        session.add(
            ScheduleFiringRow(
                schedule_id=row.id,
                scheduled_for=late[0],
                outcome="missed",
                message=f"{len(late)} due time(s) from {late[0].isoformat()} to "
                f"{late[-1].isoformat()} missed while no server ran; skipped (misfire: skip)",
            )
        )
        session.flush()
        recorded += 1
    elif late and not on_time:
        recorded += fire_one(
            session, row, late[-1], f"stands for {len(late)} due time(s) missed while down; "
        )
    for index, moment in enumerate(on_time):
        note = f"also stands for {len(late)} missed due time(s); " if late and not index else ""
        recorded += fire_one(session, row, moment, note if row.misfire == "run_once" else "")
    return recorded


def previous_run(session: Session, schedule_id: str) -> ExperimentRow | None:
    """The last firing's sweep while it is still going."""
    experiment_id = session.scalar(
        select(ScheduleFiringRow.experiment_id)
        .where(
            ScheduleFiringRow.schedule_id == schedule_id,
            ScheduleFiringRow.experiment_id.is_not(None),
        )
        .order_by(ScheduleFiringRow.scheduled_for.desc())
        .limit(1)
    )
    if experiment_id is None:
        return None
    experiment = session.get(ExperimentRow, experiment_id, with_for_update=True)
    if experiment is None or ExperimentState(experiment.state).is_final:
        return None
    return experiment


def fire_one(session: Session, row: ScheduleRow, scheduled_for: datetime, note: str) -> int:
    previous = previous_run(session, row.id)
    waiting = session.scalar(
        select(ScheduleFiringRow.id).where(
            ScheduleFiringRow.schedule_id == row.id, ScheduleFiringRow.outcome == "waiting"
        )
    )
    firing = ScheduleFiringRow(schedule_id=row.id, scheduled_for=scheduled_for, message=note)
    if previous is not None and row.overlap == "skip":
        firing.outcome = "skipped"
        firing.message += f"the previous sweep {previous.id} is still {previous.state}"
    elif (previous is not None or waiting is not None) and row.overlap == "queue":
        firing.outcome = "waiting"
        firing.message += "queued behind the previous sweep"
    else:
        if previous is not None:  # cancel_previous
            request_cancel(session, previous, f"cancelled by schedule {row.name}: next run due")
            firing.message += f"cancelled the previous sweep {previous.id}; "
        submit_for(session, row, firing)
    session.add(firing)
    session.flush()
    return 1


def submit_for(session: Session, row: ScheduleRow, firing: ScheduleFiringRow) -> None:
    spec = ExperimentSpec.model_validate(row.template)
    stamp = firing.scheduled_for.strftime("%Y%m%dT%H%M")
    spec = spec.model_copy(
        update={
            "name": f"{spec.name[:100]}-{stamp}",
            "labels": {**spec.labels, "schedule": row.name},
        }
    )
    experiment = add_experiment(
        session,
        spec,
        f"submitted by schedule {row.name} for {firing.scheduled_for.isoformat()}",
        f"schedule:{row.name}"[:64],
        {"schedule_id": row.id, "scheduled_for": firing.scheduled_for.isoformat()},
    )
    firing.outcome, firing.experiment_id = "submitted", experiment.id
    firing.message += f"submitted sweep {experiment.id}"


def release_waiting(session: Session, row: ScheduleRow) -> int:
    """Submit the oldest waiting firing once the sweep before it has ended."""
    waiting = session.scalars(
        select(ScheduleFiringRow)
        .where(ScheduleFiringRow.schedule_id == row.id, ScheduleFiringRow.outcome == "waiting")
        .order_by(ScheduleFiringRow.scheduled_for)
        .limit(1)
    ).one_or_none()
    if waiting is None or previous_run(session, row.id) is not None:
        return 0
    waiting.message += "; "
    submit_for(session, row, waiting)
    session.flush()
    return 1
