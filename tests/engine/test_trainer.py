"""digits_mlp alone on Ray Train: DDP over 2 workers matches 1 worker; a resumed run matches an
uninterrupted one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray
from ray.train import CheckpointConfig, RunConfig, ScalingConfig
from ray.train.torch import TorchTrainer

from service.engine.cluster import RayConnection
from trainers.digits_mlp import train_loop_per_worker

pytestmark = [pytest.mark.ray, pytest.mark.slow]

CONFIG = {
    "lr": 0.01,
    "hidden": 32,
    "depth": 2,
    "dropout": 0.0,
    "weight_decay": 0.0,
    "batch_size": 64,
    "optimizer": "adam",
    "seed": 3,
    "checkpoint_frequency": 1,
}


@pytest.fixture(scope="module")
def ray_driver(ray_cluster: RayConnection) -> Iterator[None]:
    ray.init(address=ray_cluster.gcs_address)
    yield
    ray.shutdown()


def fit(storage: Path, name: str, workers: int, **config: Any) -> Any:
    trainer = TorchTrainer(
        train_loop_per_worker,
        train_loop_config={**CONFIG, **config},
        scaling_config=ScalingConfig(num_workers=workers, resources_per_worker={"CPU": 0.5}),
        run_config=RunConfig(
            name=name,
            storage_path=str(storage),
            checkpoint_config=CheckpointConfig(num_to_keep=None),
        ),
    )
    return trainer.fit()


def trajectory(result: Any) -> list[tuple[float, float]]:
    rows = result.metrics_dataframe.sort_values("epoch")
    return list(zip(rows["val_loss"], rows["val_accuracy"], strict=True))


def flat(pairs: list[tuple[float, float]]) -> list[float]:
    return [value for pair in pairs for value in pair]


def test_two_workers_follow_the_single_worker_validation_trajectory(
    ray_driver: None, tmp_path: Path
) -> None:
    single = trajectory(fit(tmp_path, "one", 1, epochs=3))
    double = trajectory(fit(tmp_path, "two", 2, epochs=3))
    assert len(single) == len(double) == 3
    for (loss_1, acc_1), (loss_2, acc_2) in zip(single, double, strict=True):
        assert loss_2 == pytest.approx(loss_1, rel=1e-4)
        assert acc_2 == pytest.approx(acc_1, abs=1 / 269)  # at most one sample flips
    assert single[-1][1] > 0.7  # it actually learns (chance is 0.1)


def test_a_run_resumed_from_a_checkpoint_matches_the_uninterrupted_run(
    ray_driver: None, tmp_path: Path
) -> None:
    full = fit(tmp_path, "full", 2, epochs=4, dropout=0.2)
    epoch_2 = next(c for c, m in full.best_checkpoints if m["epoch"] == 2)
    resumed = fit(tmp_path, "resumed", 2, epochs=4, dropout=0.2, resume_from=epoch_2.path)
    assert list(resumed.metrics_dataframe["epoch"]) == [3, 4]
    assert flat(trajectory(resumed)) == pytest.approx(flat(trajectory(full)[2:]), rel=1e-6)
