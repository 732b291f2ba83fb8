"""One error body for every 4xx: `{"error": {"code", "message", "details": [...]}}`."""

from __future__ import annotations

from re import Pattern
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DataError, OperationalError
from starlette.exceptions import HTTPException

from raysweep.errors import ErrorBody, ErrorResponse, Problem
from service.errors import (
    BadRequest,
    Busy,
    Conflict,
    DomainError,
    Forbidden,
    InvalidInput,
    NotFound,
    Unauthorized,
)
from service.states import IllegalTransition

STATUS = {
    BadRequest: 400,
    InvalidInput: 422,
    NotFound: 404,
    Conflict: 409,
    Unauthorized: 401,
    Forbidden: 403,
    Busy: 503,
}

ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse, "description": description}
    for status, description in [
        (400, "The body is not valid JSON, or not the content type the route takes"),
        (401, "Missing, unknown or revoked token"),
        (403, "The token's role may not do this"),
        (404, "No such object"),
        (409, "Not allowed in the object's current state"),
        (413, "The body is larger than the route's limit"),
        (422, "Invalid input; every problem is listed in `details`"),
        (
            503,
            "The database did not answer in time or cannot be reached, or the server's "
            "view slots stayed taken (`busy`); retry after `Retry-After` seconds",
        ),
    ]
}


def error_response(
    status: int,
    code: str,
    message: str,
    details: list[Problem] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    body = ErrorResponse(error=ErrorBody(code=code, message=message, details=details or []))
    return JSONResponse(body.model_dump(mode="json"), status_code=status, headers=headers)


def _location(loc: tuple[Any, ...]) -> str:
    # FastAPI prefixes "body"/"query"/"path"; keep the source for parameters, drop it for bodies
    parts = [str(p) for p in loc]
    if parts[:1] == ["body"]:
        parts = parts[1:]
    return ".".join(parts)


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    async def domain_error(_: Request, error: DomainError) -> JSONResponse:
        status = next(s for cls, s in STATUS.items() if isinstance(error, cls))
        headers = (
            {"WWW-Authenticate": "Bearer"}
            if status == 401
            else {"Retry-After": "1"}
            if status == 503
            else None
        )
        return error_response(status, error.code, error.message, error.details, headers)

    @app.exception_handler(IllegalTransition)
    async def illegal_transition(_: Request, error: IllegalTransition) -> JSONResponse:
        return error_response(409, "conflict", str(error))

    @app.exception_handler(RequestValidationError)
    async def request_invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        details = [
            Problem(path=_location(item["loc"]), message=item["msg"]) for item in error.errors()
        ]
        return error_response(
            422, "validation_error", f"{len(details)} problem(s) in the request", details
        )

    @app.exception_handler(DataError)
    async def unstorable(_: Request, error: DataError) -> JSONResponse:
        # a value the checks let through that the database refuses (PostgreSQL: a NUL character
        # in text); the first line of the driver's reason, never the statement
        reason = str(error.orig).splitlines()[0] if error.orig else "refused by the database"
        return error_response(
            422, "validation_error", f"a value in the request cannot be stored: {reason}"
        )

    @app.exception_handler(OperationalError)
    async def database_unavailable(request: Request, error: OperationalError) -> JSONResponse:
        # the statement ran past RAYSWEEP_API_STATEMENT_TIMEOUT_S (or waited that long for a
        # lock), or the database cannot be reached: the server's state, not the request's
        limit = request.app.state.raysweep.settings.api_statement_timeout_s
        return error_response(
            503,
            "database_unavailable",
            f"the database did not answer within {limit:g} s (RAYSWEEP_API_STATEMENT_TIMEOUT_S) "
            "or cannot be reached; try again",
            headers={"Retry-After": "1"},
        )

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        code = HTTP_CODES.get(error.status_code, "http_error")
        headers = dict(error.headers or {})
        if error.status_code == 405:
            headers["Allow"] = ", ".join(allowed_methods(request))
        return error_response(error.status_code, code, str(error.detail), headers=headers)


HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
}


def allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at this path (Starlette's 405 names only the first
    route's, and one path has several routes: GET and POST /experiments)."""
    routes: list[tuple[Pattern[str], set[str]]] = request.app.state.route_methods
    path = request.url.path
    return sorted({m for regex, methods in routes if regex.match(path) for m in methods})
