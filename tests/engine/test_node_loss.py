"""Losing a Ray node: a three-node cluster on this machine (a small head and two worker nodes,
each a real raylet started with `ray start`); the node running a trial's Train workers is killed
(SIGKILL to all its processes) and the trial resumes on the other node from its checkpoint."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from ray.util.state import list_nodes

from service.engine.cluster import RayConnection, free_port
from service.settings import Settings
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import (
    TRAIN_WORKER,
    alive_actors,
    ended_sweep,
    events_of,
    fault_spec,
    trial_where,
    wait_for,
)
from tests.factories import submit_spec

pytestmark = RAY_TESTS


class WorkerNode:
    """`ray start --address=... --block` in its own process group, every listener on a free
    port so several nodes share this machine."""

    def __init__(self, head: RayConnection, cpus: int, log_path: Path):
        assert head.gcs_address and head.temp_dir
        ray_cli = shutil.which("ray", path=str(Path(sys.executable).parent)) or "ray"
        command = [
            ray_cli, "start", "--block", "--disable-usage-stats",
            f"--address={head.gcs_address}", f"--num-cpus={cpus}", f"--temp-dir={head.temp_dir}",
            f"--node-manager-port={free_port()}", f"--object-manager-port={free_port()}",
            f"--dashboard-agent-listen-port={free_port()}",
            f"--dashboard-agent-grpc-port={free_port()}",
            f"--runtime-env-agent-port={free_port()}", f"--metrics-export-port={free_port()}",
        ]  # fmt: skip
        with log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def kill(self) -> None:
        """The node is lost: raylet, agents and every worker process at once."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@pytest.fixture
def three_nodes(tmp_path: Path) -> Iterator[tuple[RayConnection, list[WorkerNode]]]:
    # the head is too small for a trial's workers (2 x 1 CPU): they must run on a worker node
    settings = Settings(home=tmp_path / "cluster", local_ray_cpus=1)
    with RayConnection(settings) as head:
        nodes: list[WorkerNode] = []
        try:
            # one at a time: nodes starting together in one session dir race for socket names
            for i in range(2):
                nodes.append(WorkerNode(head, 2, tmp_path / f"node-{i}.log"))
                wait_for(lambda: len(alive_nodes(head)) == len(nodes) + 1, 120, "a node to join")
            yield head, nodes
        finally:
            for node in nodes:
                node.kill()


def ancestors(pid: int) -> set[int]:
    """pid's parent, grandparent, ... (a Train worker's: its raylet, then `ray start`)."""
    found = set()
    while pid > 1:
        stat = Path(f"/proc/{pid}/stat").read_text()
        pid = int(stat.rsplit(")", 1)[1].split()[1])
        found.add(pid)
    return found


def alive_nodes(head: RayConnection) -> list[str]:
    nodes = list_nodes(address=head.address, raise_on_missing_output=False)
    return [n.node_id for n in nodes if n.state == "ALIVE"]


@pytest.mark.parametrize("empty_db_url", ["sqlite"], indirect=True)
def test_losing_the_node_of_a_trials_workers_resumes_it_on_another_node(
    three_nodes: tuple[RayConnection, list[WorkerNode]], db_url: str, tmp_path: Path
) -> None:
    head, nodes = three_nodes
    server = ServerProcess(
        tmp_path / "home", db_url, {"RAYSWEEP_RAY_ADDRESS": str(head.address)}
    ).start()
    spec = fault_spec(
        search={"algorithm": "grid", "num_samples": 1, "max_concurrent_trials": 1},
        early_stopping={"scheduler": "none", "max_t": 10},
        resources={"num_workers": 2, "cpus_per_worker": 1.0},
        fault_tolerance={"max_failures": 2, "checkpoint_frequency": 1, "checkpoints_to_keep": 1},
    )
    spec["search_space"]["lr"] = {"type": "constant", "value": 0.01}
    try:
        with server.client() as client:
            experiment_id = submit_spec(client, spec)
            wait_for(lambda: trial_where(client, experiment_id, 0, iteration=2), 240, "epoch 2")
            job = client.get(f"/api/v1/experiments/{experiment_id}").json()["driver_job_id"]
            workers = alive_actors(head, TRAIN_WORKER, job)
            lost_node = {w.node_id for w in workers}
            assert len(lost_node) == 1, workers  # packed on one worker node
            controllers = alive_actors(head, "TrainController", job)
            assert controllers and all(c.node_id not in lost_node for c in controllers)
            victim = next(n for n in nodes if n.process.pid in ancestors(workers[0].pid))
            victim.kill()

            experiment, trials = ended_sweep(client, experiment_id, 300)
            events = [e["kind"] for e in events_of(client, experiment_id)]
    finally:
        server.stop()
    assert experiment["state"] == "completed", experiment["error"]
    (trial,) = trials
    assert trial["state"] == "completed" and trial["iteration"] == 10
    assert trial["restarts"] >= 1 and "trial_restarted" in events
    assert lost_node.isdisjoint(alive_nodes(head)) and len(alive_nodes(head)) == 2
