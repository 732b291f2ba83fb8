"""Promotion routes: promote a sweep's winners, read and cancel final runs, read their
results."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from raysweep.promotion_spec import PromotionOverrides
from raysweep.registry import FinalRunRead
from raysweep.schemas import Page, ResultRead
from service.api.deps import (
    Db,
    ExperimentMember,
    ExperimentViewer,
    FinalRunMember,
    FinalRunViewer,
    RowId,
    app_state,
)
from service.api.errors import ERROR_RESPONSES
from service.usecases import final_runs as runs
from service.usecases import promotion as usecase

router = APIRouter(prefix="/api/v1", tags=["promotion"], responses=ERROR_RESPONSES)


@router.post(
    "/experiments/{experiment_id}/promote",
    status_code=201,
    summary="Promote a completed sweep's top trials to final runs",
    responses={200: {"model": Page[FinalRunRead], "description": "Nothing new to promote."}},
)
def promote(
    experiment_id: str,
    request: Request,
    caller: ExperimentMember,
    response: Response,
    overrides: PromotionOverrides | None = None,
) -> Page[FinalRunRead]:
    """Queue a final run for each of the top-k completed feasible trials (best metric first,
    fewer epochs on a tie; with `objectives`, the Pareto front's by the first objective) not
    promoted before, with the spec's `promotion` settings and these overrides. `pick` takes the
    front's trials within bounds on the objectives, best first by one of them; `trial_numbers`
    (their `#` in the sweep) or `trial_ids` name the trials instead (each completed and
    feasible, else a 422 naming it).
    Each trains the trial's config with more workers and a scaled LR on the final cluster (with
    its own per-worker resources and precision, when given) and registers a model version.
    A cancelled or failed sweep promotes the trials that completed. 409 when the sweep is still
    going or has no completed trial; 422 naming each problem when the final cluster is unknown,
    or does not autoscale and can never hold the final run's workers. Answers the experiment's
    final runs: 201 when it queued new ones, 200 when the top-k were all promoted before (it
    changed nothing)."""
    state = app_state(request)
    promoted = usecase.promote_experiment(
        state.db,
        experiment_id,
        overrides or PromotionOverrides(),
        caller.name,
        state.settings.final_clusters_for,
        state.settings.fixed_final_clusters,
    )
    response.headers["Location"] = f"/api/v1/experiments/{experiment_id}/final-runs"
    if not promoted.added:
        response.status_code = 200
    return promoted.runs


@router.get("/experiments/{experiment_id}/final-runs", summary="An experiment's final runs")
def final_runs(experiment_id: str, db: Db, _: ExperimentViewer) -> Page[FinalRunRead]:
    return runs.list_final_runs(db, experiment_id)


@router.get("/final-runs/{final_run_id}", summary="One final run")
def final_run(final_run_id: RowId, db: Db, _: FinalRunViewer) -> FinalRunRead:
    return runs.get_final_run(db, final_run_id)


@router.post("/final-runs/{final_run_id}/cancel", summary="Cancel a final run (idempotent)")
def cancel_final_run(final_run_id: RowId, db: Db, caller: FinalRunMember) -> FinalRunRead:
    """A queued final run is `cancelled` at once; a running one becomes `cancelling` and the
    controller stops its Ray job, then marks it `cancelled` (a run that finishes first keeps
    its outcome). Cancelling a cancelling run changes nothing; a finished one is a 409. A
    retrain whose final run is cancelled ends `cancelled`."""
    return runs.cancel_final_run(db, final_run_id, caller.name)


@router.get("/final-runs/{final_run_id}/results", summary="A final run's results, per epoch")
def final_run_results(final_run_id: RowId, db: Db, _: FinalRunViewer) -> Page[ResultRead]:
    return runs.final_run_results(db, final_run_id)
