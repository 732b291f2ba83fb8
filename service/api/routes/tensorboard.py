"""An experiment's trials as TensorBoard runs (what ``raysweep tensorboard`` opens)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from raysweep.tensorboard import TensorBoardRuns
from service.api.deps import AppState, ExperimentViewer, app_state
from service.api.errors import ERROR_RESPONSES
from service.usecases.tensorboard import tensorboard_runs

router = APIRouter(prefix="/api/v1", tags=["trials"], responses=ERROR_RESPONSES)


@router.get(
    "/experiments/{experiment_id}/tensorboard",
    summary="An experiment's trials as TensorBoard runs",
)
def runs(experiment_id: str, request: Request, _: ExperimentViewer) -> TensorBoardRuns:
    """Each trial, by number, with a run name (`#<number>` and the config keys that differ
    between the trials) and the directory on the storage URI where its Train run writes the
    TensorBoard scalars of every metric it reports (a trial that has not reported yet may have
    none). `tensorboard --logdir_spec "<name>:<logdir>,..."` opens them."""
    state: AppState = app_state(request)
    return tensorboard_runs(state.db, state.settings.storage_root, experiment_id)
