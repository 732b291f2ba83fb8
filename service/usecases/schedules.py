"""Schedule use cases: create, read, pause/resume and delete (firing them: ``usecases/firings.py``).

A firing is the row ``(schedule_id, scheduled_for)``, unique: it is inserted in the same
transaction that advances ``next_run_at`` and starts the run (a sweep, or a retrain:
``usecases/retrain.py``), with the schedule row locked (``FOR UPDATE SKIP LOCKED`` on
PostgreSQL), so two server processes never fire a due time twice and a crash fires it either
completely or not at all.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from raysweep.errors import Problem
from raysweep.schedules import ScheduleCreate, ScheduleFiringRead, ScheduleKind, ScheduleRead
from raysweep.schemas import Page
from raysweep.tokens import Role, TokenRead
from service.cron import cron_problem, next_due
from service.db import repositories as repo
from service.db.models.access import ProjectRow
from service.db.models.schedules import ScheduleFiringRow, ScheduleRow
from service.errors import Conflict, InvalidInput, NotFound
from service.settings import MAX_SCHEDULES_PER_PROJECT
from service.specs import check_spec
from service.usecases.access import home_project
from service.usecases.clusters import (
    FinalClusters,
    FixedSweepCluster,
    check_trial_fits,
    no_fixed_cluster,
)
from service.usecases.experiments import package_files, stored_spec
from service.usecases.projects import in_project
from service.usecases.retrain import retrain_problems

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
    final_clusters: FinalClusters,
    now: datetime,
    caller: TokenRead,
    fixed_sweep_cluster: FixedSweepCluster = no_fixed_cluster,
    max_per_project: int = MAX_SCHEDULES_PER_PROJECT,
) -> ScheduleRead:
    """Check the cron, the time zone and what the kind runs (the spec template, or the model to
    retrain) completely (``InvalidInput`` naming every problem), then store the schedule with
    its first due time. With ``fixed_sweep_cluster`` a template's trial must fit it, as a
    submitted sweep's must. The schedule belongs to its template's project (a retrain: its
    model's), where the caller must be a member; a project holding ``max_per_project``
    schedules takes no more (``Conflict``). A request naming no project is the caller's home
    project's (``access.home_project``)."""
    project = request.project if "project" in request.model_fields_set else home_project(caller)
    in_project(db, caller, project, Role.member)
    problems = [
        Problem(path=k, message=v) for k, v in cron_problem(request.cron, request.timezone).items()
    ]
    template: dict[str, Any] | None = None
    if request.kind == ScheduleKind.sweep:
        problems += kind_problems(request, needs="spec", refuses="retrain")
        if request.spec is not None:
            try:
                spec = check_spec(
                    template_in_project(request.spec, project),
                    search_spaces_dir,
                    lambda sha: package_files(db, sha, project),
                    final_clusters(project),
                    lambda experiment_id: stored_spec(db, experiment_id, project),
                )
                with db.begin() as session:
                    check_trial_fits(session, spec, fixed_sweep_cluster(spec.project))
                if spec.project != project:
                    raise InvalidInput(
                        "the template is in another project",
                        [Problem(path="project", message=f"must be {project!r}, the schedule's")],
                    )
                template = spec.model_dump(mode="json")
            except InvalidInput as error:
                problems += [
                    Problem(path=f"spec.{p.path}", message=p.message) for p in error.details
                ]
    else:
        problems += kind_problems(request, needs="retrain", refuses="spec")
        if request.retrain is not None:
            with db.begin() as session:
                allowed = final_clusters(project)
                problems += retrain_problems(session, request.retrain, allowed, project)
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
        created_by=caller.name,
        project=project,
    )
    try:
        with db.begin() as session:
            # the project's row locked first: racing creates are counted one after the other
            session.get_one(ProjectRow, project, with_for_update=True)
            held = session.scalar(
                select(func.count()).select_from(ScheduleRow).where(ScheduleRow.project == project)
            )
            if (held or 0) >= max_per_project:
                raise Conflict(
                    f"project {project!r} holds {held} schedules, its most "
                    f"(RAYSWEEP_MAX_SCHEDULES_PER_PROJECT {max_per_project}); delete one first"
                )
            session.add(row)
            session.flush()
            return to_read(session, row)
    except IntegrityError:
        raise Conflict(f"a schedule named {request.name!r} exists") from None


def template_in_project(spec: Any, project: str) -> Any:
    """The template as it will be checked: in the schedule's project when it names none."""
    if isinstance(spec, dict) and "project" not in spec:
        return {**spec, "project": project}
    return spec


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


def list_schedules(
    db: sessionmaker[Session], limit: int, offset: int, projects: list[str] | None = None
) -> Page[ScheduleRead]:
    query = select(ScheduleRow).order_by(ScheduleRow.name)
    if projects is not None:
        query = query.where(ScheduleRow.project.in_(projects))
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
