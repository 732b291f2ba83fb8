"""The bundled trainers' small, deterministic configurations for the 1-vs-2-worker and resume
checks, on gloo (tests/trainers/test_distributed.py) and on Ray Train
(tests/engine/test_trainer.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from trainers.registry import TASK_KEY, TRAINERS

# no dropout for the 1-vs-2 comparison; warmup, clipping and a step schedule so the resume must
# restore the LR schedule too
KIT = {"seed": 3, "warmup_epochs": 0.5, "grad_clip_norm": 1.0, "checkpoint_frequency": 1}
CASES: dict[str, dict[str, Any]] = {
    "digits_mlp": {"hidden": 32, "lr": 0.01},
    "digits_cnn": {"channels": 8, "hidden": 32, "lr": 0.005, "lr_schedule": "step"},
    "tiny_lm": {"d_model": 32, "layers": 1, "heads": 2, "batch_size": 64},
    "diabetes_regression": {"hidden": 32, "lr": 0.01, "batch_size": 32},
}
# what each trainer reports besides the kit's metrics, and the figure that proves it learns
LEARNS: dict[str, tuple[str, Callable[[float], bool]]] = {
    "digits_mlp": ("val_accuracy", lambda v: v > 0.6),  # chance is 0.1
    "digits_cnn": ("val_accuracy", lambda v: v > 0.3),
    "tiny_lm": ("val_perplexity", lambda v: v < 12),  # a unigram model scores ~17
    "diabetes_regression": ("val_rmse", lambda v: v < 75),  # predicting the mean scores ~77
}


def train_config(trainer: str, **changes: Any) -> dict[str, Any]:
    info = TRAINERS[trainer]
    return {**info.defaults, TASK_KEY: info.task, **KIT, **CASES[trainer], **changes}


def check_one_vs_two_workers(
    trainer: str, single: list[dict[str, Any]], double: list[dict[str, Any]]
) -> None:
    """Two workers split the global batch rather than multiply it: the same validation
    trajectory as one; and the trainer learns."""
    metric, learned = LEARNS[trainer]
    assert [r["epoch"] for r in single] == [r["epoch"] for r in double] == [1, 2]
    for one, two in zip(single, double, strict=True):
        assert two["val_loss"] == pytest.approx(one["val_loss"], rel=2e-3)
        assert two[metric] == pytest.approx(one[metric], rel=2e-2)
        assert two["samples_per_second"] > 0 and two["samples_per_second_per_worker"] > 0
        assert 0 <= two["allreduce_share"] < 1
        assert "allreduce_share" not in one or one["allreduce_share"] != one["allreduce_share"]
    assert learned(double[-1][metric]), double[-1]


def check_resumed(trainer: str, resumed: list[dict[str, Any]], full: list[dict[str, Any]]) -> None:
    """A run resumed from its epoch-1 checkpoint repeats the uninterrupted epoch 2 exactly
    (model, optimizer, schedule and RNG states all travel in the checkpoint)."""
    metric, _ = LEARNS[trainer]
    assert [r["epoch"] for r in resumed] == [2]
    for key in ("train_loss", "val_loss", metric, "lr"):
        assert resumed[0][key] == pytest.approx(full[1][key], rel=1e-5), key
