"""Real sweeps through REST on the shared Ray cluster, of the torch-free scripted trainer: ASHA's
pruned, completed and failed trials, and a sweep stopped on convergence (cancel is tested with
pause, in test_pause.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from service.engine.cluster import RayConnection
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import (
    all_pages,
    check_nothing_leaked,
    ended_sweep,
    events_of,
    experiment_state,
    fault_spec,
    scripted_package,
    wait_for,
    wait_released,
)
from tests.factories import submit_spec
from tests.packages import scripted_code

pytestmark = RAY_TESTS


def sweep_spec(package: str) -> dict[str, Any]:
    """ASHA over the scripted trainer (ASHA's decisions are what is tested, not training)."""
    return {
        "name": "scripted-asha",
        "code": scripted_code(package),
        "metric": "loss",
        "mode": "min",
        # a wide lr range and a broken optimizer value: some trials are clearly bad, one fails
        "search_space": {
            "lr": {"type": "loguniform", "low": 1e-5, "high": 0.1},
            "optimizer": {"type": "choice", "values": ["adam", "sgd", "bogus"]},
            "epoch_s": {"type": "constant", "value": 0.5},
        },
        "search": {
            "algorithm": "tpe",
            # the four points only: one completes, one fails, the slow sgd ones are pruned
            "num_samples": 4,
            "max_concurrent_trials": 2,
            "seed": 0,
            "points_to_evaluate": [
                {"lr": 0.02, "optimizer": "adam"},
                {"lr": 0.01, "optimizer": "bogus"},
                {"lr": 1e-5, "optimizer": "sgd"},
                {"lr": 2e-5, "optimizer": "sgd"},
            ],
        },
        "early_stopping": {
            "scheduler": "asha",
            "max_t": 4,
            "grace_period": 1,
            "reduction_factor": 2,
        },
        # one worker: ASHA's decisions are what is tested, not DDP (the trainer and fault tests)
        "resources": {"num_workers": 1, "cpus_per_worker": 0.5},
        "fault_tolerance": {"max_failures": 0, "checkpoint_frequency": 1, "checkpoints_to_keep": 2},
    }


@pytest.mark.parametrize("empty_db_url", ["postgres"], indirect=True)
def test_asha_sweep_completes_with_pruned_completed_and_failed_trials(
    engine_server: ServerProcess, ray_cluster: RayConnection
) -> None:
    with engine_server.client() as client:
        created = client.post(
            "/api/v1/experiments", json=sweep_spec(scripted_package(engine_server))
        )
        assert created.status_code == 201, created.text
        experiment_id = created.json()["id"]
        experiment = wait_for(
            lambda: experiment_state(client, experiment_id, "completed", "failed"),
            420,
            "the sweep to finish",
        )
        trials = all_pages(client, f"/api/v1/experiments/{experiment_id}/trials")
        results = {t["id"]: all_pages(client, f"/api/v1/trials/{t['id']}/results") for t in trials}
        events = [
            e["kind"] for e in all_pages(client, f"/api/v1/experiments/{experiment_id}/events")
        ]
        decisions = {
            t["id"]: client.get(f"/api/v1/trials/{t['id']}/decisions").json() for t in trials
        }
        rungs = client.get(f"/api/v1/experiments/{experiment_id}/rungs").json()["rungs"]
        check_nothing_leaked(client, experiment_id)
        job = client.get(f"/api/v1/experiments/{experiment_id}").json()["driver_job_id"]
    wait_released(ray_cluster, job)

    assert experiment["state"] == "completed", experiment["error"]
    assert len(trials) == 4
    # Tune's result files in its trials' directories, without its TensorBoard logger's (the
    # driver is spared importing torch; the kit writes the trials' TensorBoard scalars)
    tune_run = Path(engine_server.home) / "storage" / experiment_id
    trial_dirs = [d for d in tune_run.iterdir() if (d / "result.json").is_file()]
    reported = [d for d in trial_dirs if (d / "result.json").stat().st_size > 0]
    assert len(trial_dirs) == 4 and len(reported) == sum(bool(r) for r in results.values())
    assert all((d / "progress.csv").is_file() for d in reported)
    assert [f for d in trial_dirs for f in d.glob("events.out.tfevents.*")] == []
    states = [t["state"] for t in trials]
    assert states.count("failed") == 1 and "pruned" in states and "completed" in states
    assert set(states) <= {"completed", "pruned", "failed"}

    failed = next(t for t in trials if t["state"] == "failed")
    assert failed["config"]["optimizer"] == "bogus"
    assert "optimizer must be one of sgd, adam; got 'bogus'" in failed["error"]

    for trial in trials:
        iterations = [r["iteration"] for r in results[trial["id"]]]
        assert iterations == list(range(1, len(iterations) + 1)), trial  # contiguous, no dupes
        assert trial["iteration"] == len(iterations) <= 4  # none runs past max_t
        if trial["state"] == "completed":
            assert iterations == [1, 2, 3, 4]
            assert trial["checkpoint_uri"] and Path(trial["checkpoint_uri"]).is_dir()
        if trial["state"] == "pruned":
            assert len(iterations) < 4
            # ASHA's decision, stored when it was made, says why and agrees with itself
            stop = decisions[trial["id"]][-1]
            assert stop["decision"] == "stop" and stop["milestone"] <= trial["iteration"]
            assert stop["value"] > stop["cutoff"] and trial["early_stopping"] == stop["reason"]
        else:
            assert all(d["decision"] in ("continue", "complete") for d in decisions[trial["id"]])
        assert all(
            {"epoch", "loss", "torch_loaded"} <= set(r["metrics"]) for r in results[trial["id"]]
        )

    best_stored = min(r["metrics"]["loss"] for rs in results.values() for r in rs)
    assert experiment["best_metric"] == pytest.approx(best_stored)
    assert experiment["best_trial"]["best_metric"] == pytest.approx(best_stored)
    assert experiment["trial_counts"] == {s: states.count(s) for s in set(states)}
    made = [d for ds in decisions.values() for d in ds]
    for rung in rungs:
        assert rung["stopped"] == sum(
            d["milestone"] == rung["milestone"] and d["decision"] == "stop" for d in made
        )
    assert {
        "driver_submitted",
        "trial_started",
        "trial_pruned",
        "trial_failed",
        "completed",
    } <= set(events)


def test_a_converged_sweep_ends_early_and_cancels_what_still_runs(
    engine_server: ServerProcess, ray_cluster: RayConnection
) -> None:
    """stop.converged on real Ray: once min_trials have completed, the driver asks Optuna's
    terminator (a threshold this large judges any regret bound converged); the sweep completes
    with the reason, the trials still running are cancelled and nothing is left in Ray."""
    spec = fault_spec(
        scripted_package(engine_server),
        search_space={"lr": {"type": "loguniform", "low": 1e-5, "high": 0.1}},
        search={"algorithm": "random", "num_samples": 20, "max_concurrent_trials": 2, "seed": 2},
        early_stopping={"scheduler": "none", "max_t": 1},
        stop={"converged": {"min_trials": 4, "threshold_ratio": 1e6}},
        fault_tolerance={"max_failures": 0, "checkpoint_frequency": 1, "checkpoints_to_keep": 1},
    )
    with engine_server.client() as client:
        experiment_id = submit_spec(client, spec)
        experiment, trials = ended_sweep(client, experiment_id, 420, metric="loss")
        events = events_of(client, experiment_id)

    assert experiment["state"] == "completed", experiment["error"]
    states = [t["state"] for t in trials]
    assert set(states) <= {"completed", "cancelled"}, states
    (converged,) = [e for e in events if e["kind"] == "converged"]
    judged = int(converged["message"].split("converged after ", 1)[1].split()[0])
    # judged on the first four (or a few more that completed before it was asked), and the
    # sweep ended long before its 20 samples
    assert 4 <= judged <= states.count("completed") < 20 and len(trials) < 20
    assert "regret bound" in converged["message"]
    wait_released(ray_cluster, experiment["driver_job_id"])
