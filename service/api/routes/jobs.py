"""What Ray jobs read and store: a sweep's driver (``/jobs/sweep``) and a final run's job
(``/jobs/final-run``), each with its own job's token (``rsj_...``), which names the record it
acts on. The jobs hold no database credentials: they run the code members upload, which can
read whatever they hold. A token is good only while its sweep or final run is active and its
job is the latest attempt; members' and admins' tokens are refused here, and job tokens
everywhere else."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request, Response

from service.api.deps import FinalRunJobId, SweepJob, SweepJobScope, app_state
from service.api.errors import ERROR_RESPONSES
from service.db.base import MAX_BIGINT
from service.resources import HeldSegment, ProjectShare
from service.usecases import driving
from service.usecases.decisions import RungDecided
from service.usecases.driving import (
    BudgetSpent,
    ControlRequest,
    DriverEvent,
    FinalRunEnd,
    FinalRunEpoch,
    OpJson,
    Pruned,
    SweepEnded,
    SweepStart,
    WorkerFailure,
)
from service.usecases.exploits import ExploitDecided, read_exploits
from service.usecases.extension import History
from service.usecases.job_outcomes import (
    DriverOutcome,
    FinalRunJob,
    finish_final_run,
    finish_sweep,
    record_final_run_worker_failure,
    start_final_run,
    store_final_run_epoch,
)
from service.usecases.projects import record_final_run_usage
from service.usecases.reports import BatchSequence

router = APIRouter(prefix="/api/v1/jobs", tags=["jobs"], responses=ERROR_RESPONSES)


@router.get("/sweep", summary="The sweep a driver starts from")
def sweep(experiment_id: SweepJob, request: Request) -> SweepStart:
    """The sweep's state, spec and extensions, and the Tune ids of its stored trials."""
    return driving.sweep_start(app_state(request).db, experiment_id)


@router.get("/sweep/request", summary="The control request the driver must honour")
def control_request(experiment_id: SweepJob, request: Request) -> ControlRequest:
    return ControlRequest(driving.control_request(app_state(request).db, experiment_id))


@router.get("/sweep/decisions", summary="The sweep's stored early-stopping decisions")
def decisions(experiment_id: SweepJob, request: Request) -> list[tuple[str, RungDecided]]:
    return driving.decisions(app_state(request).db, experiment_id)


@router.get("/sweep/exploits", summary="The sweep's stored PBT exploits")
def exploits(experiment_id: SweepJob, request: Request) -> list[ExploitDecided]:
    return read_exploits(app_state(request).db, experiment_id)


@router.get("/sweep/history", summary="What the sweep's next Tune run starts from")
def history(experiment_id: SweepJob, request: Request) -> History | None:
    """An extension's stored trials and a warm start's other sweeps' (null: from scratch)."""
    return driving.history(app_state(request).db, experiment_id)


@router.get("/sweep/completed", summary="The completed trials, for stop.converged")
def completed(
    experiment_id: SweepJob,
    request: Request,
    judged: Annotated[int, Query(ge=0, le=10**9, description="Trials the last verdict saw.")] = 0,
) -> list[tuple[dict[str, Any], float]]:
    """Empty while fewer than `min_trials`, or no more than `judged`, have completed."""
    return driving.completed(app_state(request).db, experiment_id, judged)


@router.get("/sweep/budget", summary="What the sweep spent of stop.budget, once spent")
def budget(experiment_id: SweepJob, request: Request) -> BudgetSpent:
    return BudgetSpent(driving.spent(app_state(request).db, experiment_id))


@router.get("/sweep/share", summary="The sweep's project's weight and quotas")
def share(experiment_id: SweepJob, request: Request) -> ProjectShare:
    return driving.share(app_state(request).db, experiment_id)


@router.post("/sweep/records", status_code=204, summary="Store a batch of the sweep's reports")
def records(
    job: SweepJobScope,
    request: Request,
    batch: Annotated[list[OpJson], Body(max_length=driving.MAX_BATCH)],
    sequence: Annotated[
        int | None,
        Query(
            ge=1,
            le=MAX_BIGINT,
            description="The batch's place among the driver job's batches (1, 2, ...): a "
            "batch sent again with a sequence already stored is not stored twice.",
        ),
    ] = None,
) -> Response:
    """Trials started, results and checkpoints, decisions, waits, restarts, leases and ends,
    in one transaction. A batch sent twice stores each result once, and with its `sequence`
    nothing else twice either (a restart's count, an event). The checkpoints of the trials the
    batch ends are pruned to the spec's `fault_tolerance.checkpoints_to_keep`."""
    state = app_state(request)
    numbered = None if sequence is None else BatchSequence(job.attempt, sequence)
    driving.record(state.db, job.target, state.settings.storage_root, batch, numbered)
    return Response(status_code=204)


@router.post("/sweep/prune", summary="Prune the finished trials' checkpoints")
def prune(experiment_id: SweepJob, request: Request) -> Pruned:
    """What an earlier driver of the sweep may not have pruned before it died."""
    state = app_state(request)
    return Pruned(driving.prune(state.db, experiment_id, state.settings.storage_root))


@router.post("/sweep/events", status_code=204, summary="Tell what the driver removed from Ray")
def event(experiment_id: SweepJob, request: Request, body: DriverEvent) -> Response:
    driving.add_driver_event(app_state(request).db, experiment_id, body)
    return Response(status_code=204)


@router.post("/sweep/finish", summary="Record how the driver ended")
def finish(experiment_id: SweepJob, request: Request, body: DriverOutcome) -> SweepEnded:
    """The sweep's final (or paused) state; the token is revoked with it."""
    return SweepEnded(finish_sweep(app_state(request).db, experiment_id, body))


@router.post("/final-run/start", summary="Start the final run: what to train")
def final_run_start(final_run_id: FinalRunJobId, request: Request) -> FinalRunJob | None:
    """Moves a queued run to running; null when it ended or is being cancelled."""
    return start_final_run(app_state(request).db, int(final_run_id))


@router.post("/final-run/epochs", status_code=204, summary="Store one epoch's report")
def final_run_epoch(final_run_id: FinalRunJobId, request: Request, body: FinalRunEpoch) -> Response:
    store_final_run_epoch(app_state(request).db, int(final_run_id), body.epoch, body.metrics)
    return Response(status_code=204)


@router.post("/final-run/worker-failures", status_code=204, summary="Record a worker failure")
def final_run_worker_failure(
    final_run_id: FinalRunJobId, request: Request, body: WorkerFailure
) -> Response:
    record_final_run_worker_failure(app_state(request).db, int(final_run_id), body.message)
    return Response(status_code=204)


@router.post("/final-run/usage", status_code=204, summary="Store the run's held compute")
def final_run_usage(
    final_run_id: FinalRunJobId,
    request: Request,
    segments: Annotated[list[HeldSegment], Body(max_length=10_000)],
) -> Response:
    record_final_run_usage(app_state(request).db, int(final_run_id), segments)
    return Response(status_code=204)


@router.post("/final-run/finish", status_code=204, summary="Record how the final run ended")
def final_run_finish(final_run_id: FinalRunJobId, request: Request, body: FinalRunEnd) -> Response:
    finish_final_run(app_state(request).db, int(final_run_id), body.outcome, body.error)
    return Response(status_code=204)
