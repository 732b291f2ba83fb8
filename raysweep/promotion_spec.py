"""A spec's ``promotion`` block: training a sweep's top trials again, bigger, as registered model
versions (and the overrides a promotion request may give)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool, StrictFloat, StrictInt

from raysweep.compute import FinalRunResources
from raysweep.names import NAME_PATTERN
from raysweep.strict import StrictModel


class Pick(StrictModel):
    """Which trials of the Pareto front to promote: those within the bounds, best first by
    one objective."""

    objective: str = Field(min_length=1, max_length=128, description="The objective to rank by.")
    max: dict[Annotated[str, Field(min_length=1, max_length=128)], StrictFloat | StrictInt] = Field(
        default_factory=dict, max_length=8, description="Upper bounds on objectives."
    )
    min: dict[Annotated[str, Field(min_length=1, max_length=128)], StrictFloat | StrictInt] = Field(
        default_factory=dict, max_length=8, description="Lower bounds on objectives."
    )


class PromotionOverrides(FinalRunResources):
    """What ``POST /experiments/{id}/promote`` may change from the spec's ``promotion``, and
    which trials it promotes (default: the top_k completed feasible trials by the metric; with
    ``objectives``, the Pareto front's by the first objective)."""

    trial_ids: list[StrictInt] | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="Promote these trials (completed and feasible, of this sweep) instead, "
        "by id (as the API's trial reads key them).",
    )
    trial_numbers: list[StrictInt] | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="Promote these trials instead, by their number in the sweep (`#3` in the "
        "web UI and the CLI's tables); give trial_ids, trial_numbers or pick, one at most.",
    )
    pick: Pick | None = Field(
        default=None,
        description="Promote the top_k trials of the Pareto front that keep `max`/`min`, best "
        "first by `objective`; e.g. {objective: val_loss, max: {latency_ms: 20}}.",
    )

    top_k: StrictInt | None = Field(default=None, ge=1, le=100)
    num_workers: StrictInt | None = Field(default=None, ge=1, le=4096)
    epochs: StrictInt | None = Field(default=None, ge=1, le=100_000)
    lr_scaling: Literal["none", "linear", "sqrt"] | None = None
    warm_start: StrictBool | None = None
    model_name: str | None = Field(default=None, pattern=NAME_PATTERN)
    cluster: str | None = Field(default=None, pattern=NAME_PATTERN)


class Promotion(FinalRunResources):
    """Training the sweep's top trials again, bigger (more workers, other resources), as
    registered model versions."""

    auto: StrictBool = Field(default=False, description="Promote when the sweep completes.")
    top_k: StrictInt = Field(default=1, ge=1, le=100, description="Trials promoted, best first.")
    num_workers: StrictInt = Field(default=4, ge=1, le=4096, description="Workers of a final run.")
    epochs: StrictInt | None = Field(
        default=None, ge=1, le=100_000, description="Final budget; default: max_t_multiple x max_t."
    )
    max_t_multiple: StrictFloat = Field(default=1.0, gt=0, le=1000)
    lr_scaling: Literal["none", "linear", "sqrt"] = Field(
        default="sqrt",
        description="Bundled trainers keep each worker's batch, so the global batch grows with "
        "the workers; the LR follows it by this rule, after a warmup.",
    )
    warmup_epochs: StrictFloat = Field(
        default=1.0, ge=0, le=100_000, description="LR warmup of a final run."
    )
    warm_start: StrictBool = Field(
        default=False, description="Start from the trial's best checkpoint's weights."
    )
    model_name: str | None = Field(
        default=None, pattern=NAME_PATTERN, description="Registry name; default: the experiment's."
    )
    cluster: str | None = Field(
        default=None,
        pattern=NAME_PATTERN,
        description="The final cluster record (GET /api/v1/clusters); default: the first with "
        "the final role.",
    )

    def with_overrides(self, overrides: PromotionOverrides) -> Promotion:
        update = overrides.model_dump(
            exclude_none=True, exclude={"trial_ids", "trial_numbers", "pick"}
        )
        # the override's GPU wish wins over the spec's: GPUs asked for mean use_gpu, and
        # use_gpu: false drops the spec's GPUs
        if update.get("gpus_per_worker", 0) > 0:
            update.setdefault("use_gpu", True)
        if update.get("use_gpu") is False:
            update["gpus_per_worker"] = None
        return self.model_copy(update=update)
