"""Trial start-up and where its seconds go: raysweep against a plain Ray Tune + Train script,
side by side on one 2-CPU Ray head, and raysweep's trials of code that sets up no process group.

The first two paths run the same training function (bench/startup_probe.py: one step of a tiny
DDP model; uploaded to raysweep as code) for N trials one after the other, 2 workers x 0.5 CPU;
the third runs the probe's torch-free function with ``code.process_group: none``.
Each trial's one report says when its rank-0 worker process started, when Ray Train called the
function and when its DDP model was ready, so a trial's start-up (trial start -> first result)
splits into:

    before the workers : trial start -> a worker process exists (Tune's trial actor, raysweep's
                         gate, Ray Train's controller actor, the placement group, the spawn)
    worker set-up      : worker process start -> the function called (imports, Train's worker
                         set-up, torch.distributed's process group)
    DDP model          : the function called -> its DDP model ready
    first report       : the model ready -> the result seen (one step, Train's poll, Tune; for
                         raysweep also the recorder's write)

Prints each path's per-trial start-ups, the medians of each phase (the first, cold trial
apart) and the ratio of the medians.

    .venv/bin/python bench/startup.py [--trials 4]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PHASES = ("before the workers", "worker set-up", "DDP model", "first report")
TRIAL_RESOURCES = {"CPU": 0.01}  # what raysweep's trial function asks (service.resources)


def phases(trial: dict[str, float]) -> dict[str, float]:
    """A trial's start-up split at its worker's process start, call and model."""
    return {
        "before the workers": trial["worker_started"] - trial["started"],
        "worker set-up": trial["entered"] - trial["worker_started"],
        "DDP model": trial["ready"] - trial["entered"],
        "first report": trial["seen"] - trial["ready"],
    }


def plain(gcs_address: str, trials: int, storage: str) -> list[dict[str, float]]:
    """Runs in a fresh process (``--plain``): Tune + Train V2, no raysweep."""
    import ray
    from ray import tune
    from ray.train import RunConfig, ScalingConfig
    from ray.train.torch import TorchTrainer
    from ray.tune.integration.ray_train import TuneReportCallback

    from bench.startup_probe import train_loop

    def trial(config: dict[str, Any]) -> None:
        TorchTrainer(
            train_loop,
            train_loop_config=config,
            scaling_config=ScalingConfig(num_workers=2, resources_per_worker={"CPU": 0.5}),
            run_config=RunConfig(
                name=tune.get_context().get_trial_id(),
                storage_path=f"{storage}/train",
                callbacks=[TuneReportCallback()],
            ),
        ).fit()

    class Clock(tune.Callback):
        def __init__(self) -> None:
            self.trials: dict[str, dict[str, float]] = {}

        def on_trial_start(self, iteration: int, trials: Any, trial: Any, **info: Any) -> None:
            self.trials[trial.trial_id] = {"started": time.time()}

        def on_trial_result(
            self, iteration: int, trials: Any, trial: Any, result: Any, **info: Any
        ) -> None:
            seen = self.trials[trial.trial_id]
            if "seen" not in seen:
                seen.update(seen=time.time(), **{k: result[k] for k in PROBE_KEYS})

    ray.init(address=gcs_address)
    clock = Clock()
    tune.Tuner(
        tune.with_resources(trial, TRIAL_RESOURCES),
        param_space={"lr": 0.1},
        tune_config=tune.TuneConfig(num_samples=trials, max_concurrent_trials=1),
        run_config=tune.RunConfig(name="plain", storage_path=storage, callbacks=[clock]),
    ).fit()
    return list(clock.trials.values())


PROBE_KEYS = ("worker_started", "entered", "ready")


def through_raysweep(server: Any, trials: int, torch: bool = True) -> list[dict[str, float]]:
    from bench.local import completed_sweep
    from tests.packages import zip_of

    probe = (REPO / "bench" / "startup_probe.py").read_text()
    with server.client() as client:
        uploaded = client.post(
            "/api/v1/code",
            content=zip_of({"startup_probe.py": probe}),
            headers={"Content-Type": "application/zip"},
        )
        uploaded.raise_for_status()
        spec = {
            "name": "startup",
            "code": {
                "package": uploaded.json()["sha256"],
                "entrypoint": "startup_probe:train_loop" + ("" if torch else "_without_torch"),
                "metrics": {"loss": "min", "epoch": "max"},
                "process_group": "torch" if torch else "none",
            },
            "metric": "loss",
            "mode": "min",
            "search_space": {"lr": {"type": "constant", "value": 0.1}},
            "search": {"algorithm": "random", "num_samples": trials, "max_concurrent_trials": 1},
            "early_stopping": {"scheduler": "none", "max_t": 1},
            "resources": {"num_workers": 2, "cpus_per_worker": 0.5},
        }
        experiment_id = completed_sweep(client, spec, 0.5)["id"]
        rows = client.get(f"/api/v1/experiments/{experiment_id}/trials").json()["items"]
        measured = []
        for row in sorted(rows, key=lambda r: r["number"]):
            first = client.get(f"/api/v1/trials/{row['id']}/results", params={"limit": 1})
            result = first.json()["items"][0]
            measured.append(
                {
                    "started": _time(row["started_at"]),
                    "seen": _time(result["reported_at"]),
                    **{k: result["metrics"][k] for k in PROBE_KEYS},
                }
            )
    return measured


def _time(stamp: str) -> float:
    return datetime.fromisoformat(stamp).timestamp()


def report(label: str, trials: list[dict[str, float]]) -> float:
    """Prints a path's figures; returns its median warm start-up (the first trial apart)."""
    startups = [t["seen"] - t["started"] for t in trials]
    warm = trials[1:] or trials
    print(f"{label}: {len(trials)} trials, start-ups " + ", ".join(f"{s:.1f}" for s in startups))
    print(f"  first (cold) trial {startups[0]:5.1f} s; the others, medians:")
    split = [phases(t) for t in warm]
    for phase in PHASES:
        print(f"    {phase:<20} {statistics.median(p[phase] for p in split):5.1f} s")
    median = statistics.median(t["seen"] - t["started"] for t in warm)
    print(f"    {'trial start-up':<20} {median:5.1f} s")
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=4, help="trials per path, one at a time")
    parser.add_argument("--plain", nargs=2, metavar=("GCS", "STORAGE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.plain:  # the plain script's own process
        print(json.dumps(plain(args.plain[0], args.trials, args.plain[1])))
        return

    from bench.local import local_raysweep

    with local_raysweep() as (root, ray, server):
        output = subprocess.run(
            [
                sys.executable,
                __file__,
                "--trials",
                str(args.trials),
                "--plain",
                str(ray.gcs_address),
                str(root / "plain"),
            ],
            capture_output=True,
            text=True,
            cwd=REPO,
        )
        if output.returncode != 0:
            raise SystemExit(f"the plain Tune + Train script failed:\n{output.stderr[-3000:]}")
        plain_trials = json.loads(output.stdout.strip().splitlines()[-1])
        raysweep_trials = through_raysweep(server, args.trials)
        torch_free_trials = through_raysweep(server, args.trials, torch=False)
    print("2-worker trials (0.5 CPU each), one at a time, on a 2-CPU Ray head")
    plain_median = report("plain Tune + Train", plain_trials)
    raysweep_median = report("raysweep", raysweep_trials)
    torch_free_median = report("raysweep, code.process_group: none", torch_free_trials)
    print(f"ratio raysweep / plain (median start-up): {raysweep_median / plain_median:.2f}")
    print(
        "ratio raysweep without torch.distributed / with it (median start-up): "
        f"{torch_free_median / raysweep_median:.2f}"
    )


if __name__ == "__main__":
    main()
