"""Warm worker groups, measured before they are built (issue 43's lead): how soon a trial's first
result comes when its training function runs on a Ray Train worker group that is already up,
against a Train run started for the trial, as raysweep does today. A prototype of the mechanism
on plain Ray, not raysweep's: one long-lived TorchTrainer run whose workers take trials from a
queue, keep their torch.distributed process group between trials, and pass each trial's reports
to the driver through another queue (rank 0 reads the next trial, broadcasts it to the others).

    python bench/warm_group.py [TRIALS]

Prints each start-up (submit -> first result, seconds) and, last, a JSON line of the medians.
What the prototype leaves out, and a service must not: isolating trials from each other (a fresh
import of the user's module, its threads, env vars, global torch state), checkpoints on the
trial's own storage, and failures (a dead worker takes the whole group, and the trial on it).
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import threading
import time
from typing import Any

import ray
from ray.train import RunConfig, ScalingConfig
from ray.train.torch import TorchTrainer
from ray.util.queue import Queue

WORKERS = 2
CPUS_PER_WORKER = 0.5


def tiny_trial(config: dict[str, Any]) -> None:
    """The user's function: a DDP model, one step, one report (as bench/startup_probe.py)."""
    import ray.train
    import ray.train.torch
    import torch

    torch.manual_seed(int(config["seed"]))
    model = ray.train.torch.prepare_model(torch.nn.Linear(8, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=float(config["lr"]))
    loss = model(torch.ones(4, 8)).pow(2).mean()
    loss.backward()
    optimizer.step()
    ray.train.report({"loss": float(loss), "epoch": 1, "reported": time.time()})


def cold_loop(config: dict[str, Any]) -> None:
    """A worker of a trial's own group: the trial, its reports through Train as usual and also
    to the driver's queue (Train V2 keeps no metrics without a checkpoint)."""
    import ray.train

    results = config["results"]
    rank = ray.train.get_context().get_world_rank()
    report = ray.train.report

    def relay(metrics: dict[str, Any], checkpoint: Any = None) -> None:
        report(metrics, checkpoint=checkpoint)
        if rank == 0:
            results.put((config["id"], time.time(), metrics))

    ray.train.report = relay  # type: ignore[assignment]
    try:
        tiny_trial(config)
    finally:
        ray.train.report = report


def warm_loop(config: dict[str, Any]) -> None:
    """A worker of the long-lived group: trials, one after another, until told to stop."""
    import ray.train
    import torch.distributed as dist

    tasks, results = config["tasks"], config["results"]
    rank = ray.train.get_context().get_world_rank()
    report = ray.train.report
    while True:
        box = [tasks.get() if rank == 0 else None]
        dist.broadcast_object_list(box, src=0)
        task = box[0]
        if task is None:
            return

        def relay(metrics: dict[str, Any], checkpoint: Any = None, task: Any = task) -> None:
            if rank == 0:
                results.put((task["id"], time.time(), metrics))

        ray.train.report = relay  # type: ignore[assignment]
        try:
            tiny_trial(task["config"])
        finally:
            ray.train.report = report
        dist.barrier()


def scaling() -> ScalingConfig:
    return ScalingConfig(num_workers=WORKERS, resources_per_worker={"CPU": CPUS_PER_WORKER})


def cold_startups(trials: int, storage: str) -> list[float]:
    """A Train run per trial, as raysweep starts them now."""
    results, startups = Queue(), []
    for index in range(trials):
        started = time.time()
        TorchTrainer(
            cold_loop,
            train_loop_config={"id": index, "seed": index, "lr": 0.1, "results": results},
            scaling_config=scaling(),
            run_config=RunConfig(name=f"cold-{index}", storage_path=storage),
        ).fit()
        task_id, arrived, _ = results.get(timeout=60)
        assert task_id == index
        startups.append(arrived - started)
        print(f"cold trial {index}: {startups[-1]:.2f} s to its first result", flush=True)
    return startups


def warm_startups(trials: int, storage: str) -> list[float]:
    """One Train run taking every trial; the first pays for the group's start."""
    tasks, results = Queue(), Queue()
    trainer = TorchTrainer(
        warm_loop,
        train_loop_config={"tasks": tasks, "results": results},
        scaling_config=scaling(),
        run_config=RunConfig(name="warm", storage_path=storage),
    )
    running = threading.Thread(target=trainer.fit, daemon=True)
    running.start()
    startups = []
    try:
        for index in range(trials):
            submitted = time.time()
            tasks.put({"id": index, "config": {"seed": index, "lr": 0.1}})
            task_id, arrived, _ = results.get(timeout=600)
            assert task_id == index
            startups.append(arrived - submitted)
            kind = "first (the group starts)" if index == 0 else "warm"
            print(f"{kind} trial {index}: {startups[-1]:.2f} s to its first result", flush=True)
    finally:
        tasks.put(None)
        running.join(timeout=120)
    return startups


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        with tempfile.TemporaryDirectory() as storage:
            cold = cold_startups(min(trials, 3), storage)
            warm = warm_startups(trials + 1, storage)
    finally:
        ray.shutdown()
    figures = {
        "cold_median_s": round(statistics.median(cold), 2),
        "warm_first_s": round(warm[0], 2),
        "warm_median_s": round(statistics.median(warm[1:]), 3),
        "warm_over_cold": round(statistics.median(warm[1:]) / statistics.median(cold), 3),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
