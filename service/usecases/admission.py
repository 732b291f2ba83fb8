"""Sweep admission: the one check every way of queueing a sweep passes (a submit, a resume, an
extension, a schedule's firing, a retrain's re-tuning sweep): the project's trial quota, queue
and monthly budget, and a trial that a fixed-size sweep cluster can hold."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from raysweep.errors import Problem
from raysweep.lifecycle import ExperimentState
from raysweep.spec import ExperimentSpec
from raysweep.tokens import Role, TokenRead
from service.db.base import utcnow
from service.db.models.access import ProjectRow
from service.db.models.sweeps import ExperimentRow
from service.errors import Conflict, DomainError, InvalidInput, NotFound
from service.resources import min_workers
from service.usecases.clusters import (
    FixedSweepCluster,
    never_fits_error,
    no_fixed_cluster,
    trial_never_fits,
)
from service.usecases.projects import check_project, month_start, usage_totals


@dataclass(frozen=True)
class Refusal:
    """Why a sweep cannot be queued now: ``error`` as a request is answered (422 or 409 with
    the numbers), ``reason`` in one line as a schedule's firing records it."""

    error: DomainError
    reason: str


def queue_refusal(
    session: Session,
    spec: ExperimentSpec,
    fixed_sweep_cluster: FixedSweepCluster = no_fixed_cluster,
) -> Refusal | None:
    """Why the sweep's project cannot queue it now (a trial larger than its quota, a full
    queue, a spent monthly budget), or its sweep cluster (``fixed_sweep_cluster`` names it when it
    does not autoscale) can never hold one of its trials; None when it can be queued."""
    project = session.get(ProjectRow, spec.project)
    if project is None:
        message = f"project {spec.project!r} no longer exists"
        return Refusal(NotFound(message), message)
    refused = project_refusal(session, project, spec)
    if refused is not None:
        return Refusal(refused, refusal_text(refused))
    never_fits = trial_never_fits(session, spec, fixed_sweep_cluster(spec.project))
    if never_fits is not None:
        return Refusal(never_fits_error(never_fits), never_fits)
    return None


def admit_sweep(
    session: Session,
    caller: TokenRead,
    spec: ExperimentSpec,
    fixed_sweep_cluster: FixedSweepCluster = no_fixed_cluster,
) -> None:
    """A member of the sweep's project may queue it while ``queue_refusal`` finds nothing: a
    trial larger than the quota, or one the fixed sweep cluster can never hold, is a 422 (it
    could never run), a full queue or a spent budget a 409, each with the numbers."""
    check_project(session, caller, spec.project, Role.member)
    refusal = queue_refusal(session, spec, fixed_sweep_cluster)
    if refusal is not None:
        raise refusal.error


def project_refusal(
    session: Session, project: ProjectRow, spec: ExperimentSpec
) -> DomainError | None:
    """Why the project cannot queue the sweep now (its quota, queue or monthly budget), as the
    error a submit answers; None when it can."""
    problems = trial_quota_problems(project, spec)
    if problems:
        return InvalidInput(
            f"one trial of this sweep is larger than the quota of project {project.name!r}",
            problems,
        )
    if project.max_queued is not None:
        queued = session.scalar(
            select(func.count())
            .select_from(ExperimentRow)
            .where(
                ExperimentRow.project == project.name,
                ExperimentRow.state == ExperimentState.queued,
            )
        )
        if (queued or 0) >= project.max_queued:
            return Conflict(
                f"project {project.name!r} has {queued} sweeps queued, its most "
                f"(max_queued {project.max_queued}); wait for one to start or cancel one"
            )
    now = utcnow()
    spent = usage_totals(session, [project.name], month_start(now), now)
    for kind, limit, hours in (
        ("worker", project.monthly_worker_hours, spent.worker_seconds / 3600),
        ("GPU", project.monthly_gpu_hours, spent.gpu_seconds / 3600),
    ):
        if limit is not None and hours >= limit:
            return Conflict(
                f"project {project.name!r} has spent {hours:.2f} of its {limit:g} {kind} "
                f"hours this month (since {month_start(now):%Y-%m-%d}); no new sweeps until "
                "the next month or a larger budget"
            )
    return None


def refusal_text(refusal: DomainError) -> str:
    """The refusal in one line, with every problem it names."""
    details = "; ".join(f"{p.path}: {p.message}" for p in refusal.details)
    return refusal.message + (f" ({details})" if details else "")


def trial_quota_problems(project: ProjectRow, spec: ExperimentSpec) -> list[Problem]:
    """What one trial's worker group (at its smallest) holds beyond the project's quota."""
    resources = spec.resources
    workers = min_workers(resources.num_workers)
    held = {
        "max_workers": (workers, "num_workers"),
        "max_cpus": (workers * resources.cpus_per_worker, "cpus_per_worker"),
        "max_gpus": (workers * resources.gpus_per_worker, "gpus_per_worker"),
    }
    problems = []
    for quota, (amount, field) in held.items():
        limit = getattr(project, quota)
        if limit is not None and amount > limit:
            problems.append(
                Problem(
                    path=f"resources.{field}",
                    message=f"one trial holds {amount:g} ({quota.removeprefix('max_')}); "
                    f"project {project.name!r} allows {limit:g} at once",
                )
            )
    return problems
