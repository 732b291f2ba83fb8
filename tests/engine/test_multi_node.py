"""raysweep on an existing multi-node Ray cluster, set up the way docs/deploy.md tells an
operator to: a head and a second node started with `ray start` (each with its own temp dir and
CPUs, token authentication from a token file), the server pointed at the head with
`RAYSWEEP_RAY_ADDRESS`, PostgreSQL, and the database URL in a secrets directory. A sweep's trial
places its two Train workers on both nodes (seen through Ray's state API); afterwards nothing is
left in Ray and both nodes stop cleanly."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ray.job_submission import JobSubmissionClient
from ray.util.state import list_actors, list_nodes

from service.engine.cluster import RayConnection, free_port
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import CLUSTER_SINGLETONS, TRAIN_WORKER, ended_sweep, wait_for

pytestmark = RAY_TESTS

RAY = shutil.which("ray", path=str(Path(sys.executable).parent)) or "ray"


class RayNode:
    """`ray start --block` in its own process group, every listener on a free port."""

    def __init__(self, args: list[str], temp_dir: Path, env: dict[str, str], log: Path):
        ports = [
            f"--{option}={free_port()}"
            for option in (
                "node-manager-port",
                "object-manager-port",
                "dashboard-agent-listen-port",
                "dashboard-agent-grpc-port",
                "runtime-env-agent-port",
                "metrics-export-port",
            )
        ]
        command = [RAY, "start", "--block", "--disable-usage-stats", f"--temp-dir={temp_dir}"]
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [*command, *args, *ports],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )

    def stop(self) -> int:
        """SIGTERM to the node's group (raylet, agents, workers), as `docker stop` would; the
        exit status of `ray start`."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        return self.process.returncode


def group_alive(node: RayNode) -> bool:
    try:
        os.killpg(node.process.pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def cluster(
    tmp_path: Path, ray_cluster: RayConnection
) -> Iterator[tuple[str, list[RayNode], dict[str, str]]]:
    """A head (1 CPU) and a worker node (1 CPU) sharing a token file like a mounted secret; the
    token is the one this test process's Ray client uses (~/.ray/auth_token, made when the
    session's own head started)."""
    token_file = tmp_path / "ray_token"
    token_file.write_text((Path.home() / ".ray" / "auth_token").read_text().strip())
    env = {
        **os.environ,
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN_PATH": str(token_file),
        # jobs run `python`: this interpreter, as the image's PATH does
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    tag = uuid.uuid4().hex[:6]  # Ray's socket paths must stay short
    gcs, dashboard = f"127.0.0.1:{free_port()}", free_port()
    head = RayNode(
        [
            "--head",
            f"--port={gcs.split(':')[1]}",
            "--dashboard-host=127.0.0.1",
            f"--dashboard-port={dashboard}",
            f"--ray-client-server-port={free_port()}",
            "--num-cpus=1",
        ],
        Path(f"/tmp/rs-head-{tag}"),
        env,
        tmp_path / "head.log",
    )
    nodes = [head]
    address = f"http://127.0.0.1:{dashboard}"
    try:
        wait_for(lambda: jobs_api_up(address), 120, "the head's Jobs API")
        nodes.append(
            RayNode(
                [f"--address={gcs}", "--num-cpus=1", '--resources={"second_node": 1}'],
                Path(f"/tmp/rs-node-{tag}"),
                env,
                tmp_path / "node.log",
            )
        )
        wait_for(lambda: len(alive_nodes(address)) == 2, 120, "the second node to join")
        yield address, nodes, env
    finally:
        for node in reversed(nodes):
            node.stop()


def jobs_api_up(address: str) -> bool:
    try:
        JobSubmissionClient(address).get_version()
    except Exception:
        return False
    return True


def alive_nodes(address: str) -> list[str]:
    nodes = list_nodes(address=address, raise_on_missing_output=False)
    return [n.node_id for n in nodes if n.state == "ALIVE"]


SPEC = {
    "name": "two-nodes",
    "trainer": "digits_mlp",
    "metric": "val_accuracy",
    "mode": "max",
    "search_space": {"lr": {"type": "constant", "value": 0.05}},
    "search": {"algorithm": "grid", "num_samples": 1},
    "early_stopping": {"scheduler": "none", "max_t": 3},
    # 2 x 0.9 CPU fits on no single 1-CPU node: the placement group must span both
    "resources": {"num_workers": 2, "cpus_per_worker": 0.9},
}


@pytest.mark.parametrize("empty_db_url", ["postgres"], indirect=True)
def test_a_sweep_on_an_existing_two_node_cluster_uses_both_nodes(
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
            created = client.post("/api/v1/experiments", json=SPEC)
            assert created.status_code == 201, created.text
            experiment_id = created.json()["id"]
            job_id = wait_for(
                lambda: client.get(f"/api/v1/experiments/{experiment_id}").json()["driver_job_id"],
                120,
                "the driver job",
            )
            workers = wait_for(
                lambda: spread_workers(address), 240, "the trial's two Train workers"
            )
            experiment, [trial] = ended_sweep(client, experiment_id, 300)
            ready = client.get("/readyz").json()
    finally:
        server.stop()
    assert experiment["state"] == "completed", experiment["error"]
    assert trial["state"] == "completed" and trial["iteration"] == 3
    assert {w.node_id for w in workers} == set(alive_nodes(address))  # one worker per node
    assert ready["checks"] == {"database": "ok", "ray": "ok"}
    # the job got the secrets directory, never the database URL
    job_env = JobSubmissionClient(address).get_job_info(job_id).runtime_env["env_vars"]
    assert job_env["RAYSWEEP_SECRETS_DIR"] == str(secrets)
    assert "RAYSWEEP_DATABASE_URL" not in job_env and db_url not in str(job_env)
    # nothing of the sweep is left running in Ray, and both nodes stop cleanly
    wait_for(lambda: not live_actors(address), 60, "the sweep's actors to go")
    for node in reversed(nodes):
        node.stop()
        wait_for(lambda node=node: not group_alive(node), 30, "the node's processes to exit")


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
