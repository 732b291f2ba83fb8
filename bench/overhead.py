"""Overhead of raysweep over plain Ray Tune + Train for one 2-worker digits_mlp trial.

(a) the trial submitted through raysweep: REST -> controller -> driver Ray Job -> Tune -> Train,
    timed from the POST until the API shows the experiment completed;
(b) the same trial run by a plain Tune + Train script (bench/plain_tune.py) started as a fresh
    process, timed from launch to exit.
Both run on the same Ray cluster, one after the other. Prints both wall times, their ratio and the
trial start-up time (trial start -> first result) of each.

    .venv/bin/python bench/overhead.py [--epochs 8]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.local import completed_sweep, local_raysweep  # noqa: E402
from bench.results import read_result  # noqa: E402
from bench.specs import CONFIG, single_trial_spec  # noqa: E402
from devkit.harness import ServerProcess  # noqa: E402


def through_raysweep(server: ServerProcess, epochs: int) -> tuple[float, float]:
    spec = single_trial_spec("overhead", epochs)
    with server.client() as client:
        start = time.perf_counter()
        experiment_id = completed_sweep(client, spec, 0.2)["id"]
        wall = time.perf_counter() - start
        trial = client.get(f"/api/v1/experiments/{experiment_id}/trials").json()["items"][0]
        first = client.get(f"/api/v1/trials/{trial['id']}/results", params={"limit": 1}).json()[
            "items"
        ][0]
    startup = _time(first["reported_at"]) - _time(trial["started_at"])
    return wall, startup


def _time(stamp: str) -> float:
    return datetime.fromisoformat(stamp).timestamp()


def plain(gcs_address: str, epochs: int, storage: Path) -> tuple[float, float]:
    start = time.perf_counter()
    output = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "plain_tune.py"),
            gcs_address,
            str(epochs),
            str(storage),
            json.dumps(CONFIG),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    wall = time.perf_counter() - start
    startup = read_result(output.stdout)["startup_s"]
    return wall, startup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=8)
    args = parser.parse_args()
    with local_raysweep() as (root, ray, server):
        plain_wall, plain_startup = plain(str(ray.gcs_address), args.epochs, root / "plain")
        sweep_wall, sweep_startup = through_raysweep(server, args.epochs)
    print(f"one 2-worker digits_mlp trial, {args.epochs} epochs")
    print(
        f"  plain Tune + Train script : {plain_wall:7.1f} s wall, trial start-up "
        f"{plain_startup:5.1f} s"
    )
    print(
        f"  through raysweep          : {sweep_wall:7.1f} s wall, trial start-up "
        f"{sweep_startup:5.1f} s"
    )
    print(f"  ratio raysweep / plain    : {sweep_wall / plain_wall:7.3f}")


if __name__ == "__main__":
    main()
