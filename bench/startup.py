"""Trial start-up, side by side on one 2-CPU Ray head: raysweep with warm worker groups (its
default), raysweep with a group per trial (RAYSWEEP_WARM_GROUPS=false), and a plain Ray Tune +
Train V2 script; then the README's curl sweep (6 trials of digits_mlp, TPE, ASHA to 4 epochs,
2 at a time), submit -> completed on both raysweeps, against the plain script on the same 6
configurations.

The start-up paths run the same training function (bench/startup_probe.py: one step of a tiny
DDP model; uploaded to raysweep as code) for N trials one after the other, 2 workers x 0.5 CPU.
Each trial's one report says when its rank-0 worker process started, when Ray Train called the
function and when its DDP model was ready, so a cold trial's start-up (trial start -> first
result) splits into:

    before the workers : trial start -> a worker process exists (Tune's trial actor, raysweep's
                         gate, Ray Train's controller actor, the placement group, the spawn)
    worker set-up      : worker process start -> the function called (imports, Train's worker
                         set-up, torch.distributed's process group)
    DDP model          : the function called -> its DDP model ready
    first report       : the model ready -> the result seen (one step, Train's poll, Tune; for
                         raysweep also the recorder's write)

A warm trial's worker started before the trial (with the first), so only its start-up is shown.
Prints each path's per-trial start-ups, the medians (the first, cold trial apart), the ratios,
and the README sweep's wall times and ratios.

    .venv/bin/python bench/startup.py [--trials 4] [--no-readme-sweep]
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

from bench.results import print_result, read_result  # noqa: E402

PHASES = ("before the workers", "worker set-up", "DDP model", "first report")
TRIAL_RESOURCES = {"CPU": 0.01}  # what raysweep's trial function asks (service.resources)
# the plain script's README runs: workers of 0.5 CPU as written, and of 0.495 as raysweep places
# them (the function's share carved out: both trials at once on 2 CPUs)
PLAIN_README = {"plain Tune + Train, 0.5": "0.5", "plain Tune + Train, 0.495": "0.495"}


def phases(trial: dict[str, float]) -> dict[str, float]:
    """A trial's start-up split at its worker's process start, call and model."""
    return {
        "before the workers": trial["worker_started"] - trial["started"],
        "worker set-up": trial["entered"] - trial["worker_started"],
        "DDP model": trial["ready"] - trial["entered"],
        "first report": trial["seen"] - trial["ready"],
    }


def plain_trial(
    function: Any, config: dict[str, Any], storage: str, cpus_per_worker: float = 0.5
) -> None:
    """One Tune trial of the plain script: a TorchTrainer of 2 workers x ``cpus_per_worker``
    (0.5, as Ray's docs write it) whose reports go to Tune."""
    from ray import tune
    from ray.train import RunConfig, ScalingConfig
    from ray.train.torch import TorchTrainer
    from ray.tune.integration.ray_train import TuneReportCallback

    TorchTrainer(
        function,
        train_loop_config=config,
        scaling_config=ScalingConfig(num_workers=2, resources_per_worker={"CPU": cpus_per_worker}),
        run_config=RunConfig(
            name=tune.get_context().get_trial_id(),
            storage_path=f"{storage}/train",
            callbacks=[TuneReportCallback()],
        ),
    ).fit()


def plain(gcs_address: str, trials: int, storage: str) -> list[dict[str, float]]:
    """Runs in a fresh process (``--plain``): Tune + Train V2, no raysweep."""
    import ray
    from ray import tune

    from bench.startup_probe import train_loop

    def trial(config: dict[str, Any]) -> None:
        plain_trial(train_loop, config, storage)

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


def through_raysweep(server: Any, trials: int) -> list[dict[str, float]]:
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
                "entrypoint": "startup_probe:train_loop",
                "metrics": {"loss": "min", "epoch": "max"},
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


# the README's curl sweep (README.md, "A first sweep with curl")
README_SWEEP = {
    "name": "digits-asha",
    "trainer": "digits_mlp",
    "search_space": "digits_mlp",
    "metric": "val_accuracy",
    "mode": "max",
    "search": {"algorithm": "tpe", "num_samples": 6, "max_concurrent_trials": 2, "seed": 0},
    "early_stopping": {"scheduler": "asha", "max_t": 4, "grace_period": 1, "reduction_factor": 2},
    "resources": {"num_workers": 2, "cpus_per_worker": 0.5},
}


def readme_sweep(server: Any) -> tuple[float, list[dict[str, Any]]]:
    """The README sweep through raysweep: (submit -> completed seconds, its 6 configurations)."""
    from bench.local import completed_sweep

    with server.client() as client:
        began = time.monotonic()
        experiment_id = completed_sweep(client, README_SWEEP, 0.5)["id"]
        wall = time.monotonic() - began
        rows = client.get(f"/api/v1/experiments/{experiment_id}/trials").json()["items"]
    return wall, [row["config"] for row in sorted(rows, key=lambda r: r["number"])]


def plain_readme(
    gcs_address: str, storage: str, configs: list[dict[str, Any]], cpus_per_worker: float
) -> float:
    """Runs in a fresh process (``--plain-readme``): the same configurations through Tune +
    Train V2 with the same ASHA, 2 at a time; the Tuner's wall time. With 0.5 CPU a worker (as
    the spec asks and Ray's docs write it) the trial function's 0.01 CPU keeps the second trial
    waiting on 2 CPUs; with 0.495 (raysweep's carve, ``service.resources.carved_bundle``) both
    run, which sets the plain script's arithmetic equal to raysweep's."""
    import ray
    from ray import tune
    from ray.tune.schedulers import ASHAScheduler

    from trainers.kit import train_loop_per_worker
    from trainers.registry import TASK_KEY, TRAINERS

    info = TRAINERS["digits_mlp"]

    def trial(config: dict[str, Any]) -> None:
        bundled = {**info.defaults, TASK_KEY: info.task, "epochs": 4, "checkpoint_frequency": 1}
        sampled = {**bundled, **config["sampled"]}
        plain_trial(train_loop_per_worker, sampled, storage, cpus_per_worker)

    ray.init(address=gcs_address)
    began = time.monotonic()
    tune.Tuner(
        tune.with_resources(trial, TRIAL_RESOURCES),
        param_space={"sampled": tune.grid_search(configs)},
        tune_config=tune.TuneConfig(
            metric="val_accuracy",
            mode="max",
            scheduler=ASHAScheduler(max_t=4, grace_period=1, reduction_factor=2),
            max_concurrent_trials=2,
        ),
        run_config=tune.RunConfig(name="plain-readme", storage_path=storage),
    ).fit()
    return time.monotonic() - began


def _time(stamp: str) -> float:
    return datetime.fromisoformat(stamp).timestamp()


def report(label: str, trials: list[dict[str, float]], split: bool = True) -> float:
    """Prints a path's figures; returns its median start-up (the first, cold trial apart)."""
    startups = [t["seen"] - t["started"] for t in trials]
    warm = trials[1:] or trials
    print(f"{label}: {len(trials)} trials, start-ups " + ", ".join(f"{s:.1f}" for s in startups))
    print(f"  first (cold) trial {startups[0]:5.1f} s; the others, medians:")
    if split:
        for phase in PHASES:
            print(f"    {phase:<20} {statistics.median(phases(t)[phase] for t in warm):5.1f} s")
    median = statistics.median(t["seen"] - t["started"] for t in warm)
    print(f"    {'trial start-up':<20} {median:5.2f} s")
    return median


def run_plain(args: list[str]) -> Any:
    output = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, cwd=REPO
    )
    if output.returncode != 0:
        raise SystemExit(f"the plain Tune + Train script failed:\n{output.stderr[-3000:]}")
    return read_result(output.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=4, help="trials per path, one at a time")
    parser.add_argument(
        "--no-readme-sweep", action="store_true", help="only the start-ups (a quick run)"
    )
    parser.add_argument("--plain", nargs=2, metavar=("GCS", "STORAGE"), help=argparse.SUPPRESS)
    parser.add_argument("--plain-readme", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.plain:  # the plain script's own process
        print_result(plain(args.plain[0], args.trials, args.plain[1]))
        return
    if args.plain_readme:
        gcs, storage, configs, cpus = args.plain_readme
        print_result(plain_readme(gcs, storage, json.loads(configs), float(cpus)))
        return

    from bench.local import local_raysweep, server_on

    cold_env = {"RAYSWEEP_WARM_GROUPS": "false"}
    with (
        local_raysweep() as (root, ray, server),
        server_on(root, ray, "cold", 0.5, cold_env) as cold,
    ):
        gcs = str(ray.gcs_address)
        plain_trials = run_plain(["--trials", str(args.trials), "--plain", gcs, str(root / "p")])
        warm_trials = through_raysweep(server, args.trials)
        cold_trials = through_raysweep(cold, args.trials)
        sweeps: dict[str, float] = {}
        if not args.no_readme_sweep:
            sweeps["raysweep, warm groups"], configs = readme_sweep(server)
            sweeps["raysweep, a group per trial"], _ = readme_sweep(cold)
            for label, cpus in PLAIN_README.items():
                sweeps[label] = run_plain(
                    ["--plain-readme", gcs, str(root / f"pr-{cpus}"), json.dumps(configs), cpus]
                )
    print("2-worker trials (0.5 CPU each), one at a time, on a 2-CPU Ray head")
    plain_median = report("plain Tune + Train", plain_trials)
    cold_median = report("raysweep, a group per trial (RAYSWEEP_WARM_GROUPS=false)", cold_trials)
    warm_median = report("raysweep, warm groups", warm_trials, split=False)
    print(f"ratio raysweep cold / plain (median start-up): {cold_median / plain_median:.2f}")
    print(f"ratio raysweep warm / plain (median start-up): {warm_median / plain_median:.3f}")
    if sweeps:
        print("the README sweep (6 trials, TPE, ASHA max_t 4, 2 at a time), submit -> completed")
        for label, wall in sweeps.items():
            print(f"  {label:<30} {wall:6.1f} s")
        for plain_label in PLAIN_README:
            for label in ("raysweep, warm groups", "raysweep, a group per trial"):
                ratio = sweeps[label] / sweeps[plain_label]
                print(f"ratio {label} / {plain_label}: {ratio:.2f}")


if __name__ == "__main__":
    main()
