"""API schemas shared by the server, the SDK and the CLI (one definition each)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from raysweep.spec import Problem


class ExperimentState(StrEnum):
    queued = "queued"
    running = "running"
    pausing = "pausing"
    paused = "paused"
    cancelling = "cancelling"
    completed = "completed"
    failed = "failed"
    cancelled = "cancelled"

    @property
    def is_final(self) -> bool:
        return self in {
            ExperimentState.completed,
            ExperimentState.failed,
            ExperimentState.cancelled,
        }


class TrialState(StrEnum):
    pending = "pending"
    running = "running"
    completed = "completed"
    pruned = "pruned"
    failed = "failed"
    cancelled = "cancelled"

    @property
    def is_final(self) -> bool:
        return self not in {TrialState.pending, TrialState.running}


class Role(StrEnum):
    admin = "admin"
    member = "member"
    viewer = "viewer"


class ReadModel(BaseModel):
    model_config = ConfigDict(from_attributes=True)


class ExperimentCreated(ReadModel):
    id: str
    state: ExperimentState


class TrialSummary(ReadModel):
    id: int
    tune_trial_id: str
    state: TrialState
    config: dict[str, Any]
    iteration: int
    last_metric: float | None
    best_metric: float | None


class ExperimentRead(ReadModel):
    id: str
    name: str
    trainer: str
    metric: str
    mode: str
    state: ExperimentState
    spec: dict[str, Any]
    labels: dict[str, str]
    error: str | None
    driver_job_id: str | None
    driver_restarts: int
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    best_metric: float | None
    trial_counts: dict[str, int] = Field(
        default_factory=dict, description="Number of trials in each state."
    )
    best_trial: TrialSummary | None = None


class TrialRead(TrialSummary):
    experiment_id: str
    checkpoint_uri: str | None
    restarts: int
    error: str | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class ResultRead(ReadModel):
    iteration: int
    metrics: dict[str, Any]
    reported_at: datetime


class EventRead(ReadModel):
    id: int
    kind: str
    message: str
    trial_id: int | None
    data: dict[str, Any]
    created_at: datetime


T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    items: list[T]
    total: int
    limit: int
    offset: int


class TokenCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")
    role: Role = Role.member


class TokenRead(ReadModel):
    id: int
    name: str
    role: Role
    prefix: str
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None


class TokenCreated(TokenRead):
    token: str = Field(description="The secret; shown once, stored only as a hash.")


class ErrorBody(BaseModel):
    """The one shape of every 4xx: a code, a message and per-field details."""

    code: str
    message: str
    details: list[Problem] = Field(default_factory=list)


class ErrorResponse(BaseModel):
    error: ErrorBody
