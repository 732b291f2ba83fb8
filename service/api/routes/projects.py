"""Project routes: the projects a token may see, an admin's settings, and the compute ledger."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query, Response
from pydantic import AfterValidator, BeforeValidator

from raysweep.names import PROJECT_PATTERN
from raysweep.projects import ProjectCreate, ProjectRead, ProjectUpdate, UsageRead
from service.api.deps import Admin, Db, ProjectFilter, Viewer
from service.api.errors import ERROR_RESPONSES
from service.db.base import utcnow
from service.usecases import projects as usecase

router = APIRouter(prefix="/api/v1", tags=["projects"], responses=ERROR_RESPONSES)
ProjectName = Annotated[str, Path(pattern=PROJECT_PATTERN)]


@router.get("/projects", summary="The projects the token has a role in (an admin: all)")
def list_projects(db: Db, caller: Viewer) -> list[ProjectRead]:
    return usecase.list_projects(db, caller)


@router.post("/projects", status_code=201, summary="Create a project (admin)")
def create_project(body: ProjectCreate, db: Db, _: Admin, response: Response) -> ProjectRead:
    """A new project with its weight in fair share, quotas and monthly budgets (null: no limit).
    Tokens get a role in it with `python -m service token grant NAME --project P --role R`."""
    created = usecase.create_project(db, body)
    response.headers["Location"] = f"/api/v1/projects/{created.name}"
    return created


@router.get("/projects/{name}", summary="One project, with what it spent this month")
def get_project(name: ProjectName, db: Db, caller: Viewer) -> ProjectRead:
    return usecase.get_project(db, caller, name)


@router.patch("/projects/{name}", summary="Change a project's weight, quotas or budgets (admin)")
def update_project(name: ProjectName, body: ProjectUpdate, db: Db, _: Admin) -> ProjectRead:
    """Sets the fields the body names (null: no limit); running sweeps keep to the new quotas
    from their next trial on."""
    return usecase.update_project(db, name, body)


# RFC 3339, as the schema's `date-time` says: pydantic alone would also take a number of
# seconds, or a time without its offset
RFC3339 = re.compile(r"\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)")


def rfc3339(value: object) -> object:
    if isinstance(value, str) and not RFC3339.fullmatch(value):
        raise ValueError("not an RFC 3339 time with its offset, e.g. 2026-11-01T00:00:00Z")
    return value


def within_utc(value: datetime) -> datetime:
    """The time in UTC; one that UTC cannot hold (0001-01-01T00:00:00+01:00) is a 422."""
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError("outside the times UTC can hold (years 1 to 9999)") from None


Moment = Annotated[datetime, BeforeValidator(rfc3339), AfterValidator(within_utc)]


@router.get("/usage", summary="Compute held, in all and per project, sweep and UTC day")
def usage(
    db: Db,
    caller: Viewer,
    project: ProjectFilter = None,
    experiment: Annotated[
        str | None, Query(max_length=32, description="Only this sweep's (and its final runs').")
    ] = None,
    start: Annotated[
        Moment | None,
        Query(alias="from", description="ISO time (default: the first of this UTC month)."),
    ] = None,
    end: Annotated[Moment | None, Query(alias="to", description="ISO time (default: now).")] = None,
) -> UsageRead:
    """What the worker groups of the token's projects' sweeps and final runs held (workers,
    and the CPUs and GPUs reserved for them, times the seconds from the start of a worker group
    to its end, restarts included) in [from, to). A lease still held counts to the last few
    seconds. A window that ends before it starts is empty."""
    now = utcnow()
    start = start if start is not None else usecase.month_start(now)
    end = end if end is not None else now
    return usecase.usage_report(db, caller, project, start, max(start, end), experiment)
