"""Recovery from a killed Ray Train worker: resume latency and work redone.

Each run submits a one-trial digits_mlp sweep (2 workers) through raysweep, SIGKILLs one Train
worker once the trial reaches a random epoch, and reads the database afterwards:
- resume latency: the kill -> the next result stored (the worker group restarts, reloads the
  latest checkpoint and retrains the epochs since);
- work redone: epochs completed after the latest checkpoint at the kill (lost and retrained),
  to compare with the checkpoint interval (expected about (interval - 1) / 2 on average, plus
  the epoch in progress).

    .venv/bin/python bench/recovery.py [--runs 3] [--epochs 12] [--checkpoint-frequency 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.local import local_raysweep  # noqa: E402
from bench.specs import single_trial_spec  # noqa: E402
from devkit.harness import (  # noqa: E402
    ServerProcess,
    alive_actors,
    kill,
    wait_for,
)
from service.engine.cluster import RayConnection  # noqa: E402


def one_run(
    server: ServerProcess, ray: RayConnection, epochs: int, frequency: int, kill_at: int
) -> tuple[float, int, int]:
    spec = single_trial_spec(
        "recovery", epochs, fault_tolerance={"max_failures": 3, "checkpoint_frequency": frequency}
    )
    with server.client() as client:
        experiment_id = client.post("/api/v1/experiments", json=spec).json()["id"]

        def trial() -> dict[str, object] | None:
            items = client.get(f"/api/v1/experiments/{experiment_id}/trials").json()["items"]
            return items[0] if items and items[0]["iteration"] >= kill_at else None

        reached = wait_for(trial, 300, f"epoch {kill_at}")
        job = client.get(f"/api/v1/experiments/{experiment_id}").json()["driver_job_id"]
        workers = wait_for(lambda: alive_actors(ray, "RayTrainWorker", job), 60, "a worker")
        done_at_kill = client.get(f"/api/v1/trials/{reached['id']}").json()["iteration"]
        kill(workers[0].pid)
        killed_at = time.time()
        wait_for(
            lambda: (
                client.get(f"/api/v1/experiments/{experiment_id}").json()["state"]
                in ("completed", "failed")
            ),
            600,
            "the sweep to end",
        )
        results = client.get(f"/api/v1/trials/{reached['id']}/results", params={"limit": 500})
    after = [r for r in results.json()["items"] if r["iteration"] > done_at_kill]
    latency = datetime.fromisoformat(after[0]["reported_at"]).timestamp() - killed_at
    last_checkpoint = done_at_kill // frequency * frequency
    return latency, done_at_kill, done_at_kill - last_checkpoint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--checkpoint-frequency", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows = []
    with local_raysweep(controller_interval_s=None) as (_, ray, server):
        for _ in range(args.runs):
            kill_at = rng.randint(2, args.epochs - 3)
            rows.append(one_run(server, ray, args.epochs, args.checkpoint_frequency, kill_at))
    print(
        f"one 2-worker digits_mlp trial, {args.epochs} epochs, checkpoint every "
        f"{args.checkpoint_frequency} epochs; one Train worker SIGKILLed per run"
    )
    for latency, at, redone in rows:
        print(
            f"  killed after epoch {at:3d}: resume latency {latency:6.1f} s, redone {redone} epochs"
        )
    print(
        f"  mean resume latency {statistics.mean(r[0] for r in rows):6.1f} s; mean epochs redone "
        f"{statistics.mean(r[2] for r in rows):.1f} (checkpoint interval "
        f"{args.checkpoint_frequency}, expected about {(args.checkpoint_frequency - 1) / 2:.1f})"
    )


if __name__ == "__main__":
    main()
