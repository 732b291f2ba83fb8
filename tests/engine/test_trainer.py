"""The bundled trainers alone on Ray Train: 2 epochs with 1 and with 2 workers follow the same
validation trajectory (the global batch is split, not multiplied), and a run resumed from its
epoch-1 checkpoint matches the uninterrupted run (model, optimizer, schedule and RNG states all
travel in the checkpoint)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray
from ray.train import CheckpointConfig, RunConfig, ScalingConfig
from ray.train.torch import TorchTrainer

from service.engine.cluster import RayConnection
from trainers.kit import train_loop_per_worker
from trainers.registry import TASK_KEY, TRAINERS

pytestmark = [pytest.mark.ray, pytest.mark.slow]

# small and deterministic (no dropout) for the 1-vs-2 comparison; warmup, clipping and a step
# schedule so the resume must restore the LR schedule too
KIT = {"seed": 3, "warmup_epochs": 0.5, "grad_clip_norm": 1.0, "checkpoint_frequency": 1}
CASES: dict[str, dict[str, Any]] = {
    "digits_mlp": {"hidden": 32, "lr": 0.01},
    "digits_cnn": {"channels": 8, "hidden": 32, "lr": 0.005, "lr_schedule": "step"},
    "tiny_lm": {"d_model": 32, "layers": 1, "heads": 2, "batch_size": 64},
    "diabetes_regression": {"hidden": 32, "lr": 0.01, "batch_size": 32},
}
# what each trainer reports besides the kit's metrics, and the figure that proves it learns
LEARNS = {
    "digits_mlp": ("val_accuracy", lambda v: v > 0.6),  # chance is 0.1
    "digits_cnn": ("val_accuracy", lambda v: v > 0.3),
    "tiny_lm": ("val_perplexity", lambda v: v < 12),  # a unigram model scores ~17
    "diabetes_regression": ("val_rmse", lambda v: v < 75),  # predicting the mean scores ~77
}


@pytest.fixture(scope="module")
def ray_driver(ray_cluster: RayConnection) -> Iterator[None]:
    ray.init(address=ray_cluster.gcs_address)
    yield
    ray.shutdown()


def fit(storage: Path, name: str, trainer: str, workers: int, **config: Any) -> Any:
    info = TRAINERS[trainer]
    return TorchTrainer(
        train_loop_per_worker,
        train_loop_config={**info.defaults, TASK_KEY: info.task, **KIT, **config},
        scaling_config=ScalingConfig(num_workers=workers, resources_per_worker={"CPU": 0.5}),
        run_config=RunConfig(
            name=name,
            storage_path=str(storage),
            checkpoint_config=CheckpointConfig(num_to_keep=None),
        ),
    ).fit()


def rows(result: Any) -> list[dict[str, Any]]:
    frame = result.metrics_dataframe.sort_values("epoch")
    return [dict(row) for _, row in frame.iterrows()]


@pytest.mark.parametrize("trainer", sorted(CASES))
def test_trainer_scales_to_two_workers_and_resumes_exactly(
    trainer: str, ray_driver: None, tmp_path: Path
) -> None:
    config = {**CASES[trainer], "epochs": 2}
    single = rows(fit(tmp_path, "one", trainer, 1, **config))
    double_result = fit(tmp_path, "two", trainer, 2, **config)
    double = rows(double_result)
    metric, learned = LEARNS[trainer]
    assert [r["epoch"] for r in single] == [r["epoch"] for r in double] == [1, 2]
    for one, two in zip(single, double, strict=True):
        assert two["val_loss"] == pytest.approx(one["val_loss"], rel=2e-3)
        assert two[metric] == pytest.approx(one[metric], rel=2e-2)
        assert two["samples_per_second"] > 0 and two["samples_per_second_per_worker"] > 0
        assert 0 <= two["allreduce_share"] < 1
        assert "allreduce_share" not in one or one["allreduce_share"] != one["allreduce_share"]
    assert learned(double[-1][metric]), double[-1]

    # resume the 2-worker run from its epoch-1 checkpoint: epoch 2 is the same epoch 2
    epoch_1 = next(c for c, m in double_result.best_checkpoints if m["epoch"] == 1)
    resumed = rows(fit(tmp_path, "resumed", trainer, 2, **config, resume_from=epoch_1.path))
    assert [r["epoch"] for r in resumed] == [2]
    for key in ("train_loss", "val_loss", metric, "lr"):
        assert resumed[0][key] == pytest.approx(double[1][key], rel=1e-5), key


def test_dropout_masks_resume_exactly_because_rng_states_travel(
    ray_driver: None, tmp_path: Path
) -> None:
    config = {**CASES["digits_mlp"], "dropout": 0.3, "epochs": 2}
    full = fit(tmp_path, "full", "digits_mlp", 2, **config)
    epoch_1 = next(c for c, m in full.best_checkpoints if m["epoch"] == 1)
    resumed = rows(fit(tmp_path, "resumed", "digits_mlp", 2, **config, resume_from=epoch_1.path))
    assert resumed[0]["train_loss"] == pytest.approx(rows(full)[1]["train_loss"], rel=1e-6)
