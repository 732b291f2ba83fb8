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
from trainers.practices import Task, mlp_layers

NUM_FEATURES = 64


def build_model(hidden: int, depth: int, dropout: float) -> nn.Module:
    return nn.Sequential(*mlp_layers(NUM_FEATURES, hidden, depth, dropout, digits.NUM_CLASSES))


def build_task(config: Mapping[str, Any]) -> Task:
    model = build_model(int(config["hidden"]), int(config["depth"]), float(config["dropout"]))
    return digits.task(model, config)
