"""Sweep -> automatic promotion of the top trial -> a final run with more workers than the
sweep's trials -> a model version with complete lineage, whose checkpoint loads and scores the
recorded test metric again."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import torch
from ray.dashboard.modules.serve.sdk import ServeSubmissionClient

from raysweep import Client, load_model
from service.engine.cluster import RayConnection, free_port
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import driver_pid, ended_sweep, kill, kill_a_train_worker, wait_for
from trainers import practices
from trainers.digits_mlp import build_task
from trainers.registry import TRAINERS

pytestmark = RAY_TESTS

SPEC: dict[str, Any] = {
    "name": "promote-me",
    "trainer": "digits_mlp",
    "metric": "val_accuracy",
    "mode": "max",
    "search_space": {
        "lr": {"type": "grid", "values": [0.003, 0.03]},
        "hidden": {"type": "constant", "value": 32},
    },
    "search": {"algorithm": "grid", "num_samples": 1, "max_concurrent_trials": 2},
    "early_stopping": {"scheduler": "none", "max_t": 2},
    "resources": {"num_workers": 1, "cpus_per_worker": 0.5},
    "promotion": {
        "auto": True,
        "num_workers": 2,
        "max_t_multiple": 15,
        "warm_start": True,
        "model_name": "digits-final",
    },
}


@pytest.fixture
def final_cluster_server(
    db_url: str, tmp_path: Path, ray_cluster: RayConnection
) -> Iterator[ServerProcess]:
    """A full server whose final runs and deployments go to a second cluster record, "big"
    (here the same Ray cluster under its own Jobs address), and Serve on a free port."""
    clusters = [
        {"name": "sweeps", "role": "sweep"},
        {"name": "big", "address": ray_cluster.address, "role": "final", "max_concurrent_jobs": 1},
    ]
    process = ServerProcess(
        tmp_path / "home",
        db_url,
        {
            "RAYSWEEP_RAY_ADDRESS": str(ray_cluster.address),
            "RAYSWEEP_CLUSTERS": json.dumps(clusters),
            "RAYSWEEP_SERVE_PORT": str(free_port()),
        },
    ).start()
    yield process
    process.stop()


@pytest.mark.parametrize("empty_db_url", ["sqlite"], indirect=True)
def test_a_completed_sweep_promotes_its_winner_into_a_registered_model_and_serves_it(
    final_cluster_server: ServerProcess, ray_cluster: RayConnection
) -> None:
    engine_server = final_cluster_server
    with engine_server.client() as client:
        clusters = client.get("/api/v1/clusters").json()
        assert [(c["name"], c["role"]) for c in clusters] == [("sweeps", "sweep"), ("big", "final")]
        created = client.post("/api/v1/experiments", json=SPEC)
        assert created.status_code == 201, created.text
        experiment_id = created.json()["id"]
        experiment, trials = ended_sweep(client, experiment_id, 300)
        assert experiment["state"] == "completed", experiment.get("error")
        best = max(trials, key=lambda t: (t["best_metric"], -t["id"]))
        # a killed worker of the final run: Ray Train restarts the group from the checkpoint
        running = wait_for(
            lambda: final_run_where(client, experiment_id, lambda r: r["epoch"] >= 2),
            240,
            "epoch 2",
        )
        kill_a_train_worker(ray_cluster, running["job_id"])
        # a killed final-run job: the controller resubmits it and it continues the same Train run
        running = wait_for(
            lambda: final_run_where(
                client, experiment_id, lambda r: r["worker_failures"] == 1 and r["epoch"] >= 8
            ),
            240,
            "epoch 8 after the worker restart",
        )
        kill(wait_for(lambda: driver_pid(ray_cluster, running["job_id"]), 30, "the job's pid"))
        final = wait_for(
            lambda: final_run_where(
                client, experiment_id, lambda r: r["state"] in ("completed", "failed")
            ),
            300,
            "the final run to end",
        )
        assert final["state"] == "completed", final["error"]
        results = client.get(f"/api/v1/final-runs/{final['id']}/results").json()["items"]
        version = client.get("/api/v1/models/digits-final/versions/1").json()
        kinds = [
            e["kind"]
            for e in client.get(f"/api/v1/experiments/{experiment_id}/events").json()["items"]
        ]
    assert {"promoted", "final_run_worker_failed", "final_run_lost", "model_registered"} <= set(
        kinds
    )
    # the winner, trained longer on more workers, with its LR scaled for the larger batch
    assert final["trial_id"] == best["id"] and final["rank"] == 1 and final["cluster"] == "big"
    assert final["num_workers"] == 2 > SPEC["resources"]["num_workers"] and final["epochs"] == 30
    assert final["worker_failures"] == 1 and final["restarts"] == 1
    assert final["job_id"] != running["job_id"]
    assert (
        final["config"]["batch_size_per_worker"] == 64
        and final["config"]["lr_reference_batch"] == 64
    )
    assert final["warm_start_uri"] == best["checkpoint_uri"]
    assert [r["iteration"] for r in results] == list(range(1, 31))  # none lost or duplicated
    assert all("allreduce_share" in r["metrics"] for r in results)
    # after the one-epoch warmup the LR peaks at the trial's, times sqrt(128 / 64)
    peak = best["config"]["lr"] * 2**0.5
    assert results[0]["metrics"]["lr"] == pytest.approx(peak)
    assert max(r["metrics"]["lr"] for r in results) == pytest.approx(peak)
    # lineage
    assert version["final_run_id"] == final["id"] and version["trial_id"] == best["id"]
    assert version["experiment_id"] == experiment_id and version["trainer"] == "digits_mlp"
    assert version["config"] == final["config"] and version["metrics"]["epoch"] == 30
    assert set(version["test_metrics"]) == {"test_loss", "test_accuracy"}
    assert version["test_metrics"]["test_accuracy"] > 0.5
    assert version["code_version"]["raysweep"] and len(version["code_version"]["git_commit"]) == 40
    info = TRAINERS["digits_mlp"]
    task = build_task({**info.defaults, **version["config"]})
    assert version["data_fingerprint"] == practices.data_fingerprint(task.splits)
    # the registered checkpoint loads and scores the recorded test metrics again
    state = torch.load(Path(version["checkpoint_uri"]) / "state.pt", weights_only=False)
    task.model.load_state_dict(state["model"])
    scored = practices.evaluate(task.model, task, task.splits["test"], torch.device("cpu"))
    assert scored["accuracy"] == pytest.approx(version["test_metrics"]["test_accuracy"])
    assert scored["loss"] == pytest.approx(version["test_metrics"]["test_loss"], rel=1e-6)

    # the SDK loads the same trained module
    sdk = Client(engine_server.url, engine_server.admin_token)
    with engine_server.client() as client:
        assert client.put(
            "/api/v1/models/digits-final/aliases/prod", json={"version": 1}
        ).is_success
    loaded = load_model("digits-final", "prod", client=sdk)
    examples = task.splits["test"].inputs[:5]
    assert torch.equal(loaded(examples), task.model.eval()(examples))

    # serve it: predictions over HTTP equal local inference; undeploying leaves no application
    with engine_server.client() as client:
        deployed = client.post("/api/v1/models/digits-final/versions/1/deploy")
        assert deployed.status_code == 202, deployed.text
        running = wait_for(
            lambda: deployment_in(client, "running", "failed"), 180, "the deployment to run"
        )
        assert running["state"] == "running", running["error"]
        assert client.post("/api/v1/models/digits-final/versions/1/deploy").status_code == 200
        answer = httpx.post(running["url"], json={"inputs": examples.tolist()}, timeout=30).json()
        local = task.model.eval()(examples)
        assert answer["predictions"] == local.argmax(dim=1).tolist()
        assert torch.allclose(torch.tensor(answer["outputs"]), local.detach(), atol=1e-5)
        assert "error" in httpx.post(running["url"], json={"rows": []}, timeout=30).json()
        assert client.delete("/api/v1/models/digits-final/versions/1/deploy").status_code == 202
        wait_for(lambda: deployment_in(client, "deleted"), 120, "the deployment to go")
    serve = ServeSubmissionClient(str(engine_server.env["RAYSWEEP_RAY_ADDRESS"]))
    assert not (serve.get_serve_details().get("applications") or {})


def deployment_in(client: httpx.Client, *states: str) -> dict[str, Any] | None:
    response = client.get("/api/v1/models/digits-final/versions/1/deploy")
    if response.status_code == 404 and "deleted" in states:
        return {"state": "deleted"}
    body: dict[str, Any] = response.json()
    return body if body["state"] in states else None


def final_run_where(
    client: httpx.Client, experiment_id: str, check: Callable[[dict[str, Any]], bool]
) -> dict[str, Any] | None:
    """The experiment's first final run that has a job and passes ``check`` (which also sees
    its last reported ``epoch``, 0 before the first)."""
    for run in client.get(f"/api/v1/experiments/{experiment_id}/final-runs").json()["items"]:
        view = {**run, "epoch": (run["metrics"] or {}).get("epoch", 0)}
        if run["job_id"] and check(view):
            return run
    return None
