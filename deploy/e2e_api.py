"""The API half of deploy/e2e.sh: what a user of the composed stack does, through the published
port only (RAYSWEEP_URL, RAYSWEEP_TOKEN): a small sweep to completion, its promotion to a model
version, /metrics, then a second sweep whose only Ray worker container is killed mid-sweep and
started again, after which that sweep still completes with every epoch stored once. Each step
prints its time; any departure raises."""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import time
from collections.abc import Callable
from typing import Any, TypeVar

import httpx

from raysweep.client import Client
from raysweep.experiment import Experiment

T = TypeVar("T")
MODEL = "e2e-digits"
KILLED_SWEEP_EPOCHS = 80


def small_sweep(name: str, epochs: int) -> dict[str, Any]:
    return {
        "name": name,
        "trainer": "digits_mlp",
        "search_space": "digits_mlp",
        "metric": "val_accuracy",
        "mode": "max",
        "search": {"algorithm": "random", "num_samples": 2, "max_concurrent_trials": 2, "seed": 0},
        "early_stopping": {"scheduler": "none", "max_t": epochs},
        "resources": {"num_workers": 1, "cpus_per_worker": 0.5},
        "fault_tolerance": {"max_failures": 3, "checkpoint_frequency": 1},
    }


class Steps:
    def __init__(self) -> None:
        self.started = self.last = time.monotonic()

    def done(self, what: str) -> None:
        now = time.monotonic()
        print(f"[e2e]   {what:<42} {now - self.last:5.0f}s", flush=True)
        self.last = now


def wait_for(check: Callable[[], T | None], timeout_s: float, what: str) -> T:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(2)
    raise TimeoutError(f"timed out after {timeout_s:.0f}s waiting for {what}")


def completed(experiment: Experiment, timeout_s: float) -> Experiment:
    experiment.wait(timeout=timeout_s, progress=False)
    assert experiment.state == "completed", (experiment.state, experiment.data.error)
    return experiment


def check_epochs(client: Client, experiment: Experiment, epochs: int) -> None:
    """Both trials completed, each with its epochs 1..epochs stored once."""
    trials = experiment.trials()
    # each trial's state and the last lines of its error: the first thing to read when CI fails
    states = [(t.id, t.state, t.restarts, (t.error or "")[-1500:]) for t in trials]
    assert len(trials) == 2 and all(t.state == "completed" for t in trials), states
    for trial in trials:
        results = list(client.pages(f"/trials/{trial.id}/results"))
        assert [r["iteration"] for r in results] == list(range(1, epochs + 1)), (trial, results)


def run(kill_worker: str, start_worker: str) -> None:
    steps = Steps()
    token = os.environ["RAYSWEEP_TOKEN"]
    with Client(timeout_s=60) as client:
        me = client.request("GET", "/me")
        assert me["role"] == "admin", me
        steps.done("token accepted (/me)")

        first = completed(client.submit(small_sweep("e2e-small", epochs=2)), 900)
        check_epochs(client, first, 2)
        steps.done(f"sweep {first.data.id}: 2 trials x 2 epochs")

        runs = first.promote(top_k=1, model_name=MODEL, epochs=2)
        final = wait_for(
            lambda: next((r for r in first.final_runs() if r.state.is_final), None),
            900,
            "the final run",
        )
        assert final.state == "completed", final
        [version] = client.model_versions(MODEL)
        assert version.final_run_id == runs[0].id and version.checkpoint_uri, version
        steps.done(f"promoted: model {MODEL} v{version.version}")

        scrape = httpx.get(
            f"{client.url}/metrics", headers={"Authorization": f"Bearer {token}"}, timeout=30
        )
        scrape.raise_for_status()
        for family in (
            "raysweep_results_stored",
            'raysweep_compute_worker_seconds_total{project="default"}',
        ):
            assert family in scrape.text, f"/metrics lacks {family}"
        steps.done("/metrics")

        # a digits_mlp epoch takes ~0.1 s on a warm group: 10 epochs could end before the kill
        # (polled every 2 s, then podman's) landed, and the sweep then restarted nothing
        second = client.submit(small_sweep("e2e-killed-worker", epochs=KILLED_SWEEP_EPOCHS))
        wait_for(lambda: any(t.iteration >= 2 for t in second.trials()), 900, "a trial's epoch 2")
        subprocess.run(shlex.split(kill_worker), check=True, capture_output=True)
        steps.done("killed the Ray worker container mid-sweep")
        time.sleep(5)
        subprocess.run(shlex.split(start_worker), check=True, capture_output=True)
        completed(second, 900)
        check_epochs(client, second, KILLED_SWEEP_EPOCHS)
        restarts = sum(t.restarts for t in second.trials())
        assert restarts >= 1, "no trial restarted after the worker died"
        steps.done(f"worker back; sweep completed ({restarts} restarts)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kill-worker", required=True, help="command that kills the Ray worker")
    parser.add_argument("--start-worker", required=True, help="command that starts it again")
    args = parser.parse_args()
    run(args.kill_worker, args.start_worker)


if __name__ == "__main__":
    main()
