"""Dependencies shared by the routes: the session factory, the caller's token, paging."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session, sessionmaker

from raysweep.tokens import Role, TokenRead
from service.api.view_slots import ViewSlots
from service.clock import Clock
from service.db.base import MAX_BIGINT
from service.errors import Forbidden, Unauthorized
from service.metrics import Metrics
from service.settings import Settings
from service.usecases.access import (
    Owned,
    Owners,
    check_role,
    has_role_somewhere,
    missing_message,
    role_in,
)
from service.usecases.job_tokens import (
    JobScope,
    check_job_current,
    is_job_token,
    job_scope,
    job_token_key,
)
from service.usecases.tokens import RecentTokens, authenticate


class JobTokenKey:
    """The key job tokens are signed with, read from the database once per process."""

    def __init__(self) -> None:
        self._key: bytes | None = None
        self._lock = threading.Lock()

    def get(self, db: sessionmaker[Session]) -> bytes:
        with self._lock:
            if self._key is None:
                self._key = job_token_key(db)
            return self._key


@dataclass(frozen=True)
class AppState:
    settings: Settings
    db: sessionmaker[Session]
    ready_checks: dict[str, Callable[[], str | None]]  # name -> None when fine, else the problem
    metrics: Metrics
    recent_tokens: RecentTokens
    owners: Owners
    view_slots: ViewSlots
    work_arrived: threading.Event  # set after a change; the controller's runner waits on it
    job_token_key: JobTokenKey
    clock: Clock  # what the schedule routes take as now


def app_state(request: Request) -> AppState:
    state: AppState = request.app.state.raysweep
    return state


# async, as every dependency that does no I/O: FastAPI runs a sync one on the thread pool, a
# thread handoff per dependency per request
async def database(request: Request) -> sessionmaker[Session]:
    return app_state(request).db


bearer = HTTPBearer(auto_error=False, description="An API token: `Authorization: Bearer rsw_...`")


async def caller_of(state: AppState, token: str | None) -> TokenRead:
    """The token's holder (``Unauthorized`` when there is none, or it is unknown or revoked)."""
    if not token:
        raise Unauthorized("missing token: send `Authorization: Bearer <token>`")
    caller = state.recent_tokens.get(token, state.settings.token_cache_s)
    if caller is None:
        caller = await run_in_threadpool(authenticate, state.db, token)
        state.recent_tokens.put(token, caller)
    return caller


async def job_of(state: AppState, token: str | None) -> JobScope:
    """The job a job token was minted for (``Unauthorized`` when it is not one of ours); its
    record may have ended since (``current_job`` checks)."""
    if not token or not is_job_token(token):
        raise Unauthorized(
            "this route takes a Ray job's own token (`Authorization: Bearer rsj_...`)"
        )
    key = await run_in_threadpool(state.job_token_key.get, state.db)
    return job_scope(key, token)


def current_job(kind: str) -> Callable[..., Awaitable[JobScope]]:
    """A dependency admitting a job token of ``kind`` whose record is active and whose job is
    the record's latest attempt; its scope, whose ``target`` is the record's id (what the routes
    act on: the token names it, so no path can point a job at another record)."""

    async def check(
        request: Request,
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    ) -> JobScope:
        state = app_state(request)
        scope: JobScope | None = getattr(request.state, "job", None)  # TokenBeforeBody's
        if scope is None:
            token = credentials.credentials if credentials is not None else None
            scope = await job_of(state, token)
        if scope.kind != kind:
            raise Forbidden(f"a {scope.kind.replace('_', ' ')} job's token may not do this")

        def current() -> None:
            with state.db.begin() as session:
                check_job_current(session, scope)

        await run_in_threadpool(current)
        return scope

    return check


sweep_job, final_run_job = current_job("sweep"), current_job("final_run")


async def sweep_job_target(scope: JobScope = Depends(sweep_job)) -> str:
    return scope.target


async def final_run_job_target(scope: JobScope = Depends(final_run_job)) -> str:
    return scope.target


def require(role: Role) -> Callable[..., Awaitable[TokenRead]]:
    """A dependency admitting tokens with ``role`` or a higher one in some project (the route
    then checks the project of what it touches)."""

    # async: a token admitted within the last RAYSWEEP_TOKEN_CACHE_S needs neither the database
    # nor a thread; the lookup otherwise runs on the request threads
    async def check(
        request: Request,
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    ) -> TokenRead:
        caller: TokenRead | None = getattr(request.state, "caller", None)  # TokenBeforeBody's
        if caller is None:  # (HTTPBearer hands over bearer credentials only)
            token = credentials.credentials if credentials is not None else None
            caller = await caller_of(app_state(request), token)
        if not has_role_somewhere(caller, role):
            raise Forbidden(f"role {caller.role.value} may not do this; needs {role.value}")
        return caller

    return check


# the path parameter naming each kind of object, and how it must read to be one (anything
# else is left to the route's own validation, a 422)
OWNED_PARAMS = {
    Owned.experiment: "experiment_id",
    Owned.trial: "trial_id",
    Owned.final_run: "final_run_id",
    Owned.model: "name",
    Owned.schedule: "schedule_id",
    Owned.code: "sha256",
}
NUMERIC = {Owned.trial, Owned.final_run}


def owned(kind: Owned, role: Role) -> Callable[..., Awaitable[TokenRead]]:
    """A dependency admitting the caller to the object the path names: ``role`` or a higher one
    in a project holding it; an object of a project the caller has no role in is the same 404
    as one that does not exist."""
    admitted = require(role)

    # the dependency as a default value: an annotation naming a local is never resolved here
    async def check(request: Request, caller: TokenRead = Depends(admitted)) -> TokenRead:
        key = str(request.path_params.get(OWNED_PARAMS[kind], ""))
        if kind in NUMERIC and not (key.isdigit() and 1 <= int(key) <= MAX_BIGINT):
            return caller  # the route answers 422
        if caller.role is Role.admin:
            return caller  # everything is an admin's; the use case says when it is missing
        state = app_state(request)
        projects = state.owners.get(kind, key)
        if projects is None or not any(role_in(caller, p) for p in projects):
            projects = await run_in_threadpool(state.owners.read, state.db, kind, key)
        check_role(caller, projects, role, missing_message(kind, key))
        return caller

    return check


Db = Annotated[sessionmaker[Session], Depends(database)]
# the sweep's id (the experiment's), the final run's; the sweep job's scope (its attempt too)
SweepJob = Annotated[str, Depends(sweep_job_target)]
FinalRunJobId = Annotated[str, Depends(final_run_job_target)]
SweepJobScope = Annotated[JobScope, Depends(sweep_job)]


async def view_slot(request: Request) -> AsyncIterator[None]:
    """Holds one of the process's view slots while the route computes (``ViewSlots``)."""
    slots = app_state(request).view_slots
    await slots.take()
    try:
        yield
    finally:
        slots.give_back()


ViewSlot = Annotated[None, Depends(view_slot)]
Viewer = Annotated[TokenRead, Depends(require(Role.viewer))]
Member = Annotated[TokenRead, Depends(require(Role.member))]
Admin = Annotated[TokenRead, Depends(require(Role.admin))]
ExperimentViewer = Annotated[TokenRead, Depends(owned(Owned.experiment, Role.viewer))]
ExperimentMember = Annotated[TokenRead, Depends(owned(Owned.experiment, Role.member))]
TrialViewer = Annotated[TokenRead, Depends(owned(Owned.trial, Role.viewer))]
TrialMember = Annotated[TokenRead, Depends(owned(Owned.trial, Role.member))]
FinalRunViewer = Annotated[TokenRead, Depends(owned(Owned.final_run, Role.viewer))]
FinalRunMember = Annotated[TokenRead, Depends(owned(Owned.final_run, Role.member))]
ModelViewer = Annotated[TokenRead, Depends(owned(Owned.model, Role.viewer))]
ModelMember = Annotated[TokenRead, Depends(owned(Owned.model, Role.member))]
ScheduleViewer = Annotated[TokenRead, Depends(owned(Owned.schedule, Role.viewer))]
ScheduleMember = Annotated[TokenRead, Depends(owned(Owned.schedule, Role.member))]
CodeViewer = Annotated[TokenRead, Depends(owned(Owned.code, Role.viewer))]
# A number past its column's range (service.db.models) would reach the database and fail there
# (a 500); bounded here it is a 422 naming the parameter.
Limit = Annotated[int, Query(ge=1, le=500, description="Page size.")]
Offset = Annotated[int, Query(ge=0, le=MAX_BIGINT, description="Items to skip.")]
RowId = Annotated[int, Path(ge=1, le=MAX_BIGINT)]
ProjectFilter = Annotated[
    str | None,
    Query(
        max_length=63,
        description="Only this project's (default: every project the token has a role in).",
    ),
]


def id_cursor(description: str) -> Any:
    """A query parameter naming a row id to continue after (0: from the start)."""
    return Query(ge=0, le=MAX_BIGINT, description=description)
