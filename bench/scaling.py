"""digits_cnn data-parallel scaling on this machine: throughput with 1 and 2 Ray Train workers,
speedup S = throughput(2) / throughput(1), efficiency S / 2, and the share of step time spent
waiting for the gradient all-reduce.

Each run trains the bundled trainer through the kit's loop (trainers/kit.py) on a fresh local
Ray head with one CPU per worker; the first epoch (warm-up) is left out and the median of the
rest is taken. The global batch is split over the workers (the kit's default), so both runs do
the same work per epoch.

    .venv/bin/python bench/scaling.py [--epochs 6] [--batch-sizes 64 256]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("RAY_AUTH_MODE", "token")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ray
from ray.train import RunConfig, ScalingConfig
from ray.train.torch import TorchTrainer

from service.engine.cluster import RayConnection
from service.settings import Settings
from trainers.kit import train_loop_per_worker
from trainers.registry import TASK_KEY, TRAINERS


def run(workers: int, batch_size: int, epochs: int, storage: str) -> dict[str, float]:
    info = TRAINERS["digits_cnn"]
    result = TorchTrainer(
        train_loop_per_worker,
        train_loop_config={
            **info.defaults,
            TASK_KEY: info.task,
            "batch_size": batch_size,
            "epochs": epochs,
            "checkpoint_frequency": 1,  # Train V2's metrics_dataframe holds checkpointed epochs
        },
        scaling_config=ScalingConfig(num_workers=workers, resources_per_worker={"CPU": 1}),
        run_config=RunConfig(name=f"scaling-{workers}-{batch_size}", storage_path=storage),
    ).fit()
    frame = result.metrics_dataframe.sort_values("epoch").iloc[1:]  # epoch 1 warms up
    figures = {"samples_per_second": statistics.median(frame["samples_per_second"])}
    if "allreduce_share" in frame:
        figures["allreduce_share"] = statistics.median(frame["allreduce_share"])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[64, 256])
    args = parser.parse_args()
    cpus = os.cpu_count() or 1
    if cpus < 2:
        raise SystemExit("needs at least 2 CPUs")
    with tempfile.TemporaryDirectory(prefix="scaling-") as home:
        settings = Settings(home=Path(home), local_ray_cpus=2)
        with RayConnection(settings) as connection:
            ray.init(address=connection.gcs_address)
            rows: list[dict[str, Any]] = []
            for batch_size in args.batch_sizes:
                one = run(1, batch_size, args.epochs, f"{home}/runs")
                two = run(2, batch_size, args.epochs, f"{home}/runs")
                speedup = two["samples_per_second"] / one["samples_per_second"]
                rows.append(
                    {
                        "batch": batch_size,
                        "1 worker": one["samples_per_second"],
                        "2 workers": two["samples_per_second"],
                        "speedup": speedup,
                        "efficiency": speedup / 2,
                        "allreduce": two.get("allreduce_share", float("nan")),
                    }
                )
            report(rows, cpus, args.epochs)
            ray.shutdown()


def report(rows: list[dict[str, Any]], cpus: int, epochs: int) -> None:
    print(f"\ndigits_cnn scaling on {cpus} CPUs (samples/s, median of epochs 2..{epochs})")
    print(f"{'global batch':>12} {'1 worker':>10} {'2 workers':>10} {'S':>6} {'S/W':>6} "
          f"{'all-reduce share':>17}")  # fmt: skip
    for row in rows:
        print(
            f"{row['batch']:>12} {row['1 worker']:>10.0f} {row['2 workers']:>10.0f} "
            f"{row['speedup']:>6.2f} {row['efficiency']:>6.2f} {row['allreduce']:>17.1%}"
        )


if __name__ == "__main__":
    main()
