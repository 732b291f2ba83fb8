"""Epochs to a good model: random search at full budget, ASHA and promotion ASHA on one stream.

The same seeded random configuration stream of digits_cnn (search_spaces/digits_cnn.yaml, whose
learning curves cross: sgd and small learning rates start slow) runs three times through
raysweep, one sweep after the other with the same concurrency: every trial to ``max_t``
(``none``), ``asha`` and ``asha_promotion`` (grace 1, reduction factor 2). Each stored result is
one epoch trained. Prints, for each: epochs in all, epochs spent until a result as good as
random search's best full-budget one appeared (or the best found, when never), wall time, and
the ratio of those epochs to random search's.

    .venv/bin/python bench/asha_efficiency.py [--samples 16] [--max-t 16] [--concurrency 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.local import completed_sweep, local_raysweep  # noqa: E402
from devkit.harness import ServerProcess  # noqa: E402

METHODS = ("none", "asha", "asha_promotion")


def spec(method: str, samples: int, max_t: int, concurrency: int, seed: int) -> dict[str, Any]:
    return {
        "name": f"efficiency-{method}",
        "trainer": "digits_cnn",
        "metric": "val_accuracy",
        "mode": "max",
        "search_space": "digits_cnn",  # search_spaces/digits_cnn.yaml
        "search": {
            "algorithm": "random",
            "num_samples": samples,
            "max_concurrent_trials": concurrency,
            "seed": seed,
        },
        "early_stopping": {
            "scheduler": method,
            "max_t": max_t,
            "grace_period": 1,
            "reduction_factor": 2,
        },
        "resources": {"num_workers": 1, "cpus_per_worker": 0.5},
        "fault_tolerance": {"max_failures": 1, "checkpoint_frequency": 1, "checkpoints_to_keep": 1},
    }


def run_sweep(server: ServerProcess, body: dict[str, Any]) -> tuple[float, list[dict[str, Any]]]:
    """Submit, wait, and return the wall time and every result (with its trial) in the order
    the results were reported."""
    with server.client() as client:
        start = time.perf_counter()
        experiment_id = completed_sweep(client, body, 1.0)["id"]
        wall = time.perf_counter() - start
        trials = client.get(
            f"/api/v1/experiments/{experiment_id}/trials", params={"limit": 500}
        ).json()["items"]
        results = []
        for trial in trials:
            page = client.get(f"/api/v1/trials/{trial['id']}/results", params={"limit": 10_000})
            for result in page.json()["items"]:
                results.append(
                    {
                        "trial": trial["id"],
                        "iteration": result["iteration"],
                        "value": result["metrics"].get("val_accuracy"),
                        "at": datetime.fromisoformat(result["reported_at"]).timestamp(),
                    }
                )
    return wall, sorted(results, key=lambda r: r["at"])


def epochs_to_reach(results: list[dict[str, Any]], target: float) -> int | None:
    for count, result in enumerate(results, start=1):
        if result["value"] is not None and result["value"] >= target:
            return count
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=16, help="configurations per sweep")
    parser.add_argument("--max-t", type=int, default=16, help="full budget in epochs")
    parser.add_argument("--concurrency", type=int, default=2, help="trials training at once")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    runs: dict[str, tuple[float, list[dict[str, Any]]]] = {}
    with local_raysweep() as (_, _, server):
        for method in METHODS:
            body = spec(method, args.samples, args.max_t, args.concurrency, args.seed)
            runs[method] = run_sweep(server, body)
            print(f"  {method}: done in {runs[method][0]:.0f} s", flush=True)
    full = [r for r in runs["none"][1] if r["iteration"] == args.max_t and r["value"] is not None]
    target = max(r["value"] for r in full)
    random_epochs = epochs_to_reach(runs["none"][1], target)
    assert random_epochs is not None
    print(
        f"digits_cnn, {args.samples} random configurations (seed {args.seed}), max_t "
        f"{args.max_t}, reduction factor 2, {args.concurrency} trials at once"
    )
    print(f"target: random search's best full-budget val_accuracy {target:.4f}")
    print(f"{'method':<16}{'epochs':>8}{'to target':>11}{'ratio':>8}{'wall s':>9}  best")
    for method, (wall, results) in runs.items():
        reached = epochs_to_reach(results, target)
        best = max(r["value"] for r in results if r["value"] is not None)
        to_target = str(reached) if reached is not None else "never"
        ratio = f"{reached / random_epochs:.3f}" if reached is not None else "-"
        print(f"{method:<16}{len(results):>8}{to_target:>11}{ratio:>8}{wall:>9.0f}  {best:.4f}")


if __name__ == "__main__":
    main()
