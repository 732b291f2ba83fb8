"""Projects: create, read, change; the compute ledger's sums. What a new sweep must keep to (its
project's queue, quota and monthly budget) is ``service/usecases/admission.py``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from raysweep.projects import ProjectCreate, ProjectRead, ProjectUpdate, Usage, UsageRead
from raysweep.spec import ComputeBudget
from raysweep.tokens import Role, TokenRead
from service.db.base import utcnow
from service.db.models.access import ComputeUsageRow, ProjectRow
from service.db.models.registry import FinalRunRow
from service.db.models.sweeps import ExperimentRow
from service.errors import Conflict, NotFound
from service.resources import HeldSegment, ProjectShare
from service.usecases.access import (
    Owned,
    check_role,
    missing_message,
    projects_of,
    visible_projects,
)


def month_start(now: datetime) -> datetime:
    return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def to_read(session: Session, row: ProjectRow) -> ProjectRead:
    now = utcnow()
    spent = usage_totals(session, [row.name], month_start(now), now)
    return ProjectRead.model_validate(
        {
            **{c: getattr(row, c) for c in ProjectRead.model_fields if hasattr(row, c)},
            "usage_this_month": spent,
        }
    )


def create_project(db: sessionmaker[Session], body: ProjectCreate) -> ProjectRead:
    try:
        with db.begin() as session:
            row = ProjectRow(**body.model_dump())
            session.add(row)
            session.flush()
            return to_read(session, row)
    except IntegrityError:
        raise Conflict(f"a project named {body.name!r} exists already") from None


def update_project(db: sessionmaker[Session], name: str, body: ProjectUpdate) -> ProjectRead:
    """Sets the fields the body names (null: no limit)."""
    with db.begin() as session:
        row = session.get(ProjectRow, name)
        if row is None:
            raise NotFound(f"no project {name!r}")
        for field in body.model_fields_set:
            setattr(row, field, getattr(body, field))
        session.flush()
        return to_read(session, row)


def list_projects(db: sessionmaker[Session], caller: TokenRead) -> list[ProjectRead]:
    visible = visible_projects(caller)
    query = select(ProjectRow).order_by(ProjectRow.name)
    if visible is not None:
        query = query.where(ProjectRow.name.in_(visible))
    with db.begin() as session:
        return [to_read(session, row) for row in session.scalars(query)]


def get_project(db: sessionmaker[Session], caller: TokenRead, name: str) -> ProjectRead:
    with db.begin() as session:
        return to_read(session, check_project(session, caller, name, Role.viewer))


def check_project(session: Session, caller: TokenRead, name: str, role: Role) -> ProjectRow:
    """The project, once the caller holds ``role`` in it (one it has no role in: as unknown)."""
    row = session.get(ProjectRow, name)
    check_role(caller, [] if row is None else [name], role, f"no project {name!r}")
    assert row is not None
    return row


def in_project(db: sessionmaker[Session], caller: TokenRead, name: str, role: Role) -> None:
    with db.begin() as session:
        check_project(session, caller, name, role)


# --- the compute ledger -------------------------------------------------------------------------


def store_held(
    session: Session,
    project: str,
    experiment_id: str,
    held: Sequence[tuple[int | None, HeldSegment]],
    final_run_id: int | None = None,
) -> None:
    """Write the leases (each with its trial, for a sweep's), one row per lease: a lease seen
    before has its row brought up to date (it went on, or ended)."""
    latest = {(segment.key, segment.started): (trial_id, segment) for trial_id, segment in held}
    rows = session.scalars(
        select(ComputeUsageRow).where(ComputeUsageRow.lease.in_({k for k, _ in latest}))
    )
    existing = {(row.lease, row.started_at): row for row in rows}
    for (key, started), (trial_id, segment) in latest.items():
        started_at = datetime.fromtimestamp(started, UTC)
        row = existing.get((key, started_at))
        if row is None:
            row = ComputeUsageRow(
                lease=key,
                started_at=started_at,
                project=project,
                experiment_id=experiment_id,
                trial_id=trial_id,
                final_run_id=final_run_id,
            )
            session.add(row)
        row.ended_at = datetime.fromtimestamp(segment.ended, UTC)
        row.holding = segment.holding
        row.seconds = segment.seconds
        row.workers, row.cpus, row.gpus = segment.workers, segment.cpus, segment.gpus
    session.flush()


def held_seconds(row: ComputeUsageRow, start: datetime, end: datetime) -> float:
    """The part of the row's lease inside [start, end), in seconds."""
    begin, finish = max(row.started_at, start), min(row.ended_at, end)
    return max(0.0, (finish - begin).total_seconds())


def usage_rows(
    session: Session,
    projects: list[str] | None,
    start: datetime,
    end: datetime,
    experiment_id: str | None = None,
) -> Iterable[ComputeUsageRow]:
    query = select(ComputeUsageRow).where(
        ComputeUsageRow.started_at < end, ComputeUsageRow.ended_at > start
    )
    if projects is not None:
        query = query.where(ComputeUsageRow.project.in_(projects))
    if experiment_id is not None:
        query = query.where(ComputeUsageRow.experiment_id == experiment_id)
    return session.scalars(query.execution_options(yield_per=2000))


def add_usage(total: Usage, row: ComputeUsageRow, seconds: float) -> None:
    total.worker_seconds += row.workers * seconds
    total.cpu_seconds += row.cpus * seconds
    total.gpu_seconds += row.gpus * seconds


def usage_totals(
    session: Session,
    projects: list[str] | None,
    start: datetime,
    end: datetime,
    experiment_id: str | None = None,
) -> Usage:
    total = Usage()
    for row in usage_rows(session, projects, start, end, experiment_id):
        add_usage(total, row, held_seconds(row, start, end))
    return total


def record_final_run_usage(
    db: sessionmaker[Session], final_run_id: int, segments: Sequence[HeldSegment]
) -> None:
    """A final run's leases into the ledger (its sweep's and project's)."""
    with db.begin() as session:
        run = session.get(FinalRunRow, final_run_id)
        if run is None:
            return
        project = session.get_one(ExperimentRow, run.experiment_id).project
        held = [(None, s) for s in segments]
        store_held(session, project, run.experiment_id, held, final_run_id)


def project_share(db: sessionmaker[Session], name: str) -> ProjectShare:
    """The project's weight and quotas, as the gate applies them (defaults if it is gone)."""
    with db.begin() as session:
        row = session.get(ProjectRow, name)
        if row is None:
            return ProjectShare()
        return ProjectShare(row.weight, row.max_workers, row.max_cpus, row.max_gpus)


def budget_spent(
    db: sessionmaker[Session], experiment_id: str, budget: ComputeBudget
) -> str | None:
    """What the sweep has spent of ``stop.budget``, once it has spent it (else None)."""
    used = experiment_usage(db, experiment_id)
    for limit, seconds, unit in (
        (budget.worker_hours, used.worker_seconds, "worker"),
        (budget.gpu_hours, used.gpu_seconds, "GPU"),
    ):
        if limit is not None and seconds / 3600 >= limit:
            return (
                f"its compute budget is spent: {seconds / 3600:.4g} of {limit:g} {unit}-hours "
                f"(stop.budget); {used.worker_seconds:.0f} worker-seconds in all"
            )
    return None


def experiment_usage(db: sessionmaker[Session], experiment_id: str) -> Usage:
    with db.begin() as session:
        return usage_totals(
            session, None, datetime.min.replace(tzinfo=UTC), utcnow(), experiment_id
        )


def days(start: datetime, end: datetime) -> Iterable[tuple[datetime, datetime]]:
    day = start.replace(hour=0, minute=0, second=0, microsecond=0)
    while day < end:
        following = day + timedelta(days=1)
        yield max(day, start), min(following, end)
        day = following


def usage_report(
    db: sessionmaker[Session],
    caller: TokenRead,
    project: str | None,
    start: datetime,
    end: datetime,
    experiment_id: str | None = None,
) -> UsageRead:
    """What the caller's projects (or the one named, or one sweep of theirs) held in
    [start, end): in all, per project, per sweep, per trial and per UTC day (a lease across
    midnight counts on both days)."""
    visible = visible_projects(caller, project)
    if experiment_id is not None:
        with db.begin() as session:
            owners = projects_of(session, Owned.experiment, experiment_id)
        check_role(
            caller,
            [p for p in owners if visible is None or p in visible],
            Role.viewer,
            missing_message(Owned.experiment, experiment_id),
        )
    total = Usage()
    by_project: dict[str, Usage] = defaultdict(Usage)
    by_experiment: dict[str, Usage] = defaultdict(Usage)
    by_day: dict[str, Usage] = defaultdict(Usage)
    by_trial: dict[str, Usage] = defaultdict(Usage)
    with db.begin() as session:
        if project is not None and not visible:
            raise NotFound(f"no project {project!r}")
        for row in usage_rows(session, visible, start, end, experiment_id):
            seconds = held_seconds(row, start, end)
            add_usage(total, row, seconds)
            add_usage(by_project[row.project], row, seconds)
            key = row.experiment_id or (f"final-run-{row.final_run_id}")
            add_usage(by_experiment[key], row, seconds)
            if row.trial_id is not None:
                add_usage(by_trial[str(row.trial_id)], row, seconds)
            for day_start, day_end in days(max(row.started_at, start), min(row.ended_at, end)):
                add_usage(
                    by_day[f"{day_start:%Y-%m-%d}"], row, (day_end - day_start).total_seconds()
                )
    return UsageRead(
        start=start,
        end=end,
        total=total,
        by_project=dict(sorted(by_project.items())),
        by_experiment=dict(sorted(by_experiment.items())),
        by_day=dict(sorted(by_day.items())),
        by_trial=dict(sorted(by_trial.items(), key=lambda item: int(item[0]))),
    )
