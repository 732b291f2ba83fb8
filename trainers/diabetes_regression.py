"""diabetes_regression: an MLP regressor on scikit-learn's bundled diabetes data (442 patients,
10 features, no download); the metric to minimise is validation RMSE in the target's units.

Features and target are standardised with the training split's statistics; ``train_loss`` and
``val_loss`` are MSE on the standardised target, ``val_rmse`` and ``val_mae`` are in disease-
progression units. Hyperparameters: lr, hidden, depth, dropout, weight_decay, optimizer, and the
kit's keys (see trainers/README.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np
import torch
from sklearn.datasets import load_diabetes
from torch import nn

from trainers.practices import Split, Task, mlp_layers, task_from_config

SPLIT_SEED = 20240502
NUM_FEATURES = 10


@cache
def prepared() -> tuple[dict[str, Split], float]:
    """Seeded 70/15/15 train/validation/test split, standardised on train; and the target's
    training standard deviation (to report errors in the target's units)."""
    x, y = load_diabetes(return_X_y=True)
    order = np.random.default_rng(SPLIT_SEED).permutation(len(y))
    x, y = x[order], y[order]
    n_train, n_val = int(0.7 * len(y)), int(0.15 * len(y))
    x_mean, x_std = x[:n_train].mean(axis=0), x[:n_train].std(axis=0)
    y_mean, y_std = float(y[:n_train].mean()), float(y[:n_train].std())
    inputs = torch.tensor((x - x_mean) / x_std, dtype=torch.float32)
    targets = torch.tensor((y - y_mean) / y_std, dtype=torch.float32)
    bounds = {
        "train": (0, n_train),
        "val": (n_train, n_train + n_val),
        "test": (n_train + n_val, None),
    }
    return {
        name: Split(inputs[start:end], targets[start:end]) for name, (start, end) in bounds.items()
    }, y_std


def splits() -> dict[str, Split]:
    return prepared()[0]


def build_model(hidden: int, depth: int, dropout: float) -> nn.Module:
    return nn.Sequential(*mlp_layers(NUM_FEATURES, hidden, depth, dropout, 1), nn.Flatten(0))


def loss(predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return nn.functional.mse_loss(predictions.float(), targets)


def sums(predictions: torch.Tensor, targets: torch.Tensor) -> dict[str, float]:
    errors = predictions.float() - targets
    return {
        "squared": float((errors**2).sum()),
        "absolute": float(errors.abs().sum()),
        "count": float(len(targets)),
    }


def metrics(totals: Mapping[str, float]) -> dict[str, float]:
    count, y_std = max(totals["count"], 1.0), prepared()[1]
    mse = totals["squared"] / count
    return {"loss": mse, "rmse": math.sqrt(mse) * y_std, "mae": totals["absolute"] / count * y_std}


def build_task(config: Mapping[str, Any]) -> Task:
    model = build_model(int(config["hidden"]), int(config["depth"]), float(config["dropout"]))
    return task_from_config(model, splits(), loss, sums, metrics, config)
