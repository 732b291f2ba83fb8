"""Schedule use cases: create, read, pause/resume, delete, and fire due times exactly once.

A firing is the row ``(schedule_id, scheduled_for)``, unique: it is inserted in the same
transaction that advances ``next_run_at`` and starts the run (a sweep, or a retrain:
``usecases/retrain.py``), with the schedule row locked (``FOR UPDATE SKIP LOCKED`` on
PostgreSQL), so two server processes never fire a due time twice and a crash fires it either
completely or not at all.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

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
from service.usecases.retrain import ACTIVE, retrain_problems, start_retrain

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
    """Check the cron, the time zone and what the kind runs (the spec template, or the model to
    retrain) completely (``InvalidInput`` naming every problem), then store the schedule with
    its first due time."""
    problems = [
        Problem(path=k, message=v) for k, v in cron_problem(request.cron, request.timezone).items()
    ]
    template: dict[str, Any] | None = None
    if request.kind == "sweep":
        problems += kind_problems(request, needs="spec", refuses="retrain")
        if request.spec is not None:
            try:
                template = check_spec(
                    request.spec,
                    search_spaces_dir,
                    lambda sha: package_files(db, sha),
                    final_clusters,
                ).model_dump(mode="json")
            except InvalidInput as error:
                problems += [
                    Problem(path=f"spec.{p.path}", message=p.message) for p in error.details
                ]
    else:
        problems += kind_problems(request, needs="retrain", refuses="spec")
        if request.overlap == "cancel_previous":
            problems.append(
                Problem(
                    path="overlap",
                    message="cancel_previous is for sweeps: a retrain's final run cannot be "
                    "cancelled; use skip or queue",
                )
            )
        if request.retrain is not None:
            with db.begin() as session:
                problems += retrain_problems(session, request.retrain, final_clusters)
    if problems:
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
        template=template,
        retrain=request.retrain.model_dump(mode="json") if request.retrain else None,
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


def kind_problems(request: ScheduleCreate, needs: str, refuses: str) -> list[Problem]:
    problems = []
    if getattr(request, needs) is None:
        problems.append(Problem(path=needs, message=f"kind {request.kind} needs {needs}"))
    if getattr(request, refuses) is not None:
        problems.append(Problem(path=refuses, message=f"kind {request.kind} takes no {refuses}"))
    return problems


def get_row(session: Session, schedule_id: str, for_update: bool = False) -> ScheduleRow:
    row = session.get(ScheduleRow, schedule_id, with_for_update=for_update)
    if row is None:
        raise NotFound(f"schedule {schedule_id} not found")
    return row


def get_schedule(db: sessionmaker[Session], schedule_id: str) -> ScheduleRead:
    with db.begin() as session:
        return to_read(session, get_row(session, schedule_id))


def list_schedules(db: sessionmaker[Session], limit: int, offset: int) -> Page[ScheduleRead]:
    query = select(ScheduleRow).order_by(ScheduleRow.name)
    with db.begin() as session:
        return repo.page(session, query, limit, offset, lambda row: to_read(session, row))


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
    query = (
        select(ScheduleFiringRow)
        .where(ScheduleFiringRow.schedule_id == schedule_id)
        .order_by(ScheduleFiringRow.scheduled_for.desc())
    )
    with db.begin() as session:
        get_row(session, schedule_id)
        return repo.page(session, query, limit, offset, ScheduleFiringRead.model_validate)


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
    db: sessionmaker[Session],
    schedule_id: str,
    now: datetime,
    misfire_grace: timedelta,
    final_clusters: list[str],
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
            firing = Firing(session, row, final_clusters)
            recorded = firing.release_waiting()
            if row.enabled and row.next_run_at is not None and row.next_run_at <= now:
                recorded += firing.fire_due(now, misfire_grace)
            return recorded
    except IntegrityError:
        return 0  # another server recorded this due time first


@dataclass
class Firing:
    """Firing one schedule, inside the transaction that holds its row."""

    session: Session
    row: ScheduleRow
    final_clusters: list[str]

    def fire_due(self, now: datetime, grace: timedelta) -> int:
        """Fire the due times up to ``now``. Times more than ``grace`` old were missed (no
        server ran): ``misfire: skip`` records them as one ``missed`` row; ``run_once`` fires
        once for all of them (or lets an on-time firing stand for them)."""
        row = self.row
        assert row.next_run_at is not None
        times = due_between(row.cron, row.timezone, row.next_run_at, now)
        row.next_run_at = next_due(row.cron, row.timezone, now)
        late = [t for t in times if now - t > grace]
        on_time = [t for t in times if now - t <= grace]
        recorded = 0
        if late and row.misfire == "skip":
            self.session.add(
                ScheduleFiringRow(
                    schedule_id=row.id,
                    scheduled_for=late[0],
                    outcome="missed",
                    message=f"{len(late)} due time(s) from {late[0].isoformat()} to "
                    f"{late[-1].isoformat()} missed while no server ran; skipped (misfire: skip)",
                )
            )
            self.session.flush()
            recorded += 1
        elif late and not on_time:
            recorded += self.fire_one(
                late[-1], f"stands for {len(late)} due time(s) missed while down; "
            )
        for index, moment in enumerate(on_time):
            note = f"also stands for {len(late)} missed due time(s); " if late and not index else ""
            recorded += self.fire_one(moment, note if row.misfire == "run_once" else "")
        return recorded

    def still_going(self) -> tuple[str, ExperimentRow | None] | None:
        """What the previous firing started, while it runs: (what, its sweep if it is one)."""
        if self.row.kind == "retrain":
            active = self.session.scalars(
                select(ScheduleFiringRow)
                .where(
                    ScheduleFiringRow.schedule_id == self.row.id,
                    ScheduleFiringRow.outcome.in_(ACTIVE),
                )
                .limit(1)
            ).one_or_none()
            if active is None:
                return None
            what = f"final run {active.final_run_id}" if active.final_run_id else "re-tuning"
            return f"the previous retrain ({what}) is still {active.outcome}", None
        experiment_id = self.session.scalar(
            select(ScheduleFiringRow.experiment_id)
            .where(
                ScheduleFiringRow.schedule_id == self.row.id,
                ScheduleFiringRow.experiment_id.is_not(None),
            )
            .order_by(ScheduleFiringRow.scheduled_for.desc())
            .limit(1)
        )
        if experiment_id is None:
            return None
        experiment = self.session.get(ExperimentRow, experiment_id, with_for_update=True)
        if experiment is None or ExperimentState(experiment.state).is_final:
            return None
        return f"the previous sweep {experiment.id} is still {experiment.state}", experiment

    def fire_one(self, scheduled_for: datetime, note: str) -> int:
        row, session = self.row, self.session
        previous = self.still_going()
        waiting = session.scalar(
            select(ScheduleFiringRow.id).where(
                ScheduleFiringRow.schedule_id == row.id, ScheduleFiringRow.outcome == "waiting"
            )
        )
        firing = ScheduleFiringRow(schedule_id=row.id, scheduled_for=scheduled_for, message=note)
        if previous is not None and row.overlap == "skip":
            firing.outcome = "skipped"
            firing.message += previous[0]
        elif (previous is not None or waiting is not None) and row.overlap == "queue":
            firing.outcome = "waiting"
            firing.message += "queued behind the previous run"
        else:
            if previous is not None and previous[1] is not None:  # cancel_previous
                request_cancel(
                    session, previous[1], f"cancelled by schedule {row.name}: next run due"
                )
                firing.message += f"cancelled the previous sweep {previous[1].id}; "
            self.start(firing)
        session.add(firing)
        session.flush()
        return 1

    def start(self, firing: ScheduleFiringRow) -> None:
        firing.outcome = "submitted"
        self.session.add(firing)
        self.session.flush()  # a retrain's final run and sweep name the firing
        if self.row.kind == "retrain":
            start_retrain(self.session, self.row, firing, self.final_clusters)
        else:
            self.submit_sweep(firing)

    def submit_sweep(self, firing: ScheduleFiringRow) -> None:
        row = self.row
        spec = ExperimentSpec.model_validate(row.template)
        stamp = firing.scheduled_for.strftime("%Y%m%dT%H%M")
        spec = spec.model_copy(
            update={
                "name": f"{spec.name[:100]}-{stamp}",
                "labels": {**spec.labels, "schedule": row.name},
            }
        )
        experiment = add_experiment(
            self.session,
            spec,
            f"submitted by schedule {row.name} for {firing.scheduled_for.isoformat()}",
            f"schedule:{row.name}"[:64],
            {"schedule_id": row.id, "scheduled_for": firing.scheduled_for.isoformat()},
        )
        firing.experiment_id = experiment.id
        firing.message += f"submitted sweep {experiment.id}"

    def release_waiting(self) -> int:
        """Start the oldest waiting firing once the run before it has ended."""
        waiting = self.session.scalars(
            select(ScheduleFiringRow)
            .where(
                ScheduleFiringRow.schedule_id == self.row.id,
                ScheduleFiringRow.outcome == "waiting",
            )
            .order_by(ScheduleFiringRow.scheduled_for)
            .limit(1)
        ).one_or_none()
        if waiting is None or self.still_going() is not None:
            return 0
        waiting.message += "; "
        self.start(waiting)
        self.session.flush()
        return 1
