"""Population-based training against ASHA and random search at the same epoch budget, on a
trainer where a schedule matters.

digits_cnn (Adam) with a constant learning rate from 0.01-0.1 (``lr_schedule: constant``; the
kit's default cosine schedule is itself a falling learning rate, which would leave nothing for a
schedule to find):
a fixed configuration cannot lower its learning rate as it trains, PBT can (each exploit
perturbs the copied lr by x0.8 or x1.2). Three sweeps through raysweep, one after the other,
each with the same seed and concurrency:

- ``random``: ``--population`` random configurations, each to ``--max-t`` (population x max_t
  epochs);
- ``asha_promotion``: as many random configurations as fit in that budget with grace 1 and
  reduction factor 2 (the epochs a configuration trains on average, half promoted at each
  rung), paused and promoted by ASHA;
- ``pbt``: the population, exploiting every ``--interval`` epochs (the worst quarter copies a
  best quarter's checkpoint, its lr, dropout, weight decay and batch size perturbed).

Judged by val_loss (digits' val_accuracy saturates near 0.99 for every method). Prints, for
each: epochs trained, the best val_loss and that trial's val_accuracy, its learning rate (for
PBT, its schedule), and wall time.

    .venv/bin/python bench/pbt.py [--population 8] [--max-t 12] [--interval 2] [--concurrency 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.local import completed_sweep, local_raysweep  # noqa: E402
from devkit.harness import ServerProcess  # noqa: E402
from service.usecases.decisions import promotion_milestones  # noqa: E402

# search_spaces/digits_cnn.yaml with a constant learning rate from its upper range (Adam at
# 0.01-0.1 learns fast and then wanders: a learning rate that falls does better)
SPACE: dict[str, Any] = {
    "lr": {"type": "loguniform", "low": 1.0e-2, "high": 1.0e-1},
    "channels": {"type": "choice", "values": [8, 16, 32]},
    "hidden": {"type": "choice", "values": [32, 64, 128]},
    "dropout": {"type": "uniform", "low": 0.0, "high": 0.4},
    "weight_decay": {"type": "loguniform", "low": 1.0e-6, "high": 1.0e-3},
    "batch_size": {"type": "choice", "values": [32, 64, 128]},
    "optimizer": {"type": "constant", "value": "adam"},
    "lr_schedule": {"type": "constant", "value": "constant"},
}
METHODS = ("random", "asha_promotion", "pbt")


def asha_epochs_per_sample(max_t: int) -> float:
    """The epochs a configuration trains on average under promotion ASHA (grace 1, reduction
    factor 2): every one the first rung, half of them each next rung's epochs."""
    marks = [0, *promotion_milestones(1, 2, max_t, 0)]
    return sum((marks[k] - marks[k - 1]) / 2 ** (k - 1) for k in range(1, len(marks)))


def spec(method: str, args: argparse.Namespace) -> dict[str, Any]:
    early: dict[str, Any] = {"scheduler": "none", "max_t": args.max_t}
    samples = args.population
    if method == "asha_promotion":
        early.update(scheduler="asha_promotion", grace_period=1, reduction_factor=2)
        budget = args.population * args.max_t
        samples = round(budget / asha_epochs_per_sample(args.max_t))
    elif method == "pbt":
        early.update(scheduler="pbt", pbt={"perturbation_interval": args.interval})
    return {
        "name": f"pbt-bench-{method.replace('_', '-')}",
        "trainer": "digits_cnn",
        "metric": "val_loss",
        "mode": "min",
        "search_space": SPACE,
        "search": {
            "algorithm": "random",
            "num_samples": samples,
            "max_concurrent_trials": args.concurrency,
            "seed": args.seed,
        },
        "early_stopping": early,
        "resources": {"num_workers": 1, "cpus_per_worker": 0.5},
        "fault_tolerance": {"max_failures": 1, "checkpoint_frequency": 1, "checkpoints_to_keep": 1},
    }


def run_sweep(server: ServerProcess, body: dict[str, Any]) -> dict[str, Any]:
    """Submit, wait; the wall time, epochs trained, and the best trial with its lr schedule."""
    with server.client() as client:
        start = time.perf_counter()
        experiment = completed_sweep(client, body, 1.0)
        wall = time.perf_counter() - start
        url = f"/api/v1/experiments/{experiment['id']}"
        trials = client.get(f"{url}/trials", params={"limit": 500}).json()["items"]
        best = min(trials, key=lambda t: t["best_metric"] or float("inf"))
        results = client.get(f"/api/v1/trials/{best['id']}/results", params={"limit": 10_000})
        at_best = min(results.json()["items"], key=lambda r: r["metrics"]["val_loss"])
        exploits = client.get(f"{url}/exploits", params={"trial_id": best["id"]}).json()
    lrs = [f"{best['config']['lr']:.2g}"] + [
        f"e{e['epoch']}: {e['new_config']['lr']:.2g}" for e in exploits
    ]
    return {
        "wall": wall,
        "epochs": sum(t["iteration"] for t in trials),
        "best": best["best_metric"],
        "accuracy": at_best["metrics"]["val_accuracy"],
        "lr": " -> ".join(lrs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--population", type=int, default=8, help="PBT's population")
    parser.add_argument("--max-t", type=int, default=12, help="epochs of a full trial")
    parser.add_argument("--interval", type=int, default=2, help="PBT's perturbation interval")
    parser.add_argument("--concurrency", type=int, default=2, help="trials training at once")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    runs: dict[str, dict[str, Any]] = {}
    with local_raysweep() as (_, _, server):
        for method in METHODS:
            runs[method] = run_sweep(server, spec(method, args))
            print(f"  {method}: done in {runs[method]['wall']:.0f} s", flush=True)
    print(
        f"digits_cnn, Adam, constant lr 0.01-0.1, population {args.population}, "
        f"max_t {args.max_t}, interval {args.interval}, {args.concurrency} trials at once, "
        f"seed {args.seed}"
    )
    print(
        f"{'method':<16}{'epochs':>8}{'best val_loss':>15}{'its val_acc':>13}{'wall s':>9}"
        "  best trial's lr"
    )
    for method, run in runs.items():
        print(
            f"{method:<16}{run['epochs']:>8}{run['best']:>15.4f}{run['accuracy']:>13.4f}"
            f"{run['wall']:>9.0f}  {run['lr']}"
        )


if __name__ == "__main__":
    main()
