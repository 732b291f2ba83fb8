"""scikit-learn's bundled 8x8 digit images (no download), split once for every digits trainer."""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from trainers.practices import Split, Task, task_from_config

NUM_CLASSES = 10
SPLIT_SEED = 20240501


def load_digits() -> tuple[np.ndarray, np.ndarray]:
    """(pixels, labels) as ``sklearn.datasets.load_digits(return_X_y=True)`` gives them, read
    from the file scikit-learn ships without importing scikit-learn: importing it costs every
    Train worker about a second of CPU, and a trial starts one worker per rank."""
    found = importlib.util.find_spec("sklearn")  # locates the package, imports nothing
    if found is None or found.origin is None:
        raise ModuleNotFoundError("scikit-learn (which ships the digits data) is not installed")
    data = np.loadtxt(
        Path(found.origin).parent / "datasets" / "data" / "digits.csv.gz", delimiter=","
    )
    return data[:, :-1], data[:, -1].astype(int)


@cache
def splits() -> dict[str, Split]:
    """Fixed, seeded 70/15/15 train/validation/test split; the test split is never swept on.
    Inputs are (N, 64) pixel intensities in [0, 1]."""
    x, y = load_digits()
    order = np.random.default_rng(SPLIT_SEED).permutation(len(y))
    inputs = torch.tensor(x[order] / 16.0, dtype=torch.float32)
    targets = torch.tensor(y[order], dtype=torch.long)
    n_train, n_val = int(0.7 * len(y)), int(0.15 * len(y))
    return {
        "train": Split(inputs[:n_train], targets[:n_train]),
        "val": Split(inputs[n_train : n_train + n_val], targets[n_train : n_train + n_val]),
        "test": Split(inputs[n_train + n_val :], targets[n_train + n_val :]),
    }


def loss(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return nn.functional.cross_entropy(logits.float(), targets)


def sums(logits: torch.Tensor, targets: torch.Tensor) -> dict[str, float]:
    logits = logits.float()
    return {
        "loss": nn.functional.cross_entropy(logits, targets, reduction="sum").item(),
        "correct": (logits.argmax(dim=1) == targets).sum().item(),
        "count": float(len(targets)),
    }


def metrics(totals: Mapping[str, float]) -> dict[str, float]:
    count = max(totals["count"], 1.0)
    return {"loss": totals["loss"] / count, "accuracy": totals["correct"] / count}


def task(model: nn.Module, config: Mapping[str, Any]) -> Task:
    """A digits classification task for ``model`` (inputs: 64 pixel intensities)."""
    return task_from_config(model, splits(), loss, sums, metrics, config)
