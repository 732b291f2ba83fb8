"""The Tune function trial: one Ray Train (V2) TorchTrainer run of the spec's trainer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ray import tune
from ray.train import CheckpointConfig, FailureConfig, RunConfig, ScalingConfig
from ray.train.torch import TorchTrainer
from ray.tune.integration.ray_train import TuneReportCallback

from trainers.registry import get_trainer, load_loop


@dataclass(frozen=True)
class TrialPlan:
    """Everything a trial needs besides its sampled config; built by the driver from the spec."""

    trainer: str
    epochs: int
    checkpoint_frequency: int
    checkpoints_to_keep: int
    max_failures: int
    num_workers: int | tuple[int, int]
    use_gpu: bool
    cpus_per_worker: float
    gpus_per_worker: float
    storage_path: str
    seed: int

    def resources_per_worker(self) -> dict[str, float]:
        resources = {"CPU": self.cpus_per_worker}
        if self.use_gpu:
            resources["GPU"] = self.gpus_per_worker or 1.0
        return resources


def train_config(plan: TrialPlan, config: dict[str, Any]) -> dict[str, Any]:
    info = get_trainer(plan.trainer)
    return {
        **info.defaults,
        "seed": plan.seed,
        **config,
        "epochs": plan.epochs,
        "checkpoint_frequency": plan.checkpoint_frequency,
    }


def run_trial(config: dict[str, Any], plan: TrialPlan) -> None:
    """Runs in the Tune trial actor. The Train run is named after the trial, so a restored sweep
    finds the run's checkpoints and the workers continue from the latest one."""
    trainer = TorchTrainer(
        load_loop(get_trainer(plan.trainer)),
        train_loop_config=train_config(plan, config),
        scaling_config=ScalingConfig(
            num_workers=plan.num_workers,
            use_gpu=plan.use_gpu,
            resources_per_worker=plan.resources_per_worker(),
        ),
        run_config=RunConfig(
            name=tune.get_context().get_trial_id(),
            storage_path=plan.storage_path,
            failure_config=FailureConfig(max_failures=plan.max_failures),
            # the latest N, not the best N: resuming needs the latest
            checkpoint_config=CheckpointConfig(num_to_keep=plan.checkpoints_to_keep),
            callbacks=[TuneReportCallback()],
        ),
    )
    trainer.fit()
