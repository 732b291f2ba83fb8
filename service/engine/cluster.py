"""The Ray connection: an existing cluster's Jobs API, or a local head this server owns."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from ray.job_submission import JobSubmissionClient

from service.settings import RAY_AUTH_TOKEN_PATH, Settings

HEAD_START_TIMEOUT_S = 120
# gcs_server, the raylet and the runtime-env agent take over 15 s to act on SIGTERM (measured:
# every stop of an idle head ran into the old 15 s grace); the embedded head keeps no state worth
# a clean stop, so a short grace and then SIGKILL ends it without a 15 s wait at every shutdown
HEAD_STOP_GRACE_S = 3


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def private_files() -> None:
    """In the head's process before it starts: files and directories it creates are its
    owner's alone."""
    os.umask(0o077)


def head_environment() -> dict[str, str]:
    """The server's environment less raysweep's own settings (the database URL, the secrets
    directory): the embedded head and every worker it starts inherit it, and a job gets what it
    needs from its own runtime environment."""
    return {k: v for k, v in os.environ.items() if not k.startswith("RAYSWEEP_")}


class RayConnection:
    """Context manager: on enter, starts the embedded head when no address is configured.

    ``address`` and ``token`` name another cluster's Jobs API (a cluster record's); by default
    it is this server's own Ray (``RAYSWEEP_RAY_ADDRESS`` or the embedded head)."""

    def __init__(self, settings: Settings, address: str | None = None, token: str | None = None):
        self.settings = settings
        self.address = address or settings.ray_address
        self.embedded = self.address is None
        self.headers = {"Authorization": f"Bearer {token}"} if token else None
        self._head: subprocess.Popen[bytes] | None = None
        self.gcs_address: str | None = None  # known for the embedded head only
        self.temp_dir: Path | None = None  # likewise
        self._client: JobSubmissionClient | None = None

    def __enter__(self) -> RayConnection:
        if self.embedded:
            self._start_head()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._head is None:
            return
        # the head runs in its own session: signal the whole group (gcs, raylet, dashboard,
        # workers), since `ray start --block` itself does not pass SIGTERM on
        group = self._head.pid
        for sig, wait_s in ((signal.SIGTERM, HEAD_STOP_GRACE_S), (signal.SIGKILL, 10)):
            try:
                os.killpg(group, sig)
            except ProcessLookupError:
                break
            try:
                self._head.wait(timeout=wait_s)
                break
            except subprocess.TimeoutExpired:
                continue
        self._head = None

    @property
    def jobs(self) -> JobSubmissionClient:
        if self._client is None:
            if self.address is None:
                raise RuntimeError("Ray is not started")
            self._client = JobSubmissionClient(self.address, headers=self.headers)
        return self._client

    def check(self) -> str | None:
        try:
            self.jobs.get_version()
        except Exception as error:  # any failure means "not reachable"; say which
            return f"Ray Jobs API at {self.address} unreachable: {type(error).__name__}"
        return None

    def _start_head(self) -> None:
        home = self.settings.home.resolve()
        # Ray's socket paths must stay short: keep its temp dir under /tmp, one per home
        # Ray makes its temp dir 0777 for shared use (again whenever a driver connects): it lives
        # in a directory that is this user's alone, so other users of the machine read none of
        # it (its logs carry every job's details)
        private = Path("/tmp") / f"raysweep-{hashlib.sha1(str(home).encode()).hexdigest()[:8]}"
        private.mkdir(mode=0o700, exist_ok=True)
        private.chmod(0o700)
        temp_dir = private / "ray"
        self.temp_dir = temp_dir
        dashboard_port = free_port()
        ray_cli = shutil.which("ray", path=str(Path(sys.executable).parent)) or "ray"
        # Ray's token authentication needs a token before the head starts: create Ray's own
        # ~/.ray/auth_token when there is none (the command prints it; keep it out of logs)
        subprocess.run([ray_cli, "get-auth-token", "--generate"], check=True, capture_output=True)
        # Ray writes it readable by everyone on the machine; it opens every job and actor
        if RAY_AUTH_TOKEN_PATH.exists():
            RAY_AUTH_TOKEN_PATH.chmod(0o600)
        command = [
            ray_cli,
            "start",
            "--head",
            "--block",
            "--disable-usage-stats",
            "--dashboard-host=127.0.0.1",
            f"--dashboard-port={dashboard_port}",
            f"--temp-dir={temp_dir}",
        ]
        # every listener on a free port, so the head coexists with other Ray clusters here
        gcs_port = free_port()
        self.gcs_address = f"127.0.0.1:{gcs_port}"
        command.append(f"--port={gcs_port}")
        for option in (
            "dashboard-agent-listen-port",
            "dashboard-agent-grpc-port",
            "runtime-env-agent-port",
            "metrics-export-port",
            "ray-client-server-port",
        ):
            command.append(f"--{option}={free_port()}")
        if self.settings.local_ray_cpus is not None:
            command.append(f"--num-cpus={self.settings.local_ray_cpus}")
        log_path = home / "ray-head.log"
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with log_path.open("ab") as log:
            # jobs run `python`: make that this interpreter (with Ray and raysweep installed)
            # even when its virtual environment was not activated
            path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
            self._head = subprocess.Popen(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env={**head_environment(), "PATH": path},
                # what Ray and every process it starts write is its owner's alone (logs with
                # job details, checkpoints, stored code)
                preexec_fn=private_files,
            )
        self.address = f"http://127.0.0.1:{dashboard_port}"
        try:
            self._wait_for_head(self._head, log_path)
        except BaseException:
            self.__exit__()
            raise

    def _wait_for_head(self, head: subprocess.Popen[bytes], log_path: Path) -> None:
        deadline = time.monotonic() + HEAD_START_TIMEOUT_S
        while time.monotonic() < deadline:
            if head.poll() is not None:
                raise RuntimeError(f"the local Ray head exited; see {log_path}")
            self._client = None
            if self.check() is None:
                print(
                    f"raysweep: local Ray head up, Jobs API at {self.address} (log: {log_path})",
                    flush=True,
                )
                return
            time.sleep(1)
        raise RuntimeError(
            f"the local Ray head did not come up in {HEAD_START_TIMEOUT_S}s; see {log_path}"
        )
