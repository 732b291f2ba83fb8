"""What a run computes on: a sweep trial's workers (``Resources``), a final run's own
per-worker resources and precision where they differ from its sweep's (``FinalRunResources``),
and the Ray clusters runs go to (``ClusterRead``)."""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import (
    BaseModel,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    field_validator,
    model_validator,
)

from raysweep.strict import StrictModel


class Resources(StrictModel):
    num_workers: StrictInt | tuple[StrictInt, StrictInt] = Field(
        default=2,
        description="Workers per trial; [min, max] makes the trial elastic: it starts with as "
        "many workers as are free, between the two, and never grows past that start.",
    )
    use_gpu: StrictBool = False
    cpus_per_worker: StrictFloat = Field(
        default=1.0,
        gt=0,
        le=1024,
        description="CPUs each Train worker holds. A trial's Tune function holds 0.01 CPU "
        "more; on a cluster whose CPUs are on one node that comes out of the workers' share "
        "(where each asks at least 0.02), so a trial holds num_workers times this in all.",
    )
    gpus_per_worker: StrictFloat = Field(default=0, ge=0, le=64)

    @field_validator("num_workers")
    @classmethod
    def _workers(cls, value: int | tuple[int, int]) -> int | tuple[int, int]:
        low, high = (value, value) if isinstance(value, int) else value
        if low < 1:
            raise ValueError("must be >= 1")
        if high < low:
            raise ValueError("[min, max] needs min <= max")
        if high > 4096:
            raise ValueError("must be <= 4096")
        return value

    @model_validator(mode="after")
    def _gpu_consistency(self) -> Resources:
        if self.gpus_per_worker > 0 and not self.use_gpu:
            raise ValueError("gpus_per_worker > 0 needs use_gpu: true")
        return self

    @property
    def max_workers(self) -> int:
        return self.num_workers if isinstance(self.num_workers, int) else self.num_workers[1]


Precision = Literal["fp32", "bf16", "fp16"]


class FinalRunResources(StrictModel):
    """Per-worker resources of a final run where they differ from the sweep's: "search small,
    train big" sweeps on CPUs and trains the winners on a GPU cluster. Unset: the sweep's."""

    use_gpu: StrictBool | None = Field(
        default=None, description="Default: the sweep's; a gpus_per_worker above 0 implies it."
    )
    cpus_per_worker: StrictFloat | None = Field(
        default=None, gt=0, le=1024, description="Default: the sweep's."
    )
    gpus_per_worker: StrictFloat | None = Field(
        default=None, ge=0, le=64, description="Default: the sweep's, or 1 when use_gpu is new."
    )
    precision: Precision | None = Field(
        default=None,
        description="Mixed precision of a bundled trainer's final run (bf16 or fp16 on GPUs); "
        "default: the trial's.",
    )

    @model_validator(mode="after")
    def _gpu_consistency(self) -> Self:
        if self.use_gpu is False and (self.gpus_per_worker or 0) > 0:
            raise ValueError("gpus_per_worker > 0 needs use_gpu: true (or leave use_gpu unset)")
        return self

    def final_resources(self, sweep: Resources) -> dict[str, Any]:
        """The final run's {use_gpu, cpus_per_worker, gpus_per_worker}: these over the sweep's."""
        gpus_asked = (self.gpus_per_worker or 0) > 0
        use_gpu = self.use_gpu if self.use_gpu is not None else sweep.use_gpu or gpus_asked
        if not use_gpu:
            gpus = 0.0
        elif self.gpus_per_worker is not None:
            gpus = self.gpus_per_worker
        else:
            gpus = sweep.gpus_per_worker if sweep.use_gpu else 1.0
        return {
            "use_gpu": use_gpu,
            "cpus_per_worker": self.cpus_per_worker or sweep.cpus_per_worker,
            "gpus_per_worker": gpus or (1.0 if use_gpu else 0.0),
        }


class ClusterRead(BaseModel):
    """A Ray cluster record (its token is never shown)."""

    name: str
    address: str = Field(description="Its Jobs API, or `this server's Ray` for the default.")
    role: str = Field(description="sweep, final or both.")
    max_concurrent_jobs: int
    authenticated: bool = Field(description="Whether a token is configured for it.")
    projects: list[str] = Field(
        default_factory=list,
        description="A cluster of these projects' own (those the caller has a role in; an "
        "admin sees all): as a sweep cluster their sweeps run there alone, as a final cluster "
        "their final runs and deployments may go there (and to no shared one), and no other "
        "project's do. Empty on a shared one.",
    )
