"""What a final run trains: the winning trial's config, scaled to more workers.

Bundled trainers keep each worker's share of the sweep's global batch, so the global batch grows
with the number of workers; the kit then scales the LR from the sweep's global batch by the
promotion's rule (none | linear | sqrt) and warms it up. User code gets the trial's config as it
was (the contract has no batch keys to scale).
"""

from __future__ import annotations

import math
from typing import Any

from raysweep.promotion_spec import Promotion
from raysweep.spec import ExperimentSpec
from trainers.registry import TRAINERS


def final_epochs(spec: ExperimentSpec, promotion: Promotion) -> int:
    if promotion.epochs is not None:
        return promotion.epochs
    return max(1, math.ceil(spec.early_stopping.max_t * promotion.max_t_multiple))


def sweep_global_batch(config: dict[str, Any], sweep_workers: int) -> tuple[int, int]:
    """(micro-batch per worker, global batch per optimizer step) of a trial's config."""
    per_worker = config.get("batch_size_per_worker")
    micro = int(per_worker) * sweep_workers if per_worker else int(config["batch_size"])
    accum = int(config.get("grad_accum_steps") or 1)
    return max(1, micro // sweep_workers), micro * accum


def final_config(spec: ExperimentSpec, trial_config: dict[str, Any], promotion: Promotion) -> dict:
    """The config a final run's workers get (the kit adds epochs and the seed)."""
    if spec.trainer is None:
        return dict(trial_config)
    config = {**TRAINERS[spec.trainer].defaults, **trial_config}
    per_worker, global_batch = sweep_global_batch(config, spec.resources.max_workers)
    config.pop("batch_size", None)
    if promotion.precision is not None:
        config["precision"] = promotion.precision
    return {
        **config,
        "batch_size_per_worker": per_worker,
        "lr_scaling": promotion.lr_scaling,
        "lr_reference_batch": global_batch,
        "warmup_epochs": max(float(config.get("warmup_epochs") or 0.0), promotion.warmup_epochs),
    }
