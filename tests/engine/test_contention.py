"""Sweeps always finish under contention: the reproduction of the hung sweep, made
deterministic, with three sweeps at once, a CPU-stressed machine and a trial no cluster of this
size can hold.

On the 2-CPU head three trials of 2 x 0.5 CPU (each 1 CPU with its function's share) from two
sweeps cannot all run at once. Ray Train's worker-group start timeout is cut to 5 s, far below a
trial's length, so a Train run that Ray started without room for its workers would time out,
and (before the gate) retry without end. With the gate each trial waits for its lease, visibly,
and runs when one ends."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.engine.cluster import RayConnection
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import (
    ended_sweep,
    events_of,
    grid_spec,
    scripted_package,
    trials_of,
    wait_for,
    wait_released,
)

pytestmark = RAY_TESTS

# one core busy for at most this long, whatever happens to the test
STRESS_S = 420


@pytest.fixture
def cpu_stress() -> Iterator[None]:
    """A bounded busy loop on one core for the length of the test."""
    loop = f"import time\nend = time.time() + {STRESS_S}\nwhile time.time() < end:\n    pass\n"
    process = subprocess.Popen([sys.executable, "-c", loop])
    yield
    process.kill()
    process.wait()


@pytest.fixture
def contended_server(
    db_url: str, tmp_path: Path, ray_cluster: RayConnection
) -> Iterator[ServerProcess]:
    """Three sweeps at once on the shared head, marked autoscaling with a 5 s resource wait, and
    Ray Train's worker-group start timeout at 5 s in every job."""
    process = ServerProcess(
        tmp_path / "home",
        db_url,
        {
            "RAYSWEEP_RAY_ADDRESS": str(ray_cluster.address),
            "RAYSWEEP_MAX_CONCURRENT_SWEEPS": "3",
            "RAYSWEEP_CLUSTERS": json.dumps([{"name": "local", "autoscaling": True}]),
            "RAYSWEEP_TRIAL_RESOURCE_WAIT_S": "5",
            "RAY_TRAIN_WORKER_GROUP_START_TIMEOUT_S": "5",
        },
    ).start()
    yield process
    process.stop()


def submit(client: httpx.Client, spec: dict[str, Any]) -> str:
    created = client.post("/api/v1/experiments", json=spec)
    assert created.status_code == 201, created.text
    experiment_id: str = created.json()["id"]
    return experiment_id


def test_sweeps_that_cannot_all_fit_wait_their_turn_and_all_finish_under_cpu_stress(
    contended_server: ServerProcess, ray_cluster: RayConnection, cpu_stress: None
) -> None:
    package = scripted_package(contended_server)
    with contended_server.client() as client:
        two = submit(client, grid_spec("two-at-once", [0.01, 0.02], package))
        beside = submit(client, grid_spec("beside", [0.02], package))
        # 3 workers x 1 CPU: more than the 2-CPU head has; the cluster is marked autoscaling,
        # so its trial waits 5 s for the cluster to grow, then fails with the reason
        too_big = submit(
            client,
            grid_spec(
                "too-big", [0.01], package, resources={"num_workers": 3, "cpus_per_worker": 1}
            ),
        )
        sweeps = [two, beside]
        seen_waiting: list[str] = []

        def all_ended() -> bool:
            states = []
            for experiment_id in [*sweeps, too_big]:
                read = client.get(f"/api/v1/experiments/{experiment_id}").json()
                states.append(read["state"])
                seen_waiting.extend(
                    t["waiting_for"] for t in trials_of(client, experiment_id) if t["waiting_for"]
                )
            return all(state in ("completed", "failed") for state in states)

        wait_for(all_ended, 600, "all three sweeps to end")
        ended = {e: ended_sweep(client, e, 10, metric="loss") for e in [*sweeps, too_big]}
        events = {e: events_of(client, e) for e in sweeps}
        jobs = [client.get(f"/api/v1/experiments/{e}").json()["driver_job_id"] for e in ended]

    for experiment_id in sweeps:
        experiment, trials = ended[experiment_id]
        assert experiment["state"] == "completed", experiment["error"]
        assert trials and all(
            t["state"] == "completed" and t["iteration"] == 2 and t["waiting_for"] is None
            for t in trials
        ), trials
    assert len(ended[two][1]) == 2

    # the waits were shown while they lasted, and recorded as events
    assert any("waiting for resources: needs 2 worker(s) x {CPU: 0.5}" in w for w in seen_waiting)
    waited = [e for es in events.values() for e in es if e["kind"] == "trial_waiting"]
    assert waited and all("free {CPU:" in e["message"] for e in waited), waited

    # its only trial failed: a sweep none of whose trials completed has failed, and says why
    experiment, (trial,) = ended[too_big]
    assert experiment["state"] == "failed"
    assert experiment["error"].startswith("no trial completed (1 failed); the first failure: ")
    assert "cannot place 3 worker(s) x {CPU: 1}" in experiment["error"]
    assert trial["state"] == "failed" and trial["iteration"] == 0
    assert "cannot place 3 worker(s) x {CPU: 1}" in trial["error"], trial["error"]
    assert "it has {CPU: 2} on 1 node(s)" in trial["error"]
    assert "waited 5s (RAYSWEEP_TRIAL_RESOURCE_WAIT_S)" in trial["error"]

    for job in jobs:
        wait_released(ray_cluster, job)
