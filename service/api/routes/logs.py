"""Logs: what a trial's or a final run's workers printed, by attempt and rank, and what a sweep's
drivers printed; followed while they run."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool

from raysweep.logs import TrialLogs
from service.api.deps import (
    AppState,
    ExperimentViewer,
    FinalRunViewer,
    RowId,
    TrialViewer,
    app_state,
)
from service.api.errors import ERROR_RESPONSES
from service.settings import RAY_AUTH_TOKEN_PATH
from service.usecases import trial_logs as usecase

router = APIRouter(prefix="/api/v1", tags=["logs"], responses=ERROR_RESPONSES)
FOLLOW_POLL_S = 0.5

Rank = Annotated[int | None, Query(ge=0, le=100_000, description="One rank only.")]
Attempt = Annotated[
    int | None,
    Query(ge=-1, le=100_000, description="One attempt only (1 first; -1: the latest)."),
]
After = Annotated[
    str | None,
    Query(
        max_length=20_000,
        pattern=usecase.CURSOR_PATTERN,
        description="The `cursor` of an earlier answer: only newer lines.",
    ),
]
Lines = Annotated[int, Query(ge=1, le=usecase.MAX_LINES)]
Tail = Annotated[
    bool,
    Query(
        description="The last `limit` lines (newer than `after`) instead of the first; the "
        "`cursor` then passes every line up to now, so following from it gives only new ones."
    ),
]
WaitS = Annotated[
    float,
    Query(
        ge=0,
        le=25,
        description="Follow: while it runs and nothing is newer than `after`, wait up to this "
        "long for a line (a long poll) before answering.",
    ),
]
Reader = Callable[[usecase.Redactor, usecase.LogsQuery], TrialLogs]


def redactor_of(state: AppState) -> usecase.Redactor:
    settings = state.settings
    secret_files = [settings.admin_token_path, RAY_AUTH_TOKEN_PATH]
    if settings.secrets_dir is not None:
        secret_files += [p for p in settings.secrets_dir.glob("*") if p.is_file()]
    return usecase.Redactor(usecase.known_secrets(settings.database_url_value, secret_files))


async def followed(
    request: Request, reader: Reader, query: usecase.LogsQuery, wait_s: float
) -> TrialLogs:
    """The lines ``query`` asks for; with ``wait_s``, while none is newer and the run goes on,
    asked again every ``FOLLOW_POLL_S`` until one is or the wait is over."""
    state = app_state(request)
    redactor = await run_in_threadpool(redactor_of, state)  # reads the secret files

    async def read() -> TrialLogs:  # reading a long log is a view's work: it takes a view slot
        await state.view_slots.take()
        try:
            return await run_in_threadpool(reader, redactor, query)
        finally:
            state.view_slots.give_back()

    logs = await read()
    deadline = time.monotonic() + wait_s
    while not logs.lines and logs.running and time.monotonic() < deadline:
        await asyncio.sleep(FOLLOW_POLL_S)
        if await request.is_disconnected():
            break
        logs = await read()
    return logs


@router.get("/trials/{trial_id}/logs", summary="What a trial's workers printed")
async def trial_logs(
    request: Request,
    trial_id: RowId,
    _: TrialViewer,
    rank: Rank = None,
    attempt: Attempt = None,
    after: After = None,
    limit: Lines = 1000,
    tail: Tail = False,
    wait_s: WaitS = 0,
) -> TrialLogs:
    """Every line each worker of each attempt of the trial wrote to stdout or stderr (its
    traceback included when it failed), oldest first, with its time, rank, attempt and
    stream; secrets the server knows of (tokens, the database URL) are replaced by `***`.
    Kept per worker and attempt: the first quarter of RAYSWEEP_TRIAL_LOG_MAX_BYTES and the
    latest lines; `dropped` counts the lines between. Follow a running trial by passing each
    answer's `cursor` back as `after` with `wait_s` (a long poll: plain HTTP that every client
    and proxy handles, where server-sent events would hold a connection per follower)."""
    state = app_state(request)
    reader = partial(usecase.read_trial_logs, state.db, state.settings.storage_root, trial_id)
    query = usecase.LogsQuery(rank, attempt, after, limit, tail)
    return await followed(request, reader, query, wait_s)


@router.get("/final-runs/{final_run_id}/logs", summary="What a final run's workers printed")
async def final_run_logs(
    request: Request,
    final_run_id: RowId,
    _: FinalRunViewer,
    rank: Rank = None,
    attempt: Attempt = None,
    after: After = None,
    limit: Lines = 1000,
    tail: Tail = False,
    wait_s: WaitS = 0,
) -> TrialLogs:
    """As a trial's logs (`GET /trials/{id}/logs`), for the workers of a final run: each
    attempt (a restart of its worker group) and rank, secrets replaced, followed while the
    run is active."""
    state = app_state(request)
    reader = partial(
        usecase.read_final_run_logs, state.db, state.settings.storage_root, final_run_id
    )
    query = usecase.LogsQuery(rank, attempt, after, limit, tail)
    return await followed(request, reader, query, wait_s)


@router.get("/experiments/{experiment_id}/driver-logs", summary="What a sweep's drivers printed")
async def driver_logs(
    request: Request,
    experiment_id: str,
    _: ExperimentViewer,
    attempt: Attempt = None,
    after: After = None,
    limit: Lines = 1000,
    tail: Tail = False,
    wait_s: WaitS = 0,
) -> TrialLogs:
    """What each driver job of the sweep printed (an attempt per driver job: a resume, an
    extension or a restart after the driver died starts another; rank 0): Tune's progress,
    the driver's own log and errors, and what Ray forwarded from the trials' processes.
    Secrets replaced, bounded as a trial's logs are, followed while the sweep is active."""
    state = app_state(request)
    reader = partial(usecase.read_driver_logs, state.db, state.settings.storage_root, experiment_id)
    query = usecase.LogsQuery(None, attempt, after, limit, tail)
    return await followed(request, reader, query, wait_s)
