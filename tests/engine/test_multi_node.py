"""raysweep on an existing multi-node Ray cluster, set up the way docs/deploy.md tells an
operator to: a head and two worker nodes started with `ray start` (each with its own temp dir
and CPUs, token authentication from a token file), the server pointed at the head with
`RAYSWEEP_RAY_ADDRESS`, PostgreSQL, and the database URL in a secrets directory. On it:

- a trial's two Train workers are placed on both worker nodes (seen through Ray's state API);
- then a node running a trial's workers is lost (SIGKILL to all its processes) and the trial
  resumes on the other node from its checkpoint;
- afterwards nothing is left in Ray and the remaining nodes stop (as
  `docker stop` does: SIGTERM, SIGKILL after 10 s)."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from ray.job_submission import JobSubmissionClient
from ray.util.state import list_actors, list_nodes

from service.engine.cluster import RayConnection
from service.settings import RAY_AUTH_TOKEN_PATH, Settings
from tests.conftest import ServerProcess
from tests.engine.nodes import RayNode, ensure_ray_token, node_env, ray_head
from tests.engine.sweeps import (
    CLUSTER_SINGLETONS,
    TRAIN_WORKER,
    alive_actors,
    ended_sweep,
    events_of,
    fault_spec,
    scripted_package,
    trial_where,
    wait_for,
)
from tests.factories import submit_spec

# a cluster of its own, not the session's: its own xdist group, so that it runs beside the
# session cluster's tests (on the other pytest worker) instead of after them
pytestmark = [pytest.mark.ray, pytest.mark.slow, pytest.mark.xdist_group("ray-own-cluster")]


def group_alive(node: RayNode) -> bool:
    try:
        os.killpg(node.process.pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, list[RayNode], dict[str, str]]]:
    """A head (1 CPU) and two worker nodes (2 CPUs each) sharing a token file like a mounted
    secret; the token is the one this test process's Ray client uses (~/.ray/auth_token, made
    by whichever Ray head of the session started first, or here)."""
    ensure_ray_token()
    token_file = tmp_path / "ray_token"
    token_file.write_text(RAY_AUTH_TOKEN_PATH.read_text().strip())
    env = node_env(token_file)
    tag = uuid.uuid4().hex[:6]  # Ray's socket paths must stay short
    with ray_head(1, token_file, tmp_path / "head.log") as (address, gcs, head):
        nodes = [head]
        try:
            # one at a time: nodes starting together race for socket names
            for i in range(2):
                nodes.append(
                    RayNode(
                        [f"--address={gcs}", "--num-cpus=2"],
                        Path(f"/tmp/rs-node{i}-{tag}"),
                        env,
                        tmp_path / f"node-{i}.log",
                    )
                )
                wait_joined(address, len(nodes), 120)
            yield address, nodes, env
        finally:
            for node in reversed(nodes[1:]):
                node.stop()


def wait_joined(address: str, count: int, timeout_s: float) -> None:
    """Until the head's state API shows ``count`` alive nodes; a timeout says what it showed
    (one CI run saw a node the GCS had registered stay missing there for 120 s)."""
    deadline, seen = time.monotonic() + timeout_s, []
    while time.monotonic() < deadline:
        nodes = list_nodes(address=address, raise_on_missing_output=False)
        seen = [(n.node_id[:8], n.state) for n in nodes]
        if sum(state == "ALIVE" for _, state in seen) == count:
            return
        time.sleep(0.5)
    raise AssertionError(
        f"timed out after {timeout_s}s waiting for {count} alive node(s); the head's state API "
        f"listed {seen}"
    )


def alive_nodes(address: str) -> list[str]:
    nodes = list_nodes(address=address, raise_on_missing_output=False)
    return [n.node_id for n in nodes if n.state == "ALIVE"]


SPREAD: dict[str, Any] = {
    "name": "two-nodes",
    "trainer": "digits_mlp",
    "metric": "val_accuracy",
    "mode": "max",
    "search_space": {"lr": {"type": "constant", "value": 0.05}},
    "search": {"algorithm": "grid", "num_samples": 1},
    "early_stopping": {"scheduler": "none", "max_t": 3},
    # 2 x 1.5 CPU fits on no single node (2, 2 and 1 CPUs): the placement group must span two
    "resources": {"num_workers": 2, "cpus_per_worker": 1.5},
}


def lose_a_node(package: str) -> dict[str, Any]:
    """2 x 1 CPU of the scripted trainer: packed on one worker node (the head is too small),
    whose loss the trial survives."""
    return fault_spec(
        package,
        name="lose-a-node",
        # 20 s of training: most of it is left when the node goes
        search_space={
            "lr": {"type": "constant", "value": 0.01},
            "epoch_s": {"type": "constant", "value": 2.0},
        },
        search={"algorithm": "grid", "num_samples": 1, "max_concurrent_trials": 1},
        early_stopping={"scheduler": "none", "max_t": 10},
        resources={"num_workers": 2, "cpus_per_worker": 1.0},
        fault_tolerance={"max_failures": 2, "checkpoint_frequency": 1, "checkpoints_to_keep": 1},
    )


@pytest.mark.parametrize("empty_db_url", ["postgres"], indirect=True)
def test_an_existing_cluster_spreads_a_trial_over_nodes_and_survives_losing_one(
    cluster: tuple[str, list[RayNode], dict[str, str]], db_url: str, tmp_path: Path
) -> None:
    address, nodes, env = cluster
    secrets = tmp_path / "secrets"
    secrets.mkdir()
    (secrets / "raysweep_database_url").write_text(db_url)
    server = ServerProcess(
        tmp_path / "home",
        db_url,
        {
            "RAYSWEEP_RAY_ADDRESS": address,
            "RAYSWEEP_SECRETS_DIR": str(secrets),
            "RAY_AUTH_TOKEN_PATH": env["RAY_AUTH_TOKEN_PATH"],
        },
    )
    del server.env["RAYSWEEP_DATABASE_URL"]  # the secret file is the only place it is
    server.start()
    try:
        with server.client() as client:
            spread_id = submit_spec(client, SPREAD)
            job_id = wait_for(lambda: driver_job(client, spread_id), 120, "the driver job")
            workers = wait_for(
                lambda: spread_workers(address), 240, "the trial's two Train workers"
            )
            experiment, [trial] = ended_sweep(client, spread_id, 300)
            ready = client.get("/readyz").json()

            lost_id = submit_spec(client, lose_a_node(scripted_package(server)))
            wait_for(lambda: trial_where(client, lost_id, 0, iteration=2), 240, "epoch 2")
            lost_job = driver_job(client, lost_id)
            assert lost_job is not None
            # the cluster as the server reaches it: its Jobs API, nothing started here
            ray = RayConnection(Settings(home=tmp_path / "client"), address=address)
            packed = alive_actors(ray, TRAIN_WORKER, lost_job)
            lost_node = {w.node_id for w in packed}
            assert len(lost_node) == 1, packed  # packed on one worker node
            controllers = alive_actors(ray, "TrainController", lost_job)
            assert controllers and all(c.node_id not in lost_node for c in controllers)
            victim = next(n for n in nodes[1:] if n.process.pid in ancestors(packed[0].pid))
            victim.kill()
            survived, [resumed] = ended_sweep(client, lost_id, 300, metric="loss")
            events = events_of(client, lost_id)
            kinds = [e["kind"] for e in events]
    finally:
        server.stop()
    assert experiment["state"] == "completed", experiment["error"]
    assert trial["state"] == "completed" and trial["iteration"] == 3
    # one worker on each worker node
    assert len({w.node_id for w in workers}) == 2 and len(alive_nodes(address)) == 2
    assert ready["checks"] == {"database": "ok", "ray": "ok"}
    # the job got its own token and the API's address, never the database URL or the secrets
    # directory (no Ray node mounts it: the sweep stored everything through the API)
    job_env = JobSubmissionClient(address).get_job_info(job_id).runtime_env["env_vars"]
    assert job_env["RAYSWEEP_JOB_TOKEN"].startswith(f"rsj_{job_id}.")
    assert "RAYSWEEP_SECRETS_DIR" not in job_env and "RAYSWEEP_DATABASE_URL" not in job_env
    assert db_url not in str(job_env) and str(secrets) not in str(job_env)
    # the lost node's trial resumed on the other node from its checkpoint
    # (the events say what restarted the run and what the gate reclaimed, should it fail)
    assert survived["state"] == "completed", (survived["error"], events)
    assert resumed["state"] == "completed" and resumed["iteration"] == 10
    assert resumed["restarts"] >= 1 and "trial_restarted" in kinds, events
    assert lost_node.isdisjoint(alive_nodes(address)) and len(alive_nodes(address)) == 2
    # nothing of the sweeps is left running in Ray, and the remaining nodes stop
    wait_for(lambda: not live_actors(address), 60, "the sweeps' actors to go")
    for node in reversed([n for n in nodes if n is not victim]):
        node.stop()
        wait_for(lambda node=node: not group_alive(node), 30, "the node's processes to exit")


def driver_job(client: httpx.Client, experiment_id: str) -> str | None:
    job: str | None = client.get(f"/api/v1/experiments/{experiment_id}").json()["driver_job_id"]
    return job


def ancestors(pid: int) -> set[int]:
    """pid's parent, grandparent, ... (a Train worker's: its raylet, then `ray start`)."""
    found = set()
    while pid > 1:
        stat = Path(f"/proc/{pid}/stat").read_text()
        pid = int(stat.rsplit(")", 1)[1].split()[1])
        found.add(pid)
    return found


def train_workers(address: str) -> list[Any]:
    return list_actors(
        address=address,
        filters=[("class_name", "=", TRAIN_WORKER), ("state", "=", "ALIVE")],
        raise_on_missing_output=False,
    )


def spread_workers(address: str) -> list[Any] | None:
    """The live Train workers once they are on two nodes."""
    workers = train_workers(address)
    return workers if len({w.node_id for w in workers}) == 2 else None


def live_actors(address: str) -> list[str]:
    """Actors still alive, except the detached ones kept once per cluster."""
    return [
        a.class_name
        for a in list_actors(address=address, raise_on_missing_output=False)
        if a.state != "DEAD" and a.class_name not in CLUSTER_SINGLETONS
    ]
