"""Trainer registry: name -> task location and metadata.

Only metadata lives here, so the server can validate specs without importing torch; the task is
imported by the kit's training loop on the workers.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

Mode = Literal["min", "max"]
Precision = Literal["fp32", "bf16", "fp16"]
LrSchedule = Literal["cosine", "step", "constant"]
LrScaling = Literal["none", "linear", "sqrt"]
# the kit's keys that take one of a few names; checked at submit and again on the workers
KIT_CHOICES: dict[str, tuple[str, ...]] = {
    "precision": get_args(Precision),
    "lr_schedule": get_args(LrSchedule),
    "lr_scaling": get_args(LrScaling),
}

KIT_LOOP = "trainers.kit:train_loop_per_worker"
TASK_KEY = "raysweep_task"  # train config key telling the kit's loop which task to build
# in a run's train config when it may yield its workers to another project (a promotion-ASHA
# segment under fair share): the gate actor's name and namespace and the run's lease key, which
# rank 0 of the kit's loop asks at every checkpoint (the gate's ``yield_now``)
YIELD_VIA_KEY = "raysweep_yield_via"
# reported (1.0) with the checkpoint at which the kit's loop stopped to yield its workers
YIELDED_KEY = "raysweep_yielded"
# in a Train run's directory on storage, beside its checkpoints: the TensorBoard event files of
# its reported metrics (trainers.tensorboard writes them; ``raysweep tensorboard`` opens them)
TENSORBOARD_DIR = "tensorboard"
# in a kit checkpoint, beside its state: the reports of the epochs since the previous checkpoint,
# which carried none. A report reaches Ray Train before the sweep's driver stores it; when the
# driver dies (or the sweep pauses) in between, the next driver reads the reports back from the
# checkpoints (here, not in the kit, so the driver reads the name without importing torch)
REPORTS_FILE = "reports.json"

# what the kit's loop reports for every trainer (allreduce_share only with >= 2 workers)
KIT_METRICS: dict[str, Mode] = {
    "epoch": "max",
    "train_loss": "min",
    "samples_per_second": "max",
    "samples_per_second_per_worker": "max",
    "allreduce_share": "min",
    "lr": "max",
    "model_params": "min",
}
# the kit's config keys (trainers.practices.KIT_DEFAULTS); a search space may tune any of them
KIT_HYPERPARAMETERS = frozenset(
    {
        "seed",
        "batch_size",
        "batch_size_per_worker",
        "grad_accum_steps",
        "grad_clip_norm",
        "precision",
        "lr_schedule",
        "warmup_epochs",
        "lr_step_epochs",
        "lr_step_gamma",
        "lr_scaling",
        "lr_reference_batch",
        "ddp_bucket_cap_mb",
        "gradient_as_bucket_view",
        "pin_memory",
    }
)


@dataclass(frozen=True)
class TrainerInfo:
    name: str
    task: str  # "module:build_task", imported on the workers only
    description: str
    metrics: Mapping[str, Mode]
    hyperparameters: frozenset[str]
    default_search_space: str
    time_attr: str = "epoch"
    defaults: Mapping[str, Any] = field(default_factory=dict)
    # the config keys the model's shape or its optimizer's state depends on: population-based
    # training copies a checkpoint between trials and never perturbs these by default
    model_keys: frozenset[str] = frozenset()

    def reports(self, metric: str) -> bool:
        return metric in self.metrics

    def accepts(self, hyperparameter: str) -> bool:
        return hyperparameter in self.hyperparameters or hyperparameter in KIT_HYPERPARAMETERS


# the kit's keys a checkpoint's state depends on: the optimizer's kind (its state's shape) and
# the precision (the grad scaler's)
KIT_MODEL_KEYS = frozenset({"optimizer", "precision"})


def _bundled(
    name: str,
    description: str,
    metrics: dict[str, Mode],
    defaults: dict[str, Any],
    model_keys: frozenset[str],
) -> TrainerInfo:
    """A trainer module ``trainers.<name>`` with ``build_task``, run by the kit's loop; every key
    of ``defaults`` is a hyperparameter; ``model_keys`` shape its model."""
    return TrainerInfo(
        name=name,
        task=f"trainers.{name}:build_task",
        description=description,
        metrics={**KIT_METRICS, **metrics},
        hyperparameters=frozenset(defaults),
        default_search_space=name,
        defaults={"seed": 0, "batch_size": 64, **defaults},
        model_keys=model_keys | KIT_MODEL_KEYS,
    )


_CLASSIFIER: dict[str, Mode] = {"val_loss": "min", "val_accuracy": "max"}
_LM: dict[str, Mode] = {"val_loss": "min", "val_perplexity": "min"}
_REGRESSOR: dict[str, Mode] = {"val_loss": "min", "val_rmse": "min", "val_mae": "min"}
_MLP = {"lr": 1e-2, "hidden": 64, "depth": 2, "dropout": 0.0, "weight_decay": 0.0}

TRAINERS: dict[str, TrainerInfo] = {
    info.name: info
    for info in (
        _bundled(
            "digits_mlp",
            "MLP classifier on scikit-learn's bundled 8x8 digits.",
            _CLASSIFIER,
            {**_MLP, "optimizer": "adam"},
            frozenset({"hidden", "depth"}),
        ),
        _bundled(
            "digits_cnn",
            "Small CNN classifier on scikit-learn's bundled 8x8 digits.",
            _CLASSIFIER,
            {
                "lr": 3e-3,
                "channels": 16,
                "hidden": 64,
                "dropout": 0.0,
                "weight_decay": 0.0,
                "optimizer": "adam",
            },
            frozenset({"channels", "hidden"}),
        ),
        _bundled(
            "tiny_lm",
            "Small causal transformer language model on a generated character corpus.",
            _LM,
            {
                "lr": 3e-3,
                "d_model": 64,
                "layers": 2,
                "heads": 4,
                "dropout": 0.0,
                "weight_decay": 0.01,
                "optimizer": "adamw",
                "batch_size": 32,
            },
            frozenset({"d_model", "layers", "heads"}),
        ),
        _bundled(
            "diabetes_regression",
            "MLP regressor on scikit-learn's bundled diabetes data; minimise val_rmse.",
            _REGRESSOR,
            {**_MLP, "optimizer": "adam", "batch_size": 32},
            frozenset({"hidden", "depth"}),
        ),
    )
}


class UnknownTrainer(KeyError):
    pass


def get_trainer(name: str) -> TrainerInfo:
    try:
        return TRAINERS[name]
    except KeyError:
        raise UnknownTrainer(name) from None


def load_reference(reference: str) -> Callable[..., Any]:
    """The function ``module:function`` names, imported; only ever called on Ray workers, never
    in the server process."""
    module_name, _, function_name = reference.partition(":")
    function: Callable[..., Any] = getattr(importlib.import_module(module_name), function_name)
    return function
