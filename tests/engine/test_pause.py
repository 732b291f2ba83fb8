"""Pause and resume a real sweep: paused leaves nothing in Ray, resume continues from Tune's
state and the trials' checkpoints, and nothing is lost or stored twice."""

from __future__ import annotations

import time

import pytest

from service.engine.cluster import RayConnection
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import (
    ended_sweep,
    events_of,
    experiment_state,
    fault_spec,
    trials_of,
    wait_for,
    wait_released,
)
from tests.factories import submit_spec

pytestmark = RAY_TESTS


@pytest.mark.parametrize("empty_db_url", ["postgres"], indirect=True)
def test_pause_stops_the_sweep_after_a_checkpoint_and_resume_finishes_it(
    engine_server: ServerProcess, ray_cluster: RayConnection
) -> None:
    spec = fault_spec(
        search={"algorithm": "grid", "num_samples": 1, "max_concurrent_trials": 2},
        early_stopping={"scheduler": "none", "max_t": 8},
        fault_tolerance={"max_failures": 0, "checkpoint_frequency": 1, "checkpoints_to_keep": 2},
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
        experiment, trials = ended_sweep(client, experiment_id, 300, "the resumed sweep to end")
        events = [e["kind"] for e in events_of(client, experiment_id)]

    assert paused["finished_at"] is None
    # trials may progress unevenly on 2 cores: one can have finished before the pause
    waiting = [t for t in at_pause if t["state"] != "completed"]
    assert waiting and all(t["state"] == "pending" for t in waiting), at_pause
    assert all(t["iteration"] >= 2 for t in at_pause)
    assert experiment["state"] == "completed", experiment["error"]
    assert experiment["driver_restarts"] == 0  # a resume is not a restart
    assert len(trials) == 2 and all(t["state"] == "completed" for t in trials), trials
    assert all(t["iteration"] == 8 and t["restarts"] == 0 for t in trials)
    assert events.count("driver_submitted") == 2
    order = [events.index(k) for k in ("pause_requested", "paused", "resume_requested")]
    assert order == sorted(order)
    assert events.count("trial_resumed") == len(waiting)
