"""digits_mlp: an MLP classifier on scikit-learn's bundled 8x8 digits (no download).

Hyperparameters: lr, hidden, depth, dropout, weight_decay, batch_size (global), optimizer
(sgd | adam), seed. Reports per epoch: epoch, train_loss, val_loss, val_accuracy,
samples_per_second (all workers together). Validation is exact over the whole validation split.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
import ray.train.torch
import torch
from sklearn.datasets import load_digits
from torch import nn

from trainers import kit

NUM_FEATURES = 64
NUM_CLASSES = 10
SPLIT_SEED = 20240501
OPTIMIZERS = ("sgd", "adam")


@cache
def splits() -> dict[str, tuple[torch.Tensor, torch.Tensor]]:
    """Fixed, seeded 70/15/15 train/validation/test split; the test split is never swept on."""
    x, y = load_digits(return_X_y=True)
    order = np.random.default_rng(SPLIT_SEED).permutation(len(y))
    x = torch.tensor(x[order] / 16.0, dtype=torch.float32)
    y = torch.tensor(y[order], dtype=torch.long)
    n_train, n_val = int(0.7 * len(y)), int(0.15 * len(y))
    return {
        "train": (x[:n_train], y[:n_train]),
        "val": (x[n_train : n_train + n_val], y[n_train : n_train + n_val]),
        "test": (x[n_train + n_val :], y[n_train + n_val :]),
    }


def build_model(hidden: int, depth: int, dropout: float) -> nn.Module:
    layers: list[nn.Module] = []
    width = NUM_FEATURES
    for _ in range(depth):
        layers += [nn.Linear(width, hidden), nn.ReLU(), nn.Dropout(dropout)]
        width = hidden
    layers.append(nn.Linear(width, NUM_CLASSES))
    return nn.Sequential(*layers)


def build_optimizer(
    name: str, params: Any, lr: float, weight_decay: float
) -> torch.optim.Optimizer:
    if name == "sgd":
        return torch.optim.SGD(params, lr=lr, momentum=0.9, weight_decay=weight_decay)
    if name == "adam":
        return torch.optim.Adam(params, lr=lr, weight_decay=weight_decay)
    raise ValueError(f"optimizer must be one of {', '.join(OPTIMIZERS)}; got {name!r}")


def evaluate(
    model: nn.Module, x: torch.Tensor, y: torch.Tensor, device: torch.device
) -> tuple[float, float]:
    """(mean loss, accuracy) over the whole split: each rank scores its shard, sums are reduced."""
    model.eval()
    indices = kit.shard_indices(len(y))
    with torch.no_grad():
        logits = model(x[indices].to(device))
        targets = y[indices].to(device)
        loss_sum = nn.functional.cross_entropy(logits, targets, reduction="sum").item()
        correct = (logits.argmax(dim=1) == targets).sum().item()
    total_loss, total_correct, count = kit.all_reduce_sum([loss_sum, correct, len(indices)])
    return total_loss / count, total_correct / count


def train_loop_per_worker(config: dict[str, Any]) -> None:
    settings = kit.RunSettings.from_config(config)
    kit.seed_everything(settings.seed)
    device = ray.train.torch.get_device()
    data = splits()
    x_train, y_train = data["train"]
    x_val, y_val = data["val"]

    model = build_model(int(config["hidden"]), int(config["depth"]), float(config["dropout"]))
    optimizer = build_optimizer(
        str(config["optimizer"]),
        model.parameters(),
        float(config["lr"]),
        float(config["weight_decay"]),
    )
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=settings.epochs)
    start_epoch = 1
    state = kit.load_checkpoint(config)
    if state is not None:
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        start_epoch = int(state["epoch"]) + 1
    model = ray.train.torch.prepare_model(model)
    batch_size = int(config["batch_size"])

    for epoch in range(start_epoch, settings.epochs + 1):
        model.train()
        loss_sum, steps = 0.0, 0
        with kit.EpochTimer() as timer:
            for batch in kit.global_batches(len(y_train), batch_size, settings.seed, epoch):
                optimizer.zero_grad()
                loss = nn.functional.cross_entropy(
                    model(x_train[batch].to(device)), y_train[batch].to(device)
                )
                loss.backward()
                optimizer.step()
                loss_sum += loss.item()
                steps += 1
        scheduler.step()
        train_loss = kit.all_reduce_sum([loss_sum / max(steps, 1)])[0] / kit.world()[1]
        if not math.isfinite(train_loss):
            raise FloatingPointError(
                f"training diverged: train_loss is {train_loss} at epoch {epoch}"
            )
        val_loss, val_accuracy = evaluate(model, x_val, y_val, device)
        samples = steps * batch_size
        kit.report(
            {
                "epoch": epoch,
                "train_loss": train_loss,
                "val_loss": val_loss,
                "val_accuracy": val_accuracy,
                "samples_per_second": samples / max(timer.seconds, 1e-9),
            },
            epoch=epoch,
            settings=settings,
            state={
                "model": kit.unwrap(model).state_dict(),
                "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(),
                "config": dict(config),
            },
        )
