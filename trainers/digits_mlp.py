"""digits_mlp: an MLP classifier on scikit-learn's bundled 8x8 digits (no download).

Hyperparameters: lr, hidden, depth, dropout, weight_decay, optimizer (sgd | adam | adamw), and
the kit's keys (batch_size, seed, precision, grad_accum_steps, ...; see trainers/README.md).
Reports per epoch: epoch, train_loss, val_loss, val_accuracy, lr and throughput.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from torch import nn

from trainers import digits
from trainers.practices import Task, build_optimizer

NUM_FEATURES = 64


def build_model(hidden: int, depth: int, dropout: float) -> nn.Module:
    layers: list[nn.Module] = []
    width = NUM_FEATURES
    for _ in range(depth):
        layers += [nn.Linear(width, hidden), nn.ReLU(), nn.Dropout(dropout)]
        width = hidden
    layers.append(nn.Linear(width, digits.NUM_CLASSES))
    return nn.Sequential(*layers)


def build_task(config: Mapping[str, Any]) -> Task:
    optimizer, weight_decay = str(config["optimizer"]), float(config["weight_decay"])
    return Task(
        model=build_model(int(config["hidden"]), int(config["depth"]), float(config["dropout"])),
        splits=digits.splits(),
        loss=digits.loss,
        sums=digits.sums,
        metrics=digits.metrics,
        base_lr=float(config["lr"]),
        make_optimizer=lambda params, lr: build_optimizer(optimizer, params, lr, weight_decay),
    )
