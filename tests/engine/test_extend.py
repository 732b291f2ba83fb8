"""Extending a completed sweep on real Ray: its completed trials continue from their checkpoints
under their own names (their early epochs are not run again), the new configuration's searcher
knows the stored trials, and the experiment keeps its id, trials and results."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from service.engine.cluster import RayConnection
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import all_pages, ended_sweep, events_of, wait_released
from tests.factories import submit_spec

pytestmark = RAY_TESTS


def extend_spec() -> dict[str, Any]:
    return {
        "name": "digits-extend",
        "trainer": "digits_mlp",
        "metric": "val_accuracy",
        "mode": "max",
        "search_space": {
            "lr": {"type": "loguniform", "low": 1e-4, "high": 0.1},
            "optimizer": {"type": "choice", "values": ["adam", "bogus"]},
            "hidden": {"type": "constant", "value": 32},
            "depth": {"type": "constant", "value": 1},
            "batch_size": {"type": "constant", "value": 64},
        },
        "search": {
            # GP in the driver: saved with the sweep, told the stored trials by the extension
            "algorithm": "gp",
            "num_samples": 2,
            "max_concurrent_trials": 2,
            "seed": 5,
            # one trial completes, one fails (an optimizer the trainer refuses)
            "points_to_evaluate": [
                {"lr": 0.01, "optimizer": "adam"},
                {"lr": 0.02, "optimizer": "bogus"},
            ],
        },
        "early_stopping": {"scheduler": "none", "max_t": 2},
        "resources": {"num_workers": 1, "cpus_per_worker": 0.5},
        "fault_tolerance": {"max_failures": 0, "checkpoint_frequency": 1, "checkpoints_to_keep": 4},
    }


@pytest.mark.parametrize("empty_db_url", ["sqlite"], indirect=True)
def test_an_extended_sweep_continues_its_trials_and_adds_new_ones(
    engine_server: ServerProcess, ray_cluster: RayConnection, tmp_path: Path
) -> None:
    with engine_server.client() as client:
        experiment_id = submit_spec(client, extend_spec())
        first, old_trials = ended_sweep(client, experiment_id, 300)
        assert first["state"] == "completed", first["error"]
        first_job = first["driver_job_id"]
        old_results = {
            t["id"]: all_pages(client, f"/api/v1/trials/{t['id']}/results") for t in old_trials
        }

        answer = client.post(
            f"/api/v1/experiments/{experiment_id}/extend", json={"num_samples": 3, "max_t": 4}
        )
        assert answer.status_code == 200, answer.text
        experiment, trials = ended_sweep(client, experiment_id, 300)
        results = {t["id"]: all_pages(client, f"/api/v1/trials/{t['id']}/results") for t in trials}
        events = [e["kind"] for e in events_of(client, experiment_id)]
        logs = ray_cluster.jobs.get_job_logs(experiment["driver_job_id"])

    assert experiment["state"] == "completed", experiment["error"]
    assert experiment["id"] == experiment_id and experiment["extensions"] == 1
    assert "extended" in events and events.count("completed") == 2
    assert len(trials) == 3
    by_id = {t["id"]: t for t in trials}
    done = next(t for t in old_trials if t["state"] == "completed")
    failed = next(t for t in old_trials if t["state"] == "failed")
    # the completed trial continued to the new budget: the same trial, its first two epochs the
    # ones stored before (ended_sweep checked every trial's epochs contiguous, none twice)
    assert by_id[done["id"]]["tune_trial_id"] == done["tune_trial_id"]
    assert by_id[done["id"]]["iteration"] == 4 and by_id[done["id"]]["state"] == "completed"
    assert results[done["id"]][:2] == old_results[done["id"]]
    # the failed one stays failed, and its config is known to the new configuration's searcher
    assert by_id[failed["id"]] == failed
    new = next(t for t in trials if t["id"] not in old_results)
    assert new["config"] not in ({**t["config"]} for t in old_trials)
    assert new["state"] in ("completed", "failed") and new["iteration"] in (0, 4)
    assert "extension 1: 1 trial(s) continue, 1 known to the searcher, 1 new" in logs
    # no Train run under another name: nothing was started again from scratch
    storage = Path(engine_server.home) / "storage" / experiment_id / "train"
    ran = {p.name for p in storage.iterdir()}
    assert done["tune_trial_id"] in ran and ran <= {t["tune_trial_id"] for t in trials}
    wait_released(ray_cluster, first_job)
    wait_released(ray_cluster, experiment["driver_job_id"])
