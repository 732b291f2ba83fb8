"""Helpers for engine tests: polling, paging the REST API, finding and killing Ray processes,
and the checks every fault test makes on the stored records."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from typing import Any, TypeVar

import httpx
from ray.util.state import list_actors, list_placement_groups

from devkit.harness import ServerProcess, alive_actors, kill, wait_for
from service.engine.cluster import RayConnection
from service.engine.leftovers import CLUSTER_SINGLETONS
from tests.packages import SCRIPTED_TRAINER, scripted_code, zip_of

T = TypeVar("T")
# detached actors Ray creates once per cluster, owned by whichever job needed them first
TRAIN_WORKER = "RayTrainWorker"


def upload_code(server: ServerProcess, files: dict[str, str]) -> str:
    """Uploads a code package of {path: source}; returns its sha256."""
    with server.client() as client:
        response = client.post(
            "/api/v1/code", content=zip_of(files), headers={"Content-Type": "application/zip"}
        )
    assert response.status_code == 201, response.text
    sha: str = response.json()["sha256"]
    return sha


def all_pages(client: httpx.Client, path: str, **params: Any) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    while True:
        page = client.get(path, params={**params, "offset": len(items), "limit": 500}).json()
        items += page["items"]
        if len(items) >= page["total"]:
            return items


def experiment_state(
    client: httpx.Client, experiment_id: str, *states: str
) -> dict[str, Any] | None:
    body: dict[str, Any] = client.get(f"/api/v1/experiments/{experiment_id}").json()
    return body if body["state"] in states else None


def trials_of(client: httpx.Client, experiment_id: str) -> list[dict[str, Any]]:
    return sorted(
        all_pages(client, f"/api/v1/experiments/{experiment_id}/trials"), key=lambda t: t["id"]
    )


def events_of(client: httpx.Client, experiment_id: str) -> list[dict[str, Any]]:
    return all_pages(client, f"/api/v1/experiments/{experiment_id}/events")


def check_results_contiguous(
    client: httpx.Client, trials: list[dict[str, Any]], metric: str = "val_accuracy"
) -> None:
    """Each trial's stored iterations run 1..n with no gap and no duplicate, n = its iteration."""
    for trial in trials:
        results = all_pages(client, f"/api/v1/trials/{trial['id']}/results")
        iterations = [r["iteration"] for r in results]
        assert iterations == list(range(1, len(iterations) + 1)), (trial, iterations)
        assert trial["iteration"] == len(iterations), trial
        assert all(metric in r["metrics"] for r in results)


def check_torch_never_loaded(client: httpx.Client, trials: list[dict[str, Any]]) -> None:
    """Every result of the scripted trainer's trials says its worker process had not imported
    torch (``code.process_group: none``: nothing raysweep or Ray Train runs there loads it)."""
    for trial in trials:
        results = all_pages(client, f"/api/v1/trials/{trial['id']}/results")
        loaded = {r["metrics"]["torch_loaded"] for r in results}
        assert results and loaded == {0.0}, (trial, loaded)


def ended_sweep(
    client: httpx.Client,
    experiment_id: str,
    timeout_s: float,
    what: str = "the sweep to end",
    metric: str = "val_accuracy",
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Wait until the sweep is completed or failed; return it and its trials, each trial's
    results checked to be contiguous from 1 with no duplicate."""
    experiment = wait_for(
        lambda: experiment_state(client, experiment_id, "completed", "failed"), timeout_s, what
    )
    trials = trials_of(client, experiment_id)
    check_results_contiguous(client, trials, metric)
    check_nothing_leaked(client, experiment_id)
    return experiment, trials


def check_nothing_leaked(client: httpx.Client, experiment_id: str) -> None:
    """The sweep's end found nothing of it left in Ray (a ``ray_leak`` is a defect: a trial's
    reservations go within seconds of its end), and no trial waited on resources held outside
    raysweep's leases."""
    events = events_of(client, experiment_id)
    leaks = [e["message"] for e in events if e["kind"] == "ray_leak"]
    assert leaks == [], leaks
    held_outside = [
        e["message"]
        for e in events
        if e["kind"] == "trial_waiting" and "held outside raysweep's leases" in e["message"]
    ]
    assert held_outside == [], held_outside


def ray_job_id(ray: RayConnection, submission_id: str) -> str:
    job_id = ray.jobs.get_job_info(submission_id).job_id
    if job_id is None:
        raise AssertionError(f"job {submission_id} has no Ray job id yet")
    return job_id


def driver_pid(ray: RayConnection, submission_id: str) -> int | None:
    info = ray.jobs.get_job_info(submission_id)
    return int(info.driver_info.pid) if info.driver_info is not None else None


def ray_leftovers(ray: RayConnection, submission_id: str) -> list[str]:
    """What the driver job left alive in Ray: the job itself, actors, placement groups."""
    job = ray.jobs.get_job_info(submission_id)
    leftovers = [f"job {job.status}"] if not job.status.is_terminal() else []
    actors = list_actors(
        address=ray.address, filters=[("job_id", "=", job.job_id)], raise_on_missing_output=False
    )
    leftovers += [
        f"actor {a.class_name} {a.state}"
        for a in actors
        if a.state != "DEAD" and a.class_name not in CLUSTER_SINGLETONS
    ]
    groups = list_placement_groups(address=ray.address, raise_on_missing_output=False)
    leftovers += [
        f"placement group {g.placement_group_id} {g.state}"
        for g in groups
        if g.creator_job_id == job.job_id and g.state != "REMOVED"
    ]
    return leftovers


def wait_released(ray: RayConnection, submission_id: str, timeout_s: float = 60) -> None:
    """Wait until the driver job left nothing alive in Ray; fail naming what it left."""
    deadline = time.monotonic() + timeout_s
    while (leftovers := ray_leftovers(ray, submission_id)) and time.monotonic() < deadline:
        time.sleep(1)
    assert leftovers == [], f"job {submission_id} left {leftovers}"


def kill_a_train_worker(ray: RayConnection, job: str, avoid: Collection[int] = ()) -> int:
    """SIGKILL one live Train worker of the driver job (not one of ``avoid``); its pid."""
    workers = wait_for(
        lambda: [a for a in alive_actors(ray, TRAIN_WORKER, job) if a.pid not in avoid],
        120,
        "a live Train worker",
    )
    pid: int = workers[0].pid
    kill(pid)
    return pid


def scripted_package(server: ServerProcess) -> str:
    """Uploads tests/packages.py's torch-free SCRIPTED_TRAINER; returns its sha256."""
    return upload_code(server, {"scripted.py": SCRIPTED_TRAINER})


def fault_spec(package: str, **changes: Any) -> dict[str, Any]:
    """A sweep of the torch-free scripted trainer (``package``, as ``scripted_package`` uploads
    it) for the orchestration tests: two learning rates one after the other, 8 epochs of 0.5 s,
    a checkpoint every 2; ``changes`` replace whole sections."""
    spec: dict[str, Any] = {
        "name": "scripted-faults",
        "code": scripted_code(package),
        "metric": "loss",
        "mode": "min",
        "search_space": {
            "lr": {"type": "grid", "values": [0.01, 0.02]},
            "epoch_s": {"type": "constant", "value": 0.5},
        },
        "search": {"algorithm": "grid", "num_samples": 1, "max_concurrent_trials": 1},
        "early_stopping": {"scheduler": "none", "max_t": 8},
        # one worker where several workers are not what is tested (pause, driver loss,
        # database outage): two such trials and their trial functions fit the 2-CPU head at once
        "resources": {"num_workers": 1, "cpus_per_worker": 0.5},
        "fault_tolerance": {"max_failures": 1, "checkpoint_frequency": 2, "checkpoints_to_keep": 1},
    }
    spec.update(changes)
    return spec


def trial_where(
    client: httpx.Client, experiment_id: str, index: int, **at_least: int
) -> dict[str, Any] | None:
    """The index-th trial (by creation) once each named field is >= its value."""
    trials = trials_of(client, experiment_id)
    if len(trials) <= index:
        return None
    trial = trials[index]
    return trial if all(trial[k] >= v for k, v in at_least.items()) else None


def grid_spec(
    name: str, lrs: list[float], package: str | None = None, **changes: Any
) -> dict[str, Any]:
    """A grid of learning rates, all at once, 2 epochs, no early stopping, a checkpoint every
    epoch: of the bundled MLP, or with ``package`` of the scripted trainer (``scripted_package``)
    at 3 s an epoch (a trial that waits for another's workers waits long enough to be seen);
    ``changes`` replace whole sections."""
    sections: dict[str, Any] = {
        "search": {"algorithm": "grid", "num_samples": 1, "max_concurrent_trials": len(lrs)},
        "early_stopping": {"scheduler": "none", "max_t": 2},
        "resources": {"num_workers": 2, "cpus_per_worker": 0.5},
        "fault_tolerance": {"max_failures": 0, "checkpoint_frequency": 1, "checkpoints_to_keep": 1},
    }
    if package is not None:
        space = {
            "lr": {"type": "grid", "values": lrs},
            "epoch_s": {"type": "constant", "value": 3.0},
        }
        return fault_spec(package, **{"name": name, "search_space": space, **sections, **changes})
    spec: dict[str, Any] = {
        "name": name,
        "trainer": "digits_mlp",
        "metric": "val_accuracy",
        "mode": "max",
        "search_space": {
            "lr": {"type": "grid", "values": lrs},
            "optimizer": {"type": "constant", "value": "adam"},
            "hidden": {"type": "constant", "value": 16},
            "depth": {"type": "constant", "value": 1},
            "batch_size": {"type": "constant", "value": 128},
        },
        **sections,
    }
    spec.update(changes)
    return spec


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
