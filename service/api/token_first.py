"""Authenticate a request that carries a body before anything reads the body.

FastAPI reads and decodes a route's body before it solves the route's dependencies, so without
this a request with no token or a bad one and a malformed body was told about its body (a 4xx
for the JSON) rather than that it may not ask at all, and the server parsed what a stranger
sent. Every API route that takes a body needs a token; here its holder is found first (the
same lookup the routes' dependency makes, which then reuses it) and a request without a valid
token is answered 401 before its body is read.
"""

from __future__ import annotations

from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from service.api.deps import app_state, caller_of, job_of
from service.api.errors import error_response
from service.errors import Unauthorized

WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})
API_PREFIX = "/api/"
JOBS_PREFIX = "/api/v1/jobs/"


class TokenBeforeBody:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] not in WITH_BODY
            or not scope["path"].startswith(API_PREFIX)
        ):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        bearer = token.strip() if scheme.lower() == "bearer" else None
        state = scope.setdefault("state", {})
        try:
            if scope["path"].startswith(JOBS_PREFIX):  # a Ray job's own token (routes.jobs)
                state["job"] = await job_of(app_state(request), bearer)
            else:
                state["caller"] = await caller_of(app_state(request), bearer)
        except Unauthorized as error:
            response = error_response(
                401, error.code, error.message, headers={"WWW-Authenticate": "Bearer"}
            )
            await response(scope, receive, send)
            return
        except SQLAlchemyError:
            # the database did not answer: the route's own token check meets the same error,
            # which the app's handlers answer (a 503 with Retry-After), not this middleware
            await self.app(scope, receive, send)
            return
        await self.app(scope, receive, send)
