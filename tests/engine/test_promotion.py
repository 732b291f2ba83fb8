"""One finished sweep on one full server, shared by the tests that start from it. The server
drives two Ray clusters, each a head of its own started with `ray start` (its temp dir, token
file, ports): the session's cluster (2 CPUs), the sweep cluster of the sweep's project
(`vision`) alone, and the other (3 CPUs), the final cluster for final runs and Serve and the
shared sweep cluster of every other project; both read the same storage, where the final run
finds the trial's checkpoint.

- automatic promotion of its top trial -> a final run with more workers than the sweep's trials
  (a worker and then the job killed on the way) -> a model version with complete lineage, whose
  checkpoint loads and scores the recorded test metric again, served over HTTP;
- scheduled retraining: the next trial promoted by hand into version 1 of a second model aliased
  `production`; a retrain schedule fires (time moved through the clock file) and trains the
  champion's config longer, which beats it on the held-out test split and takes `production`; a
  second schedule re-tunes from the sweep's best config and retrains it for one epoch, which
  loses and stays the `candidate`, with the comparison recorded."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import torch
from ray.dashboard.modules.serve.sdk import ServeSubmissionClient
from ray.util.state import list_placement_groups

from devkit.clocked_server import FileClock
from raysweep import Client, load_model
from service.engine.cluster import RayConnection, free_port
from tests.conftest import RAY_TESTS, InProcessServer, MigratedTemplates, ServerProcess
from tests.engine.sweeps import (
    all_pages,
    driver_pid,
    ended_sweep,
    final_run_where,
    kill,
    kill_a_train_worker,
    ray_job_id,
    wait_for,
    wait_released,
)
from tests.factories import T0, set_time, submit_spec
from tests.tensorboard_files import assert_epochs_written, read_scalars
from trainers import practices
from trainers.digits_mlp import build_task
from trainers.registry import TRAINERS

pytestmark = RAY_TESTS

FINAL_EPOCHS = 30  # long enough to kill a worker at epoch 2, then the job at 8, before it ends
SPEC: dict[str, Any] = {
    "name": "promote-me",
    "project": "vision",
    "trainer": "digits_mlp",
    "metric": "val_accuracy",
    "mode": "max",
    "search_space": {
        "lr": {"type": "loguniform", "low": 0.003, "high": 0.05},
        "hidden": {"type": "constant", "value": 32},
    },
    "search": {"algorithm": "random", "num_samples": 2, "max_concurrent_trials": 2, "seed": 7},
    "early_stopping": {"scheduler": "none", "max_t": 2},
    "resources": {"num_workers": 1, "cpus_per_worker": 0.5},
    "promotion": {
        "auto": True,
        "num_workers": 2,
        "cpus_per_worker": 0.4,  # the final run's own resources, not the sweep's 0.5
        "max_t_multiple": FINAL_EPOCHS // 2,
        "warm_start": True,
        "model_name": "digits-final",
    },
}


def worker_bundles(ray: RayConnection, submission_id: str) -> list[dict[str, float]]:
    """The per-worker resources of the placement groups the job's Train run holds."""
    groups = list_placement_groups(
        address=ray.address,
        detail=True,
        filters=[("creator_job_id", "=", ray_job_id(ray, submission_id))],
        raise_on_missing_output=False,
    )
    return [
        {k: v for k, v in bundle["unit_resources"].items() if "memory" not in k}
        for group in groups
        if group.state == "CREATED"
        for bundle in group.bundles
    ]


@dataclass(frozen=True)
class FinishedSweep:
    server: ServerProcess
    clock: Path
    experiment_id: str
    trials: list[dict[str, Any]]
    final: RayConnection  # the final cluster, a head apart from the session's sweep cluster


@pytest.fixture(scope="module")
def final_cluster(other_ray_cluster: tuple[RayConnection, str]) -> tuple[RayConnection, str]:
    """The final cluster: the session's other Ray head (``other_ray_cluster``), apart from the
    sweep cluster, with a token file of its own (the token the test process's Ray client also
    holds, so that its state API may look into both clusters)."""
    return other_ray_cluster


@pytest.fixture(scope="module")
def finished_sweep(
    tmp_path_factory: pytest.TempPathFactory,
    migrated_templates: MigratedTemplates,
    ray_cluster: RayConnection,
    final_cluster: tuple[RayConnection, str],
) -> Iterator[FinishedSweep]:
    """A full server on SQLite whose final runs and deployments go to the final cluster,
    "big" (its Jobs address and token in the cluster record), Serve on a free port and time read
    from a clock file; the sweep completed and its automatic promotion queued."""
    final, token = final_cluster
    home = tmp_path_factory.mktemp("promoting")
    db_url = f"sqlite:///{home / 'raysweep.db'}"
    migrated_templates.copy_to(db_url)
    clock = home / "clock"
    set_time(clock, T0)
    clusters = [
        # the project's own sweep cluster is the server's own Ray (the session's cluster); the
        # shared one, every other project's, is the other head: a sweep of the project that
        # went to the shared cluster would run there
        {"name": "vision-sweeps", "role": "sweep", "projects": ["vision"]},
        {"name": "shared", "address": final.address, "token": token, "role": "sweep"},
        {
            "name": "big",
            "address": final.address,
            "token": token,
            "role": "final",
            "max_concurrent_jobs": 1,
        },
    ]
    server = InProcessServer(
        home / "home",
        db_url,
        {
            "RAYSWEEP_RAY_ADDRESS": str(ray_cluster.address),
            "RAYSWEEP_CLUSTERS": json.dumps(clusters),
            "RAYSWEEP_SERVE_PORT": str(free_port()),
        },
        controller=True,
        clock=FileClock(clock),
    ).start()
    try:
        with server.client() as client:
            assert client.post("/api/v1/projects", json={"name": "vision"}).status_code == 201
            experiment_id = submit_spec(client, SPEC)
            experiment, trials = ended_sweep(client, experiment_id, 300)
            assert experiment["state"] == "completed", experiment.get("error")
            # whichever test runs first, the automatic promotion has taken the best trial
            wait_for(
                lambda: client.get(f"/api/v1/experiments/{experiment_id}/final-runs").json()[
                    "total"
                ],
                120,
                "the automatic promotion",
            )
        yield FinishedSweep(server, clock, experiment_id, trials, final)
    finally:
        server.stop()


def test_a_completed_sweep_promotes_its_winner_into_a_registered_model_and_serves_it(
    finished_sweep: FinishedSweep, ray_cluster: RayConnection
) -> None:
    engine_server, experiment_id = finished_sweep.server, finished_sweep.experiment_id
    trials, final_cluster = finished_sweep.trials, finished_sweep.final
    with engine_server.client() as client:
        clusters = client.get("/api/v1/clusters").json()
        assert [(c["name"], c["role"], c["projects"]) for c in clusters] == [
            ("vision-sweeps", "sweep", ["vision"]),
            ("shared", "sweep", []),
            ("big", "final", []),
        ]
        # the project's sweep ran on its own cluster, not on the shared one
        driver = client.get(f"/api/v1/experiments/{experiment_id}").json()["driver_job_id"]
        assert ray_cluster.jobs.get_job_info(driver).submission_id == driver
        with pytest.raises(RuntimeError, match=r"does not exist|404"):
            final_cluster.jobs.get_job_info(driver)
        best = max(trials, key=lambda t: (t["best_metric"], -t["id"]))
        # a killed worker of the final run: Ray Train restarts the group from the checkpoint
        running = wait_for(
            lambda: final_run_where(client, experiment_id, lambda r: r["epoch"] >= 2),
            240,
            "epoch 2",
        )
        bundles = worker_bundles(final_cluster, running["job_id"])
        kill_a_train_worker(final_cluster, running["job_id"])
        # a killed final-run job: the controller resubmits it and it continues the same Train run
        running = wait_for(
            lambda: final_run_where(
                client, experiment_id, lambda r: r["worker_failures"] == 1 and r["epoch"] >= 8
            ),
            240,
            "epoch 8 after the worker restart",
        )
        kill(wait_for(lambda: driver_pid(final_cluster, running["job_id"]), 30, "the job's pid"))
        final = wait_for(
            lambda: final_run_where(
                client, experiment_id, lambda r: r["state"] in ("completed", "failed")
            ),
            300,
            "the final run to end",
        )
        assert final["state"] == "completed", final["error"]
        results = client.get(f"/api/v1/final-runs/{final['id']}/results").json()["items"]
        final_logs = client.get(f"/api/v1/final-runs/{final['id']}/logs").json()
        checkpoints = client.get(f"/api/v1/trials/{best['id']}/checkpoints").json()
        version = client.get("/api/v1/models/digits-final/versions/1").json()
        engine_server_experiment = client.get(f"/api/v1/experiments/{experiment_id}").json()
        board = client.get(f"/api/v1/experiments/{experiment_id}/tensorboard").json()["runs"]
        trial_results = {
            t["id"]: all_pages(client, f"/api/v1/trials/{t['id']}/results") for t in trials
        }
        usage = client.get(
            "/api/v1/usage", params={"experiment": experiment_id, "from": "2000-01-01T00:00:00Z"}
        ).json()
        kinds = [
            e["kind"]
            for e in client.get(f"/api/v1/experiments/{experiment_id}/events").json()["items"]
        ]
    assert {"promoted", "final_run_worker_failed", "final_run_lost", "model_registered"} <= set(
        kinds
    )
    # the kit wrote every epoch of each trial as TensorBoard scalars beside its Train run, with
    # the values the API stored
    logdirs = {run["trial_id"]: run["logdir"] for run in board}
    for trial in trials:
        assert_epochs_written(logdirs[trial["id"]], [1, 2], ("epoch", "val_accuracy"))
        written = read_scalars(logdirs[trial["id"]])["val_accuracy"]
        stored = {r["iteration"]: r["metrics"]["val_accuracy"] for r in trial_results[trial["id"]]}
        assert {p.step: p.value for p in written} == pytest.approx(stored)
    # the winner, trained longer on more workers, with its LR scaled for the larger batch
    assert final["trial_id"] == best["id"] and final["rank"] == 1 and final["cluster"] == "big"
    assert (
        final["num_workers"] == 2 > SPEC["resources"]["num_workers"]
        and final["epochs"] == FINAL_EPOCHS
    )
    assert final["worker_failures"] == 1 and final["restarts"] == 1
    # its workers' output is kept per attempt (the killed worker's group, the restarted one)
    # and rank, and served as a trial's is
    assert len(final_logs["attempts"]) >= 2 and final_logs["ranks"] == [0, 1], final_logs
    assert final_logs["running"] is False
    # the sweep's driver ran on the sweep cluster only, the final run's jobs on the final one
    sweep_job = engine_server_experiment["driver_job_id"]
    assert sweep_job in jobs_of(ray_cluster, engine_server) and sweep_job not in jobs_of(
        final_cluster, engine_server
    )
    assert {running["job_id"], final["job_id"]} <= jobs_of(final_cluster, engine_server)
    assert not {running["job_id"], final["job_id"]} & jobs_of(ray_cluster, engine_server)
    # the ledger counts the final run's worker group (across its job's restart) to its sweep,
    # beside the trials'
    final_held = usage["total"]["worker_seconds"] - sum(
        trial["worker_seconds"] for trial in usage["by_trial"].values()
    )
    assert final_held > 0 and len(usage["by_trial"]) == len(trials), usage
    assert usage["total"]["cpu_seconds"] < usage["total"]["worker_seconds"]  # 0.4 CPU each
    assert final["job_id"] != running["job_id"]
    assert (
        final["config"]["batch_size_per_worker"] == 64
        and final["config"]["lr_reference_batch"] == 64
    )
    # on the promotion's resources, from the trial's best checkpoint (not merely its latest)
    assert final["resources"] == {"use_gpu": False, "cpus_per_worker": 0.4, "gpus_per_worker": 0}
    assert bundles == [{"CPU": 0.4}, {"CPU": 0.4}], bundles
    kept = [c for c in checkpoints if not c["deleted"] and c["metric"] is not None]
    assert final["warm_start_uri"] == max(kept, key=lambda c: (c["metric"], c["iteration"]))["uri"]
    assert [r["iteration"] for r in results] == list(
        range(1, FINAL_EPOCHS + 1)
    )  # none lost or duplicated
    assert all("allreduce_share" in r["metrics"] for r in results)
    # after the one-epoch warmup the LR peaks at the trial's, times sqrt(128 / 64)
    peak = best["config"]["lr"] * 2**0.5
    assert results[0]["metrics"]["lr"] == pytest.approx(peak)
    assert max(r["metrics"]["lr"] for r in results) == pytest.approx(peak)
    # lineage
    assert version["final_run_id"] == final["id"] and version["trial_id"] == best["id"]
    assert version["experiment_id"] == experiment_id and version["trainer"] == "digits_mlp"
    assert version["config"] == final["config"] and version["metrics"]["epoch"] == FINAL_EPOCHS
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
        # served by the final cluster alone
        assert applications(final_cluster) and not applications(ray_cluster)
        assert client.post("/api/v1/models/digits-final/versions/1/deploy").status_code == 200
        # the endpoint answers only to the key the deploy gave, once
        key = {"Authorization": f"Bearer {deployed.json()['key']}"}
        inputs = {"inputs": examples.tolist()}
        refused = httpx.post(running["url"], json=inputs, timeout=30)
        assert refused.status_code == 401 and "Bearer" in refused.json()["error"]
        wrong = {"Authorization": "Bearer not-the-key"}
        assert httpx.post(running["url"], json=inputs, headers=wrong, timeout=30).status_code == 401
        answer = httpx.post(running["url"], json=inputs, headers=key, timeout=30).json()
        local = task.model.eval()(examples)
        assert answer["predictions"] == local.argmax(dim=1).tolist()
        assert torch.allclose(torch.tensor(answer["outputs"]), local.detach(), atol=1e-5)
        bad = httpx.post(running["url"], json={"rows": []}, headers=key, timeout=30)
        assert bad.status_code == 400 and "one row per example" in bad.json()["error"]
        garbled = httpx.post(running["url"], content=b"{not json", headers=key, timeout=30)
        assert garbled.status_code == 400 and "not JSON" in garbled.json()["error"]
        assert client.delete("/api/v1/models/digits-final/versions/1/deploy").status_code == 202
        wait_for(lambda: deployment_in(client, "deleted"), 120, "the deployment to go")
    assert not applications(final_cluster)


def applications(cluster: RayConnection) -> dict[str, Any]:
    """The Serve applications the cluster runs (none where Serve never started)."""
    try:
        details = ServeSubmissionClient(str(cluster.address), headers=cluster.headers)
        return dict(details.get_serve_details().get("applications") or {})
    except Exception:  # no Serve controller on this cluster
        return {}


def jobs_of(cluster: RayConnection, server: ServerProcess) -> set[str]:
    """The cluster's jobs that ``server`` submitted: those whose storage is under its home.
    Other tests' servers use the same Ray heads with databases of their own, whose final runs
    are numbered from 1 too (``raysweep-final-1-0`` may be another test's)."""
    home = str(server.home.resolve())
    return {
        job.submission_id
        for job in cluster.jobs.list_jobs()
        if job.submission_id
        and home in str(((job.runtime_env or {}).get("env_vars") or {}).get("RAYSWEEP_STORAGE_URI"))
    }


def deployment_in(client: httpx.Client, *states: str) -> dict[str, Any] | None:
    response = client.get("/api/v1/models/digits-final/versions/1/deploy")
    if response.status_code == 404 and "deleted" in states:
        return {"state": "deleted"}
    body: dict[str, Any] = response.json()
    return body if body["state"] in states else None


MODEL = "digits-retrain"


def ended_firing(client: httpx.Client, schedule_id: str) -> dict[str, Any] | None:
    firings = client.get(f"/api/v1/schedules/{schedule_id}/firings").json()["items"]
    ended = [f for f in firings if f["outcome"] in ("promoted", "kept", "failed", "cancelled")]
    return ended[0] if ended else None


def first_firing_training(client: httpx.Client, schedule_id: str) -> dict[str, Any] | None:
    """The schedule's first firing once its final run has reported an epoch (it trains)."""
    firings = client.get(f"/api/v1/schedules/{schedule_id}/firings").json()["items"]
    if not firings or firings[-1]["final_run_id"] is None:
        return None
    results = client.get(f"/api/v1/final-runs/{firings[-1]['final_run_id']}/results").json()
    return firings[-1] if results["items"] else None


def final_run_ended(client: httpx.Client, final_run_id: int) -> dict[str, Any] | None:
    run: dict[str, Any] = client.get(f"/api/v1/final-runs/{final_run_id}").json()
    return run if run["state"] in ("completed", "failed", "cancelled") else None


def all_final_runs(client: httpx.Client) -> list[dict[str, Any]]:
    sweeps = client.get("/api/v1/experiments", params={"limit": 500}).json()["items"]
    return [
        run
        for sweep in sweeps
        for run in client.get(f"/api/v1/experiments/{sweep['id']}/final-runs").json()["items"]
    ]


def retrain_schedule(
    client: httpx.Client, name: str, retrain: dict[str, Any], overlap: str = "skip"
) -> str:
    created = client.post(
        "/api/v1/schedules",
        json={"name": name, "cron": "* * * * *", "kind": "retrain", "overlap": overlap,
              "project": "vision", "retrain": {"model": MODEL, **retrain}},
    )  # fmt: skip
    assert created.status_code == 201, created.text
    schedule_id: str = created.json()["id"]
    return schedule_id


def test_a_retrain_promotes_when_better_and_refuses_when_worse(
    finished_sweep: FinishedSweep,
) -> None:
    """Then a long retrain with ``overlap: cancel_previous`` is cancelled by its next due
    time while it trains: the controller stops its Ray job, which leaves nothing in Ray, and the
    next firing's run (queued behind it) is cancelled by hand."""
    server, clock, sweep_id = (
        finished_sweep.server,
        finished_sweep.clock,
        finished_sweep.experiment_id,
    )
    best = max(finished_sweep.trials, key=lambda t: (t["best_metric"], -t["id"]))
    with server.client() as client:
        # the automatic promotion took the best trial; the top 2 by hand adds the other one,
        # as version 1 of a second model: trained from scratch for 2 epochs on one worker
        promoted = client.post(
            f"/api/v1/experiments/{sweep_id}/promote",
            json={"top_k": 2, "epochs": 2, "num_workers": 1, "warm_start": False,
                  "model_name": MODEL},
        )  # fmt: skip
        assert promoted.status_code == 201, promoted.text
        assert [r["rank"] for r in promoted.json()["items"]] == [1, 2]
        wait_for(
            lambda: client.get(f"/api/v1/models/{MODEL}/versions/1").is_success,
            300,
            "version 1 (the sweep's second trial promoted)",
        )
        assert client.put(f"/api/v1/models/{MODEL}/aliases/production", json={"version": 1})
        champion = client.get(f"/api/v1/models/{MODEL}/versions/production").json()
        assert champion["trial_id"] != best["id"]

        # better: the champion's config trained for 12 epochs instead of 2
        better = retrain_schedule(client, "longer", {"epochs": 12})
        set_time(clock, T0 + timedelta(minutes=1))
        firing = wait_for(lambda: ended_firing(client, better), 300, "the better retrain")
        assert firing["outcome"] == "promoted", firing["message"]
        assert client.patch(f"/api/v1/schedules/{better}", json={"enabled": False}).is_success
        run = client.get(f"/api/v1/final-runs/{firing['final_run_id']}").json()
        v2 = client.get(f"/api/v1/models/{MODEL}/versions/production").json()

        # worse: re-tuned from the sweep's best config, then one epoch
        worse = retrain_schedule(
            client, "shorter", {"epochs": 1, "retune": {"num_samples": 1, "warm_start_top": 1}}
        )
        set_time(clock, T0 + timedelta(minutes=2))
        refused = wait_for(lambda: ended_firing(client, worse), 360, "the worse retrain")
        assert refused["outcome"] == "kept", refused["message"]
        assert client.patch(f"/api/v1/schedules/{worse}", json={"enabled": False}).is_success
        retune = client.get(f"/api/v1/experiments/{refused['experiment_id']}").json()
        retune_trials = client.get(f"/api/v1/experiments/{retune['id']}/trials").json()["items"]
        refused_run = client.get(f"/api/v1/final-runs/{refused['final_run_id']}").json()
        v3 = client.get(f"/api/v1/models/{MODEL}/versions/candidate").json()
        production = client.get(f"/api/v1/models/{MODEL}/aliases/production").json()
        models = client.get("/api/v1/models").json()

        # cancelled: 500 epochs would outlast the test; the next due time cancels it once it
        # trains, and its own run waits behind it (the final cluster runs one job at a time)
        longest = retrain_schedule(client, "longest", {"epochs": 500}, "cancel_previous")
        set_time(clock, T0 + timedelta(minutes=3))
        training = wait_for(
            lambda: first_firing_training(client, longest), 120, "the long retrain to train"
        )
        set_time(clock, T0 + timedelta(minutes=4))
        cancelled = wait_for(
            lambda: ended_firing(client, longest), 60, "the next due time to cancel it"
        )
        assert client.patch(f"/api/v1/schedules/{longest}", json={"enabled": False}).is_success
        firings = client.get(f"/api/v1/schedules/{longest}/firings").json()["items"]
        behind = next(f["final_run_id"] for f in firings if f["id"] != cancelled["id"])
        by_hand = client.post(f"/api/v1/final-runs/{behind}/cancel")
        stopped = wait_for(
            lambda: final_run_ended(client, training["final_run_id"]), 120, "its job stopped"
        )
        again = client.post(f"/api/v1/final-runs/{behind}/cancel")
        final_runs = all_final_runs(client)
    assert cancelled["outcome"] == "cancelled", cancelled["message"]
    assert stopped["state"] == "cancelled" and stopped["model_version"] is None
    assert by_hand.status_code == 200 and by_hand.json()["state"] == "cancelled"
    assert again.status_code == 409 and "is cancelled" in again.text
    # no job, actor or placement group left
    wait_released(finished_sweep.final, stopped["job_id"])
    # nothing trains any more: the cluster's one slot is free
    assert not [r["id"] for r in final_runs if r["state"] in ("queued", "running", "cancelling")]

    # the better retrain: the champion's config, retrained from scratch, won on the test split by
    # the sweep's metric (val_accuracy: test_accuracy, higher is better)
    assert run["purpose"] == "retrain" and run["state"] == "completed"
    assert run["config"] == champion["config"] and run["epochs"] == 12
    assert run["warm_start_uri"] is None and run["trial_id"] == champion["trial_id"]
    assert v2["version"] == 2 and v2["final_run_id"] == run["id"]
    assert v2["comparison"]["promoted"] is True and v2["comparison"]["champion_version"] == 1
    assert v2["comparison"]["metric"] == "test_accuracy"
    assert v2["test_metrics"]["test_accuracy"] > champion["test_metrics"]["test_accuracy"]
    assert v2["comparison"]["champion"] == champion["test_metrics"]["test_accuracy"]

    # the worse one: a re-tuning sweep that tried the sweep's best config first
    assert retune["state"] == "completed" and retune["labels"]["schedule"] == "shorter"
    assert [t["config"]["lr"] for t in retune_trials] == [best["config"]["lr"]]
    assert refused_run["experiment_id"] == retune["id"] and refused_run["epochs"] == 1
    assert v3["version"] == 3 and v3["comparison"]["promoted"] is False
    assert v3["comparison"]["champion_version"] == 2
    assert v3["test_metrics"]["test_accuracy"] <= v2["test_metrics"]["test_accuracy"]
    # production never moved to the loser
    assert production["version"] == 2
    assert [h["version"] for h in production["history"]] == [2, 1]
    assert [m for m in models if m["name"] == MODEL] == [
        {"name": MODEL, "project": "vision", "latest_version": 3, "versions": 3,
         "aliases": {"production": 2, "candidate": 3}}
    ]  # fmt: skip
