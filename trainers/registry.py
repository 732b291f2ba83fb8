"""Trainer registry: name -> training loop location and metadata.

Only metadata lives here, so the server can validate specs without importing torch; the loop is
imported by ``load_loop`` on the workers.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Mode = Literal["min", "max"]


@dataclass(frozen=True)
class TrainerInfo:
    name: str
    loop: str  # "module:function", imported on the workers only
    description: str
    metrics: Mapping[str, Mode]
    hyperparameters: frozenset[str]
    default_search_space: str
    time_attr: str = "epoch"
    defaults: Mapping[str, Any] = field(default_factory=dict)

    def reports(self, metric: str) -> bool:
        return metric in self.metrics


_COMMON_METRICS: dict[str, Mode] = {
    "epoch": "max",
    "train_loss": "min",
    "val_loss": "min",
    "samples_per_second": "max",
}

TRAINERS: dict[str, TrainerInfo] = {
    info.name: info
    for info in (
        TrainerInfo(
            name="digits_mlp",
            loop="trainers.digits_mlp:train_loop_per_worker",
            description="MLP classifier on scikit-learn's bundled 8x8 digits.",
            metrics={**_COMMON_METRICS, "val_accuracy": "max"},
            hyperparameters=frozenset(
                {
                    "lr",
                    "hidden",
                    "depth",
                    "dropout",
                    "weight_decay",
                    "batch_size",
                    "optimizer",
                    "seed",
                }
            ),
            default_search_space="digits_mlp",
            defaults={
                "lr": 1e-2,
                "hidden": 64,
                "depth": 2,
                "dropout": 0.0,
                "weight_decay": 0.0,
                "batch_size": 64,
                "optimizer": "adam",
                "seed": 0,
            },
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


def load_loop(info: TrainerInfo) -> Callable[[dict[str, Any]], None]:
    module_name, _, function_name = info.loop.partition(":")
    loop: Callable[[dict[str, Any]], None] = getattr(
        importlib.import_module(module_name), function_name
    )
    return loop
