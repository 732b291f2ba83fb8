"""Dependencies shared by the routes: the session factory, the caller's token, paging."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session, sessionmaker

from raysweep.schemas import Role, TokenRead
from service.db.base import MAX_BIGINT
from service.errors import Forbidden, Unauthorized
from service.metrics import Metrics
from service.settings import Settings
from service.usecases.tokens import RecentTokens, authenticate

ROLE_RANK = {Role.viewer: 0, Role.member: 1, Role.admin: 2}


@dataclass(frozen=True)
class AppState:
    settings: Settings
    db: sessionmaker[Session]
    ready_checks: dict[str, Callable[[], str | None]]  # name -> None when fine, else the problem
    metrics: Metrics
    recent_tokens: RecentTokens


def app_state(request: Request) -> AppState:
    state: AppState = request.app.state.raysweep
    return state


# async, as every dependency that does no I/O: FastAPI runs a sync one on the thread pool, a
# thread handoff per dependency per request
async def database(request: Request) -> sessionmaker[Session]:
    return app_state(request).db


bearer = HTTPBearer(auto_error=False, description="An API token: `Authorization: Bearer rsw_...`")


def require(role: Role) -> Callable[..., Awaitable[TokenRead]]:
    """A dependency admitting tokens with ``role`` or a higher one."""

    # async: a token admitted within the last RAYSWEEP_TOKEN_CACHE_S needs neither the database
    # nor a thread; the lookup otherwise runs on the request threads
    async def check(
        request: Request,
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    ) -> TokenRead:
        if credentials is None or credentials.scheme.lower() != "bearer":
            raise Unauthorized("missing token: send `Authorization: Bearer <token>`")
        state = app_state(request)
        token = credentials.credentials
        caller = state.recent_tokens.get(token, state.settings.token_cache_s)
        if caller is None:
            caller = await run_in_threadpool(authenticate, state.db, token)
            state.recent_tokens.put(token, caller)
        if ROLE_RANK[caller.role] < ROLE_RANK[role]:
            raise Forbidden(f"role {caller.role.value} may not do this; needs {role.value}")
        return caller

    return check


Db = Annotated[sessionmaker[Session], Depends(database)]
Viewer = Annotated[TokenRead, Depends(require(Role.viewer))]
Member = Annotated[TokenRead, Depends(require(Role.member))]
# A number past its column's range (service.db.models) would reach the database and fail there
# (a 500); bounded here it is a 422 naming the parameter.
Limit = Annotated[int, Query(ge=1, le=500, description="Page size.")]
Offset = Annotated[int, Query(ge=0, le=MAX_BIGINT, description="Items to skip.")]
RowId = Annotated[int, Path(ge=1, le=MAX_BIGINT)]


def id_cursor(description: str) -> Any:
    """A query parameter naming a row id to continue after (0: from the start)."""
    return Query(ge=0, le=MAX_BIGINT, description=description)
