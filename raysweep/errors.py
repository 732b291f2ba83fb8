"""What the SDK raises. Every error carries the server's message and per-field details."""

from __future__ import annotations

from raysweep.spec import Problem


class RaysweepError(Exception):
    """The server refused a request (``status`` and ``code`` say why) or could not be used."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: str | None = None,
        details: list[Problem] | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.details = details or []

    def __str__(self) -> str:
        if not self.details:
            return self.message
        return self.message + "".join(f"\n  {problem}" for problem in self.details)


class AuthError(RaysweepError):
    """The token is missing, unknown or revoked (401), or its role may not do this (403)."""


class NotFound(RaysweepError):
    """No experiment or trial with that id."""


class Conflict(RaysweepError):
    """The request does not apply in the current state (e.g. cancelling a completed sweep)."""


class Unreachable(RaysweepError):
    """The server could not be reached (after retrying the calls that are safe to retry)."""


class WaitTimeout(TimeoutError):
    """``Experiment.wait`` ran out of time; the sweep goes on."""
