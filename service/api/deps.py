"""Dependencies shared by the routes: the session factory, the caller's token, paging."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session, sessionmaker

from raysweep.schemas import Role, TokenRead
from service.errors import Forbidden, Unauthorized
from service.metrics import Metrics
from service.settings import Settings
from service.usecases.tokens import authenticate

ROLE_RANK = {Role.viewer: 0, Role.member: 1, Role.admin: 2}


@dataclass(frozen=True)
class AppState:
    settings: Settings
    db: sessionmaker[Session]
    ready_checks: dict[str, Callable[[], str | None]]  # name -> None when fine, else the problem
    metrics: Metrics


def app_state(request: Request) -> AppState:
    state: AppState = request.app.state.raysweep
    return state


def database(state: Annotated[AppState, Depends(app_state)]) -> sessionmaker[Session]:
    return state.db


bearer = HTTPBearer(auto_error=False, description="An API token: `Authorization: Bearer rsw_...`")


def require(role: Role) -> Callable[..., TokenRead]:
    """A dependency admitting tokens with ``role`` or a higher one."""

    def check(
        db: Annotated[sessionmaker[Session], Depends(database)],
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    ) -> TokenRead:
        if credentials is None or credentials.scheme.lower() != "bearer":
            raise Unauthorized("missing token: send `Authorization: Bearer <token>`")
        caller = authenticate(db, credentials.credentials)
        if ROLE_RANK[caller.role] < ROLE_RANK[role]:
            raise Forbidden(f"role {caller.role.value} may not do this; needs {role.value}")
        return caller

    return check


Db = Annotated[sessionmaker[Session], Depends(database)]
Viewer = Annotated[TokenRead, Depends(require(Role.viewer))]
Member = Annotated[TokenRead, Depends(require(Role.member))]
Limit = Annotated[int, Query(ge=1, le=500, description="Page size.")]
Offset = Annotated[int, Query(ge=0, description="Items to skip.")]
