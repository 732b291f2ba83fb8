"""A plain Ray Tune + Train script running one digits_mlp trial: the baseline for overhead.py.

    python bench/plain_tune.py GCS_ADDRESS EPOCHS STORAGE_DIR CONFIG_JSON
Prints a result line (bench/results.py) with the trial start-up time (trial start -> first result).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("RAY_AUTH_MODE", "token")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ray
from ray import tune
from ray.train import RunConfig, ScalingConfig
from ray.train.torch import TorchTrainer
from ray.tune.integration.ray_train import TuneReportCallback

from bench.results import print_result
from trainers.kit import train_loop_per_worker
from trainers.registry import TASK_KEY, TRAINERS


def trial(config: dict[str, Any], storage: str) -> None:
    TorchTrainer(
        train_loop_per_worker,
        train_loop_config={**config, TASK_KEY: TRAINERS["digits_mlp"].task},
        scaling_config=ScalingConfig(num_workers=2, resources_per_worker={"CPU": 0.5}),
        run_config=RunConfig(
            name=tune.get_context().get_trial_id(),
            storage_path=storage,
            callbacks=[TuneReportCallback()],
        ),
    ).fit()


class StartupClock(tune.Callback):
    def __init__(self) -> None:
        self.started: float | None = None
        self.first_result: float | None = None

    def on_trial_start(self, iteration: int, trials: Any, trial: Any, **info: Any) -> None:
        self.started = time.time()

    def on_trial_result(
        self, iteration: int, trials: Any, trial: Any, result: Any, **info: Any
    ) -> None:
        self.first_result = self.first_result or time.time()


def main() -> None:
    address, epochs, storage, config = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    ray.init(address=address)
    clock = StartupClock()
    tuner = tune.Tuner(
        tune.with_resources(tune.with_parameters(trial, storage=f"{storage}/train"), {"CPU": 0.01}),
        param_space={**json.loads(config), "epochs": epochs, "checkpoint_frequency": 1},
        tune_config=tune.TuneConfig(num_samples=1),
        run_config=tune.RunConfig(name="plain", storage_path=storage, callbacks=[clock]),
    )
    tuner.fit()
    assert clock.started is not None and clock.first_result is not None
    print_result({"startup_s": clock.first_result - clock.started})


if __name__ == "__main__":
    main()
