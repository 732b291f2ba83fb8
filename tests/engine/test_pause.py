"""Pause, resume and cancel one real sweep of uploaded code (the torch-free scripted trainer,
its own checkpoints, default retention): paused leaves nothing in Ray, resume continues from
Tune's state and the trials' checkpoints with nothing lost or stored twice, and a cancel ends it
promptly and leaves nothing in Ray either. (Bundled trainers resume through the same driver
restore: the driver-loss test in test_promotion_asha.py.)"""

from __future__ import annotations

import time

import pytest

from service.engine.cluster import RayConnection
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import (
    check_nothing_leaked,
    check_results_contiguous,
    check_torch_never_loaded,
    events_of,
    experiment_state,
    fault_spec,
    scripted_package,
    trials_of,
    wait_for,
    wait_released,
)
from tests.factories import submit_spec

pytestmark = RAY_TESTS


@pytest.mark.parametrize("empty_db_url", ["postgres"], indirect=True)
def test_pause_stops_after_a_checkpoint_resume_continues_and_cancel_ends_the_sweep(
    engine_server: ServerProcess, ray_cluster: RayConnection
) -> None:
    package = scripted_package(engine_server)
    spec = fault_spec(
        package,
        search_space={
            "lr": {"type": "grid", "values": [0.01, 0.05]},
            "epoch_s": {"type": "constant", "value": 0.5},
        },
        search={"algorithm": "grid", "num_samples": 1, "max_concurrent_trials": 2},
        # longer than the test: both trials are still training when it cancels them
        early_stopping={"scheduler": "none", "max_t": 100_000},
        resources={"num_workers": 1, "cpus_per_worker": 0.5},  # both trials at once
        fault_tolerance={"max_failures": 0, "checkpoint_frequency": 1, "checkpoints_to_keep": 1},
    )
    with engine_server.client() as client:
        experiment_id = submit_spec(client, spec)
        url = f"/api/v1/experiments/{experiment_id}"

        def both_reported() -> bool:
            trials = trials_of(client, experiment_id)
            return len(trials) == 2 and all(t["iteration"] >= 2 for t in trials)

        wait_for(both_reported, 240, "both trials to report twice")
        job = client.get(url).json()["driver_job_id"]
        first, again = client.post(f"{url}/pause"), client.post(f"{url}/pause")
        assert first.status_code == again.status_code == 200
        assert first.json()["state"] == again.json()["state"] == "pausing"
        paused = wait_for(lambda: experiment_state(client, experiment_id, "paused"), 90, "paused")
        wait_released(ray_cluster, job)
        at_pause = trials_of(client, experiment_id)
        time.sleep(3)
        assert trials_of(client, experiment_id) == at_pause  # nothing runs while paused

        resumed = client.post(f"{url}/resume")
        assert resumed.status_code == 200 and resumed.json()["state"] == "queued"

        def resumed_trials() -> int:
            return [e["kind"] for e in events_of(client, experiment_id)].count("trial_resumed")

        # the new driver may first store epochs the old one trained but had not stored: wait
        # for both trials to run again, then for each to train an epoch more
        wait_for(lambda: resumed_trials() == 2, 240, "both trials to resume")
        resumed_at = {t["id"]: t["iteration"] for t in trials_of(client, experiment_id)}

        def both_trained_on() -> bool:
            trials = trials_of(client, experiment_id)
            return all(t["iteration"] > resumed_at[t["id"]] for t in trials)

        wait_for(both_trained_on, 120, "both trials to train on after resuming")
        running = client.get(url).json()
        asked = time.monotonic()
        cancel = client.post(f"{url}/cancel")
        assert cancel.status_code == 200 and cancel.json()["state"] == "cancelling"
        experiment = wait_for(
            lambda: experiment_state(client, experiment_id, "cancelled"), 60, "cancelled"
        )
        took = time.monotonic() - asked
        trials = trials_of(client, experiment_id)
        # resumed from the code's own checkpoints: no epoch lost or stored twice
        check_results_contiguous(client, trials, metric="loss")
        check_torch_never_loaded(client, trials)  # code.process_group: none
        check_nothing_leaked(client, experiment_id)  # the cancelled trials' groups went too
        events = [e["kind"] for e in events_of(client, experiment_id)]

        # the controller has seen the (fixed-size) cluster by now: a sweep whose one trial it
        # can never place is refused, naming the resources, and nothing is stored
        too_big = fault_spec(package, resources={"num_workers": 3, "cpus_per_worker": 1.0})
        refused = client.post("/api/v1/experiments", json=too_big)
        listed = client.get("/api/v1/experiments").json()["total"]

    assert paused["finished_at"] is None
    assert all(t["state"] == "pending" and t["iteration"] >= 2 for t in at_pause), at_pause
    # a resume is not a restart: the same sweep in a new driver job
    assert running["state"] == "running" and running["driver_restarts"] == 0
    assert running["driver_job_id"] != job
    assert events.count("driver_submitted") == 2 and events.count("trial_resumed") == 2
    order = [events.index(k) for k in ("pause_requested", "paused", "resume_requested")]
    assert order == sorted(order)

    assert took < 60 and experiment["finished_at"] is not None
    assert len(trials) == 2 and all(t["state"] == "cancelled" for t in trials), trials
    assert refused.status_code == 422, refused.text
    (problem,) = refused.json()["error"]["details"]
    assert problem["path"] == "resources" and "{CPU: 3} in all" in problem["message"], problem
    assert "has {CPU: 2} on 1 node(s)" in problem["message"] and listed == 1
    wait_released(ray_cluster, running["driver_job_id"])
