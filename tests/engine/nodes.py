"""Ray nodes a test starts itself with `ray start`, as an operator would: a head or a worker
node in its own process group, every listener on a free port, with its own temp dir and token
file."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ray.job_submission import JobSubmissionClient

from devkit.harness import wait_for
from service.engine.cluster import free_port
from service.settings import RAY_AUTH_TOKEN_PATH

RAY = shutil.which("ray", path=str(Path(sys.executable).parent)) or "ray"


def ensure_ray_token() -> None:
    """Ray's token in ~/.ray/auth_token, made if there is none (``ray get-auth-token
    --generate``): the one this test process's Ray client sends, and the heads it starts take."""
    if not RAY_AUTH_TOKEN_PATH.exists():
        subprocess.run([RAY, "get-auth-token", "--generate"], check=True, capture_output=True)


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
        """SIGTERM to the node's group (raylet, agents, workers), then SIGKILL after 10 s, as
        `docker stop` would; the exit status of `ray start`. (A worker node exits within a
        second; a head's gcs_server outlasts any grace here, so waiting longer only costs time.)"""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        return self.process.returncode

    def kill(self) -> None:
        """The node is lost: raylet, agents and every worker process at once."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def jobs_api_up(address: str) -> bool:
    try:
        JobSubmissionClient(address).get_version()
    except Exception:
        return False
    return True


def node_env(token_file: Path) -> dict[str, str]:
    """A node's environment: token authentication from ``token_file``, and `python` this
    interpreter (jobs run `python`), as the image's PATH does."""
    return {
        **os.environ,
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN_PATH": str(token_file),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }


@contextmanager
def ray_head(cpus: int, token_file: Path, log: Path) -> Iterator[tuple[str, str, RayNode]]:
    """A head of its own (its temp dir, token file, ports, ``cpus`` CPUs): (Jobs API address,
    GCS address, the node) while it runs; stopped afterwards (if the caller has not)."""
    tag = uuid.uuid4().hex[:6]  # Ray's socket paths must stay short
    gcs, dashboard = f"127.0.0.1:{free_port()}", free_port()
    head = RayNode(
        [
            "--head",
            f"--port={gcs.split(':')[1]}",
            "--dashboard-host=127.0.0.1",
            f"--dashboard-port={dashboard}",
            f"--ray-client-server-port={free_port()}",
            f"--num-cpus={cpus}",
        ],
        Path(f"/tmp/rs-head-{tag}"),
        node_env(token_file),
        log,
    )
    address = f"http://127.0.0.1:{dashboard}"
    try:
        wait_for(lambda: jobs_api_up(address), 120, "the head's Jobs API")
        yield address, gcs, head
    finally:
        head.stop()
