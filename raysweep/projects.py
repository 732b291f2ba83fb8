"""Projects and the compute ledger, as the API reads and writes them."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt

from raysweep.names import PROJECT_PATTERN
from raysweep.strict import StrictModel

LIMIT_DESCRIPTION = "null: no limit"


class ProjectSettings(StrictModel):
    """What an admin sets on a project: its weight and limits (null: none)."""

    description: str | None = Field(default=None, max_length=10_000, pattern=r"^[^\x00]*$")
    weight: StrictFloat = Field(
        default=1.0,
        gt=0,
        le=1000,
        description="Its share of a contested cluster, relative to the other projects' weights.",
    )
    max_workers: StrictInt | None = Field(
        default=None, ge=1, le=100_000, description=f"Train workers at once; {LIMIT_DESCRIPTION}."
    )
    max_cpus: StrictFloat | None = Field(
        default=None,
        gt=0,
        le=10**6,
        description=f"CPUs its workers hold at once; {LIMIT_DESCRIPTION}.",
    )
    max_gpus: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=10**5,
        description=f"GPUs its workers hold at once; {LIMIT_DESCRIPTION}.",
    )
    max_queued: StrictInt | None = Field(
        default=None, ge=0, le=100_000, description=f"Sweeps queued at once; {LIMIT_DESCRIPTION}."
    )
    monthly_worker_hours: StrictFloat | None = Field(
        default=None,
        gt=0,
        le=10**8,
        description="New sweeps are refused once its worker-hours this (UTC) month reach it.",
    )
    monthly_gpu_hours: StrictFloat | None = Field(
        default=None,
        gt=0,
        le=10**8,
        description="New sweeps are refused once its GPU-hours this (UTC) month reach it.",
    )


class ProjectCreate(ProjectSettings):
    name: str = Field(pattern=PROJECT_PATTERN)


class ProjectUpdate(ProjectSettings):
    """The fields named are set; the others keep their values."""

    weight: StrictFloat = Field(default=1.0, gt=0, le=1000)


class Usage(BaseModel):
    """Compute held: workers, and the CPUs and GPUs they reserved, times the seconds held."""

    worker_seconds: float = 0.0
    cpu_seconds: float = 0.0
    gpu_seconds: float = 0.0


class ProjectRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    name: str
    description: str | None
    weight: float
    max_workers: int | None
    max_cpus: float | None
    max_gpus: float | None
    max_queued: int | None
    monthly_worker_hours: float | None
    monthly_gpu_hours: float | None
    created_at: datetime
    usage_this_month: Usage = Field(description="Held since the first of this UTC month.")


class UsageRead(BaseModel):
    start: datetime
    end: datetime
    total: Usage
    by_project: dict[str, Usage]
    by_experiment: dict[str, Usage] = Field(
        description="Per sweep (its final runs count towards it)."
    )
    by_day: dict[str, Usage] = Field(description="Per UTC day, `YYYY-MM-DD`.")
    by_trial: dict[str, Usage] = Field(
        default_factory=dict, description="Per trial id (a final run's counts in no trial's)."
    )
