"""What the API serves of a trial's logs (``GET /api/v1/trials/{id}/logs``)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class LogLine(BaseModel):
    attempt: int = Field(
        description="The worker group's attempt, 1 first (a restart, a promotion-ASHA segment "
        "or a yield starts one)."
    )
    rank: int = Field(description="The worker's rank in its group.")
    stream: str = Field(description="`stdout` or `stderr`.")
    time: float = Field(description="When the worker wrote it (Unix seconds).")
    seq: int = Field(description="Its place in its worker's output of that attempt, 1 first.")
    text: str = Field(description="The line, secrets (tokens, database URLs) replaced by `***`.")


class TrialLogs(BaseModel):
    lines: list[LogLine] = Field(description="Oldest first.")
    cursor: str = Field(description="Pass back as `after` to get only newer lines.")
    more: bool = Field(description="More lines are waiting: ask again at once.")
    attempts: list[int] = Field(description="The attempts there are logs of.")
    ranks: list[int] = Field(description="The ranks there are logs of (in the chosen attempts).")
    dropped: int = Field(
        description="Lines of the chosen streams not kept (past the head, before the latest "
        "lines: RAYSWEEP_TRIAL_LOG_MAX_BYTES)."
    )
    running: bool = Field(description="The trial may still write more.")
