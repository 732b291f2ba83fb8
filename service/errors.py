"""Domain errors; the API maps each to one HTTP status in one place."""

from __future__ import annotations

from raysweep.errors import Problem


class DomainError(Exception):
    code = "error"

    def __init__(self, message: str, details: list[Problem] | None = None):
        super().__init__(message)
        self.message = message
        self.details = details or []


class InvalidInput(DomainError):
    code = "validation_error"


class BadRequest(DomainError):
    code = "bad_request"


class NotFound(DomainError):
    code = "not_found"


class Conflict(DomainError):
    code = "conflict"


class Unauthorized(DomainError):
    code = "unauthorized"


class Forbidden(DomainError):
    code = "forbidden"


class Busy(DomainError):
    """The server's share of some work is taken for longer than a request should wait."""

    code = "busy"
