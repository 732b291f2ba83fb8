"""Aggregated, downsampled reads for live views (the web UI): curves, the history of the metric,
ASHA rungs, configs, hyperparameter importance, the Pareto front, the trials' timeline, and the
changes since a cursor."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from raysweep.analysis import (
    ConfigSample,
    ConfigTable,
    Curves,
    History,
    Importance,
    ImportanceEvaluator,
    Pareto,
    Rungs,
)
from raysweep.schemas import ExperimentUpdates
from raysweep.timeline import Timeline
from raysweep.tokens import TokenRead
from service.api.cached_json import NOT_MODIFIED, SERIALIZED
from service.api.deps import Db, ExperimentViewer, Viewer, ViewSlot, id_cursor
from service.api.errors import ERROR_RESPONSES
from service.usecases import importance as importance_usecase
from service.usecases import pareto as pareto_usecase
from service.usecases import timeline as timeline_usecase
from service.usecases import views as usecase
from service.usecases.history_view import experiment_history

# a metric name as trainers report them: letters, digits and _ . / - (no quote reaches a JSON path)
METRIC_NAME = r"^[A-Za-z0-9_./-]{1,128}$"
router = APIRouter(prefix="/api/v1", tags=["views"], responses=ERROR_RESPONSES)


@router.get("/me", summary="The caller's token: name and role", tags=["tokens"])
def me(caller: Viewer) -> TokenRead:
    return caller


@router.get(
    "/experiments/{experiment_id}/curves",
    response_model=Curves,
    summary="Learning curves, downsampled",
    responses=NOT_MODIFIED,
)
def curves(
    request: Request,
    experiment_id: str,
    db: Db,
    _: ExperimentViewer,
    __: ViewSlot,
    max_trials: Annotated[int, Query(ge=1, le=2000, description="Series at most.")] = 300,
    max_points: Annotated[int, Query(ge=2, le=1000, description="Points per series.")] = 100,
    metric: Annotated[
        str | None,
        Query(
            pattern=METRIC_NAME,
            description="A reported metric to draw (see `metrics`); default: the sweep's.",
        ),
    ] = None,
) -> Response:
    """A metric (the sweep's, or `metric`) against the time attribute. Past `max_trials` the
    running trials, the best ones and an even spread of the rest are sent; `total_trials` says
    how many exist, `metrics` which numbers the trials report."""
    return SERIALIZED.response(
        request, usecase.experiment_curves(db, experiment_id, max_trials, max_points, metric)
    )


@router.get(
    "/experiments/{experiment_id}/history",
    response_model=History,
    summary="The metric in completion order",
    responses=NOT_MODIFIED,
)
def history(
    request: Request,
    experiment_id: str,
    db: Db,
    _: ExperimentViewer,
    __: ViewSlot,
    max_points: Annotated[int, Query(ge=2, le=5000, description="Points at most.")] = 1000,
) -> Response:
    """Each finished trial's best metric value in the order the trials ended, with the best
    value so far (over the feasible trials, as the experiment's best trial is chosen). Past
    `max_points`, every improvement of the best (the latest, up to half the points) and an even
    spread of the rest are sent."""
    return SERIALIZED.response(request, experiment_history(db, experiment_id, max_points))


@router.get(
    "/experiments/{experiment_id}/rungs",
    response_model=Rungs,
    summary="ASHA's rungs",
    responses=NOT_MODIFIED,
)
def rungs(
    request: Request, experiment_id: str, db: Db, _: ExperimentViewer, __: ViewSlot
) -> Response:
    """For each milestone of ASHA's first bracket: trials that reached it, went on, or stopped
    there, and the cutoff computed from the metric values recorded at it."""
    return SERIALIZED.response(request, usecase.experiment_rungs(db, experiment_id))


@router.get(
    "/experiments/{experiment_id}/configs",
    response_model=ConfigTable,
    summary="Hyperparameters against the metric",
    responses=NOT_MODIFIED,
)
def configs(
    request: Request,
    experiment_id: str,
    db: Db,
    _: ExperimentViewer,
    __: ViewSlot,
    limit: Annotated[int, Query(ge=1, le=5000, description="Trials at most, best first.")] = 1000,
    sample: Annotated[
        ConfigSample,
        Query(
            description="Which trials past `limit`: `best` (the default), `random` (seeded by "
            "the sweep: the same ones each time) or `all` (sweeps of at most `all_max` "
            "trials; else 422)."
        ),
    ] = ConfigSample.best,
) -> Response:
    """Each trial's config and best metric, best first, for the parallel coordinates, slice
    and contour plots: `sample` says which trials when the sweep has more than `limit`."""
    return SERIALIZED.response(
        request, usecase.experiment_configs(db, experiment_id, limit, sample)
    )


@router.get(
    "/experiments/{experiment_id}/importance",
    response_model=Importance,
    summary="Hyperparameter importance",
    responses=NOT_MODIFIED,
)
def importance(
    request: Request,
    experiment_id: str,
    db: Db,
    _: ExperimentViewer,
    __: ViewSlot,
    evaluator: Annotated[
        ImportanceEvaluator,
        Query(description="`ped_anova` (Optuna's PED-ANOVA, the default) or `fanova`."),
    ] = ImportanceEvaluator.ped_anova,
    at_iteration: Annotated[
        int | None,
        Query(
            ge=1,
            description="Compare the trials at this rung (one of `iterations`; else 422); "
            "default: the deepest that a quarter of the trials, and at least 5, reached.",
        ),
    ] = None,
) -> Response:
    """How much each sampled hyperparameter decided the metric, most important first, from the
    trials' values at one iteration (`at_iteration`: by default the deepest that a quarter of
    the trials, and at least 5, reached, so trials ASHA stopped early are compared with the
    others at the same budget). Below 5 such trials `importances` is empty and `message` says
    how many there are. `warnings` names the values of a choice parameter that early stopping
    left out of the compared set (most of their trials ended at an earlier rung)."""
    return SERIALIZED.response(
        request,
        importance_usecase.experiment_importance(db, experiment_id, evaluator, at_iteration),
    )


@router.get(
    "/experiments/{experiment_id}/pareto",
    response_model=Pareto,
    summary="The Pareto front of the objectives",
    responses=NOT_MODIFIED,
)
def pareto(
    request: Request,
    experiment_id: str,
    db: Db,
    _: ExperimentViewer,
    __: ViewSlot,
    limit: Annotated[
        int, Query(ge=1, le=5000, description="Trials at most: the front, then the rest.")
    ] = 1000,
) -> Response:
    """The completed trials that no other dominates on the spec's `objectives` (each trial
    judged by its latest value of every objective), infeasible trials never on it; then an
    even spread of the other completed trials, for a scatter. `front` lists the front's trial
    ids by the first objective. A sweep with one metric has its best trial(s) as the front."""
    return SERIALIZED.response(request, pareto_usecase.experiment_pareto(db, experiment_id, limit))


@router.get(
    "/experiments/{experiment_id}/timeline",
    response_model=Timeline,
    summary="When each trial ran and waited for resources",
    responses=NOT_MODIFIED,
)
def timeline(
    request: Request,
    experiment_id: str,
    db: Db,
    _: ExperimentViewer,
    __: ViewSlot,
    limit: Annotated[
        int, Query(ge=1, le=5000, description="Trials at most, the latest first.")
    ] = 500,
) -> Response:
    """The latest `limit` trials (by number, newest first): when each started and ended
    (`finished_at` null while it runs) and its waits for the cluster to place it (from its
    `trial_waiting` events; a wait's end is the trial's next result or event). `total_trials`
    counts them all; `truncated` says older ones were left out."""
    return SERIALIZED.response(
        request, timeline_usecase.experiment_timeline(db, experiment_id, limit)
    )


@router.get("/experiments/{experiment_id}/updates", summary="What changed since a cursor")
def updates(
    experiment_id: str,
    db: Db,
    _: ExperimentViewer,
    after: Annotated[int, id_cursor("`cursor` of the previous answer.")] = 0,
    events_after: Annotated[int, id_cursor("Largest event id seen.")] = 0,
    limit: Annotated[int, Query(ge=1, le=10_000, description="Results at most.")] = 2000,
) -> ExperimentUpdates:
    """Poll this for live views: the experiment (state, counts, best trial) and only the
    results and events newer than the cursors."""
    return usecase.experiment_updates(db, experiment_id, after, events_after, limit)
