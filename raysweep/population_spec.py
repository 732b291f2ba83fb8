"""Population-based training's block of a spec (``early_stopping.pbt``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictFloat, StrictInt

from raysweep.strict import StrictModel


class PopulationConfig(StrictModel):
    """Population-based training (``early_stopping.scheduler: pbt``), as Ray Tune's PBT with
    ``synch=True``: the population (``search.num_samples`` trials, sampled by
    ``search.algorithm``) trains in steps of ``perturbation_interval`` epochs; when every live
    trial has reached a step, the worst ``quantile_fraction`` of them each copy the latest
    checkpoint (model and optimizer state, every DDP rank's files) and the config of a trial
    drawn from the best ``quantile_fraction``, then perturb the ``mutate`` parameters."""

    perturbation_interval: StrictInt = Field(
        default=2, ge=1, le=100_000, description="Epochs between exploit steps (< max_t)."
    )
    quantile_fraction: StrictFloat = Field(
        default=0.25,
        gt=0,
        le=0.5,
        description="The share of the population that exploits (the worst) and that is "
        "copied from (the best); at least one trial each.",
    )
    resample_probability: StrictFloat = Field(
        default=0.25,
        ge=0,
        le=1,
        description="The chance a mutated parameter is sampled anew from the search space "
        "instead of perturbed (a number x0.8 or x1.2 within its bounds, a choice moved to a "
        "neighbouring value).",
    )
    mutate: list[Annotated[str, Field(min_length=1, max_length=128)]] | None = Field(
        default=None,
        max_length=64,
        description="The parameters an exploit perturbs; default every numeric and choice "
        "parameter of the space except those a bundled trainer's model or optimizer state "
        "depends on (its shape: a copied checkpoint would not load). The others are copied "
        "from the trial exploited.",
    )
