"""Trial routes: an experiment's trials, one trial, its results, decisions and exploits."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request, Response

from raysweep.lifecycle import TrialState
from raysweep.schemas import (
    CheckpointRead,
    ExploitRead,
    NotesUpdate,
    Page,
    ResultRead,
    RungDecisionRead,
    TrialRead,
)
from service.api.cached_json import NOT_MODIFIED, SERIALIZED
from service.api.deps import (
    Db,
    ExperimentViewer,
    Limit,
    Offset,
    RowId,
    TrialMember,
    TrialViewer,
)
from service.api.errors import ERROR_RESPONSES
from service.db.base import MAX_BIGINT, MAX_INT
from service.usecases import trials as usecase
from service.usecases.exploits import list_exploits

router = APIRouter(prefix="/api/v1", tags=["trials"], responses=ERROR_RESPONSES)


@router.get(
    "/experiments/{experiment_id}/trials",
    response_model=Page[TrialRead],
    summary="An experiment's trials",
    responses=NOT_MODIFIED,
)
def list_trials(
    request: Request,
    experiment_id: str,
    db: Db,
    _: ExperimentViewer,
    limit: Limit = 50,
    offset: Offset = 0,
    state: Annotated[list[TrialState], Query(description="Filter by state (repeatable).")] = [],  # noqa: B006
    where: Annotated[
        list[str],
        Query(
            max_length=usecase.MAX_CONDITIONS,
            description="`KEY OP VALUE` (repeatable, all must hold): KEY a config key "
            "(`lr`, or `config.iteration` where a column shares the name) or `best_metric`, "
            "`last_metric`, `iteration`, `space_version` (the search-space version a trial was "
            "sampled from); OP one of `= != < <= > >=`; a number compares as a "
            "number, other text as text (`=`/`!=` only). E.g. `lr>0.01`, `optimizer=adam`.",
        ),
    ] = [],  # noqa: B006
    sort: Annotated[
        str,
        Query(
            pattern=usecase.SORT_PATTERN,
            description="`best_metric`, `last_metric`, `iteration`, `created_at`, or "
            "`config.<key>` (numbers by value, then text); trials without it last.",
        ),
    ] = "best_metric",
    order: Annotated[
        Literal["best", "asc", "desc"],
        Query(description="`best`: best metric first for the experiment's mode."),
    ] = "best",
) -> Response:
    """The experiment's trials that match every `where` condition, sorted over all of them;
    `total` counts the matches. A condition that cannot be read is a 422 naming it."""
    page = usecase.list_trials(db, experiment_id, state, sort, order, limit, offset, where)
    return SERIALIZED.response(request, page)


@router.get("/trials/{trial_id}", summary="One trial")
def get_trial(trial_id: RowId, db: Db, _: TrialViewer) -> TrialRead:
    return usecase.get_trial(db, trial_id)


@router.put("/trials/{trial_id}/notes", summary="Write the trial's notes")
def put_notes(trial_id: RowId, body: NotesUpdate, db: Db, _: TrialMember) -> TrialRead:
    """Replaces the notes (at most 10,000 characters; empty removes them). The trial table and
    the trial page show them."""
    return usecase.set_trial_notes(db, trial_id, body.notes)


@router.get("/trials/{trial_id}/results", summary="A trial's reported results")
def results(
    trial_id: RowId,
    db: Db,
    _: TrialViewer,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 1000,
    offset: Offset = 0,
    first: Annotated[int | None, Query(ge=0, le=MAX_INT, description="Smallest iteration.")] = None,
    last: Annotated[int | None, Query(ge=0, le=MAX_INT, description="Largest iteration.")] = None,
) -> Page[ResultRead]:
    return usecase.list_results(db, trial_id, first, last, limit, offset)


@router.get("/trials/{trial_id}/checkpoints", summary="A trial's checkpoints, oldest first")
def checkpoints(trial_id: RowId, db: Db, _: TrialViewer) -> list[CheckpointRead]:
    return usecase.list_checkpoints(db, trial_id)


@router.get(
    "/trials/{trial_id}/decisions",
    summary="The early-stopping decisions made about a trial",
    description="Each as the scheduler made it: the rung, the trial's value, the cutoff, its "
    "rank and the rung's size then, and the decision (continue, stop, pause, promote, "
    "complete), oldest first. Empty without early stopping.",
)
def decisions(trial_id: RowId, db: Db, _: TrialViewer) -> list[RungDecisionRead]:
    return usecase.list_decisions(db, trial_id)


@router.get(
    "/experiments/{experiment_id}/exploits",
    summary="Population-based training's exploits: the sweep's lineage",
    description="Under `early_stopping.scheduler: pbt`, each exploit, oldest first: at `epoch` "
    "the trial continued from a copy of the source trial's checkpoint with `new_config` (the "
    "source's config, perturbed). A trial's exploits are its schedule (its config over "
    "epochs) and say where its weights came from; promotion replays that schedule. Empty for "
    "other schedulers.",
)
def exploits(
    experiment_id: str,
    db: Db,
    _: ExperimentViewer,
    trial_id: Annotated[
        int | None, Query(ge=1, le=MAX_BIGINT, description="Only this trial's exploits.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 1_000,
) -> list[ExploitRead]:
    return list_exploits(db, experiment_id, trial_id, limit)
