"""Schedule routes: cron schedules that submit sweeps or retrain models, and their firings."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from raysweep.schedules import ScheduleCreate, ScheduleFiringRead, ScheduleRead, ScheduleUpdate
from raysweep.schemas import Page
from service.api.deps import (
    Db,
    Limit,
    Member,
    Offset,
    ProjectFilter,
    ScheduleMember,
    ScheduleViewer,
    Viewer,
    app_state,
)
from service.api.errors import ERROR_RESPONSES
from service.usecases import schedules as usecase
from service.usecases.access import visible_projects

router = APIRouter(prefix="/api/v1/schedules", tags=["schedules"], responses=ERROR_RESPONSES)


@router.post("", status_code=201, summary="Create a schedule")
def create(
    body: ScheduleCreate, request: Request, response: Response, caller: Member
) -> ScheduleRead:
    """The cron expression (five fields, read in `timezone`), the time zone and what the kind
    runs are checked completely: a 422 names every problem and stores nothing. Each due time
    fires once (even with several servers). A project holds at most
    `RAYSWEEP_MAX_SCHEDULES_PER_PROJECT` schedules (100 by default); one more is a 409, as is a
    name the project's schedules already use.

    - kind `sweep`: submits `spec` as a new sweep named `<name>-<YYYYMMDDTHHMM>` and labelled
      `schedule: <schedule name>`.
    - kind `retrain`: trains `retrain.model`'s `retrain.alias` version (default `production`)
      again as a final run with its config on the current data (after a re-tuning sweep
      warm-started from the previous study's best configs when `retrain.retune` is set). The
      new version takes the alias only if its held-out test metric beats the current one by
      more than `retrain.margin`; otherwise it becomes the `candidate`, with the comparison
      recorded on it. An unknown model, or one without the alias or a held-out test metric,
      is a 422.

    On a sweep cluster that does not autoscale, a template whose one trial can never be placed
    on the cluster's nodes is a 422 at `spec.resources`, as at `POST /experiments`; a firing
    (or a retrain's re-tuning sweep) whose trial no longer fits is recorded as `failed` with
    the reason instead of a sweep that would wait forever."""
    state = app_state(request)
    settings = state.settings
    schedule = usecase.create_schedule(
        state.db,
        body,
        settings.search_spaces_dir,
        settings.final_clusters_for,
        state.clock.now(),
        caller,
        settings.fixed_sweep_cluster,
        settings.max_schedules_per_project,
    )
    response.headers["Location"] = f"/api/v1/schedules/{schedule.id}"
    return schedule


@router.get("", summary="List schedules by name")
def list_schedules(
    db: Db, caller: Viewer, limit: Limit = 50, offset: Offset = 0, project: ProjectFilter = None
) -> Page[ScheduleRead]:
    return usecase.list_schedules(db, limit, offset, visible_projects(caller, project))


@router.get("/{schedule_id}", summary="One schedule, with its next due time and last firing")
def get_schedule(schedule_id: str, db: Db, _: ScheduleViewer) -> ScheduleRead:
    return usecase.get_schedule(db, schedule_id)


@router.patch("/{schedule_id}", summary="Pause or resume a schedule")
def update(
    schedule_id: str, body: ScheduleUpdate, request: Request, _: ScheduleMember
) -> ScheduleRead:
    """Resuming computes the next due time from now: times missed while paused never fire."""
    state = app_state(request)
    now = state.clock.now()
    return usecase.set_enabled(state.db, schedule_id, body.enabled, now)


@router.delete("/{schedule_id}", status_code=204, summary="Delete a schedule")
def delete(schedule_id: str, db: Db, _: ScheduleMember) -> Response:
    """Its firing history goes with it; the sweeps it submitted stay."""
    usecase.delete_schedule(db, schedule_id)
    return Response(status_code=204)


@router.get("/{schedule_id}/firings", summary="A schedule's firings, newest first")
def firings(
    schedule_id: str, db: Db, _: ScheduleViewer, limit: Limit = 50, offset: Offset = 0
) -> Page[ScheduleFiringRead]:
    return usecase.list_firings(db, schedule_id, limit, offset)
