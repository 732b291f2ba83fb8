"""Experiment routes: submit, list, read, cancel, events."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import StringConstraints

from raysweep.errors import Problem
from raysweep.lifecycle import ExperimentState
from raysweep.schemas import (
    EventRead,
    ExperimentCreated,
    ExperimentRead,
    ExtendRequest,
    NotesUpdate,
    Page,
)
from service.api.cached_json import NOT_MODIFIED, SERIALIZED
from service.api.deps import (
    AppState,
    Db,
    ExperimentMember,
    ExperimentViewer,
    Limit,
    Member,
    Offset,
    ProjectFilter,
    Viewer,
    app_state,
    id_cursor,
)
from service.api.errors import ERROR_RESPONSES
from service.db.base import MAX_BIGINT
from service.errors import BadRequest
from service.usecases import experiments as usecase
from service.usecases import extension, sweep_control
from service.usecases.access import visible_projects

router = APIRouter(prefix="/api/v1/experiments", tags=["experiments"], responses=ERROR_RESPONSES)

SPEC_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/ExperimentSpec"}}
        },
    }
}


# a list is no narrower past a few filters; the bound keeps the one subquery small
MAX_LABEL_FILTERS = 16
# key:value, no NUL (PostgreSQL text cannot hold one)
LabelFilter = Annotated[str, StringConstraints(pattern=r"^[^:\x00]*:[^\x00]*$")]


def label_pairs(labels: list[str]) -> list[tuple[str, str]]:
    """The distinct ``key:value`` pairs; two values for one key match nothing."""
    return sorted({(key, value) for key, _, value in (label.partition(":") for label in labels)})


async def json_body(request: Request) -> Any:
    try:
        return json.loads(await request.body())
    # ValueError: JSONDecodeError, and integers past Python's 4,300-digit limit; RecursionError:
    # nesting deeper than the parser's stack
    except (ValueError, RecursionError) as error:
        raise BadRequest(
            "the body is not valid JSON", [Problem(path="", message=str(error))]
        ) from None


@router.post(
    "",
    status_code=201,
    response_model=ExperimentCreated,
    openapi_extra=SPEC_BODY,
    summary="Submit an experiment",
)
async def submit(request: Request, response: Response, caller: Member) -> ExperimentCreated:
    """Validate an `ExperimentSpec` completely and store it as `queued` in its `project`
    (where the token must be a member: a project it has no role in is a 404); a bad spec is a
    422 listing every problem, and nothing is stored. A trial larger than the project's quota
    is a 422 at `resources`; a project with `max_queued` sweeps queued, or past its monthly
    budget, is a 409 with the numbers. On a sweep cluster that does not autoscale, a
    spec whose one trial (its worker group) can never be placed on the cluster's nodes, as the
    controller last saw them, is such a 422 at `resources`."""
    state: AppState = app_state(request)
    settings = state.settings
    created = usecase.submit_experiment(
        state.db,
        await json_body(request),
        settings.search_spaces_dir,
        caller,
        settings.final_clusters_for,
        settings.fixed_sweep_cluster,
    )
    response.headers["Location"] = f"/api/v1/experiments/{created.id}"
    return created


@router.get(
    "",
    response_model=Page[ExperimentRead],
    summary="List experiments, newest first",
    responses=NOT_MODIFIED,
)
def list_experiments(
    request: Request,
    db: Db,
    caller: Viewer,
    project: ProjectFilter = None,
    limit: Limit = 50,
    offset: Offset = 0,
    state: Annotated[
        list[ExperimentState], Query(description="Filter by state (repeatable).")
    ] = [],  # noqa: B006
    label: Annotated[
        list[LabelFilter],
        Query(
            max_length=MAX_LABEL_FILTERS,
            description=f"Filter by `key:value` (repeatable, at most {MAX_LABEL_FILTERS}); an "
            "experiment matches when it has every pair.",
        ),
    ] = [],  # noqa: B006
) -> Response:
    projects = visible_projects(caller, project)
    page = usecase.list_experiments(db, state, label_pairs(label), limit, offset, projects)
    return SERIALIZED.response(request, page)


@router.get(
    "/{experiment_id}",
    response_model=ExperimentRead,
    summary="One experiment with trial counts and the best trial",
    responses=NOT_MODIFIED,
)
def get_experiment(request: Request, experiment_id: str, db: Db, _: ExperimentViewer) -> Response:
    return SERIALIZED.response(request, usecase.get_experiment(db, experiment_id))


@router.post("/{experiment_id}/cancel", summary="Cancel (idempotent)")
def cancel(experiment_id: str, db: Db, _: ExperimentMember) -> ExperimentRead:
    """A queued sweep is cancelled at once; a running one moves to `cancelling` and its driver
    stops it at the next result. Cancelling a cancelled sweep changes nothing; a finished one is
    a 409."""
    return sweep_control.cancel_experiment(db, experiment_id)


@router.put("/{experiment_id}/notes", summary="Write the sweep's notes")
def put_notes(experiment_id: str, body: NotesUpdate, db: Db, _: ExperimentMember) -> ExperimentRead:
    """Replaces the notes (at most 10,000 characters; empty removes them). The list and the
    experiment show them."""
    return usecase.set_experiment_notes(db, experiment_id, body.notes)


@router.post("/{experiment_id}/pause", summary="Pause (idempotent)")
def pause(experiment_id: str, db: Db, _: ExperimentMember) -> ExperimentRead:
    """A running sweep moves to `pausing`; its driver stops it once every running trial has saved
    a checkpoint, keeping Tune's state, and the sweep becomes `paused` with nothing left in Ray.
    A queued sweep is paused at once. Pausing a paused or pausing sweep changes nothing; a
    cancelling or finished one is a 409."""
    return sweep_control.pause_experiment(db, experiment_id)


@router.post("/{experiment_id}/resume", summary="Resume a paused sweep (idempotent)")
def resume(experiment_id: str, db: Db, _: ExperimentMember) -> ExperimentRead:
    """A paused sweep is queued again; its next driver restores Tune's state, and unfinished
    trials continue from their latest checkpoints. Resuming a queued or running sweep changes
    nothing; a pausing, cancelling or finished one is a 409."""
    return sweep_control.resume_experiment(db, experiment_id)


@router.post("/{experiment_id}/extend", summary="Extend a completed, cancelled or paused sweep")
def extend(
    request: Request, experiment_id: str, body: ExtendRequest, db: Db, _: ExperimentMember
) -> ExperimentRead:
    """Queues the sweep again with more configurations (`num_samples`: the new total), a larger
    `max_t` or a `time_budget_s`. It keeps its id, trials and results: the new configurations
    are suggested by a searcher that knows every stored trial (pruned ones as pruned), and
    trials with budget left (completed or cancelled below the new `max_t`, a paused sweep's
    open ones, and under `asha_promotion` the pruned ones, paused at their rungs again)
    continue from their checkpoints instead of starting again. An `extended` event records
    what changed. A queued, running, pausing, cancelling or failed sweep is a 409; a
    `num_samples` not above the sweep's, a `max_t` below it, a grid sweep, or an extension
    that would run nothing is a 422.

    With `search_space` (inline or a named one) the sweep's space changes: it is checked as a
    submitted spec's is (every problem a 422 at its path; nothing changes then), each sampled
    parameter it adds needs the value the earlier trials had in `earlier_values`, and the
    sweep's `search_spaces` gets a new version. The searcher is told the earlier trials that
    lie in the new space (added parameters at their earlier values, removed ones dropped); the
    others are left out and counted in the `extended` event. Continuing trials keep their
    configs and checkpoints; new trials carry the new `space_version`."""
    settings = app_state(request).settings
    return extension.extend_experiment(
        db, experiment_id, body, settings.search_spaces_dir, settings.final_clusters_for
    )


@router.delete(
    "/{experiment_id}",
    status_code=204,
    response_class=Response,
    summary="Delete a finished or paused experiment and its storage",
)
def delete(experiment_id: str, request: Request, _: ExperimentMember) -> Response:
    """Removes the experiment's rows (trials, results, checkpoints, events) and its storage
    directory. A queued, running, pausing or cancelling experiment is a 409: cancel it first."""
    state: AppState = app_state(request)
    usecase.delete_experiment(state.db, state.settings.storage_root, experiment_id)
    return Response(status_code=204)


@router.get("/{experiment_id}/events", summary="The experiment's timeline")
def events(
    experiment_id: str,
    db: Db,
    _: ExperimentViewer,
    limit: Limit = 100,
    after: Annotated[int, id_cursor("Only events with a larger id.")] = 0,
    trial: Annotated[
        int | None, Query(ge=1, le=MAX_BIGINT, description="Only this trial's events.")
    ] = None,
) -> Page[EventRead]:
    return usecase.list_events(db, experiment_id, after, limit, trial)
