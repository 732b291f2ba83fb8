"""What the SDK raises, and the one shape of every 4xx the API answers with. Every error
carries the server's message and per-field details."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Problem(BaseModel):
    """One thing wrong with a request, located by a dotted path (``search.num_samples``)."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


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


class SpecError(RaysweepError, ValueError):
    """A spec with problems, found here or by the server (``status`` 422), or another request
    the server found invalid (a promotion, an extension, a schedule: ``title`` then says which,
    in the server's words); ``problems`` lists every one of them."""

    def __init__(
        self, problems: list[Problem], status: int | None = None, title: str = "invalid spec"
    ):
        message = f"{title}:\n" + "\n".join(f"  {p}" for p in problems)
        super().__init__(message, status=status, code="validation_error", details=problems)
        self.problems = problems

    def __str__(self) -> str:
        return self.message


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


class SubmitNote(UserWarning):
    """What a submitted sweep gives up as asked (the submit answer's ``notes``), e.g. code that
    saves no checkpoints; shown once per submit."""


class ErrorBody(BaseModel):
    """The one shape of every 4xx: a code, a message and per-field details."""

    code: str
    message: str
    details: list[Problem] = Field(default_factory=list)


class ErrorResponse(BaseModel):
    error: ErrorBody
