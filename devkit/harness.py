"""Running raysweep as its operators do, for the test suite and the benchmarks alike (a benchmark
must not depend on the test suite): ``python -m service serve`` as a child process, waiting on
and killing processes, the actors a Ray job has alive, and Debian's Chromium with the flags this
closed network needs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self, TypeVar

import httpx
from ray.util.state import list_actors

from service.engine.cluster import RayConnection, free_port
from service.settings import REPO_ROOT

T = TypeVar("T")


PORT_TRIES = 3


class PortTaken(Exception):
    """Another process listens on the port a server was given."""


def listening_sockets(port: int) -> set[str]:
    """The inodes of the sockets listening on TCP ``port`` in this network namespace."""
    found: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                found.add(inode)
    return found


def listens_on(pid: int, port: int) -> bool:
    """Whether process ``pid`` holds a socket listening on ``port``."""
    sockets = {f"socket:[{inode}]" for inode in listening_sockets(port)}
    try:
        descriptors = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False
    for descriptor in descriptors:
        try:
            if os.readlink(descriptor) in sockets:
                return True
        except OSError:
            continue
    return False


class ServerProcess:
    """``python -m service serve`` in a child process, as an operator would run it; or
    ``command`` (the module ``python -m`` runs and its arguments), such as
    ``devkit.clocked_server``."""

    def __init__(
        self,
        home: Path,
        db_url: str,
        extra_env: dict[str, str],
        command: tuple[str, ...] = ("service", "serve"),
    ):
        self.home, self.db_url, self.command = home, db_url, command
        self.env = {
            **os.environ,
            "RAYSWEEP_HOME": str(home),
            "RAYSWEEP_DATABASE_URL": db_url,
            "RAYSWEEP_CONTROLLER_INTERVAL_S": "0.5",
            **extra_env,
        }
        self.move_to(free_port())
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = home / "server.log"
        self.log_start = 0  # where this start's lines begin

    # generous: under xdist the Ray tests' CPU stress runs beside it and its imports take minutes
    def start(self, timeout_s: float = 240) -> Self:
        """Start the process and wait until it serves on its port. A port that another process
        took between ``free_port`` and this bind (the other xdist worker's servers pick theirs
        the same way) is given up for a new one: a clean clone's suite once talked to another
        test's server there ("unknown token")."""
        for _ in range(PORT_TRIES - 1):
            try:
                return self._start_once(timeout_s)
            except PortTaken:
                self.move_to(free_port())
        return self._start_once(timeout_s)

    def move_to(self, port: int) -> None:
        """Serve on ``port`` from the next start: the port, its URL and the server's setting."""
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.env["RAYSWEEP_PORT"] = str(port)

    def _start_once(self, timeout_s: float) -> Self:
        self.home.mkdir(parents=True, exist_ok=True)
        self.log_start = self.log_path.stat().st_size if self.log_path.exists() else 0
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", *self.command],
                env=self.env,
                cwd=REPO_ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                output = self.log_path.read_bytes()[self.log_start :].decode(errors="replace")
                if "address already in use" in output.lower():
                    raise PortTaken(self.port)
                raise RuntimeError(f"server exited:\n{output[-3000:]}")
            try:
                answered = httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200
            except httpx.TransportError:
                answered = False
            # the answer must come from this process: another one on the port answers too
            if answered and listens_on(self.process.pid, self.port):
                return self
            time.sleep(0.2)
        raise RuntimeError(f"server did not start:\n{self.log_path.read_text()[-3000:]}")

    def wait_for_api_workers(self, processes: int, timeout_s: float = 240) -> None:
        """Until ``processes`` API processes (RAYSWEEP_API_WORKERS) have started serving."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with self.log_path.open("rb") as log:
                log.seek(self.log_start)
                if log.read().count(b"Application startup complete") >= processes:
                    return
            time.sleep(0.2)
        raise RuntimeError(f"API processes did not start:\n{self.log_path.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def kill(self) -> None:
        """SIGKILL, as a crash would: no shutdown code runs."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
        self.process = None

    @property
    def admin_token(self) -> str:
        return (self.home / "admin-token").read_text().strip()

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token or self.admin_token}"}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30)

    def manage(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``python -m service ARGS`` against this server's settings."""
        return subprocess.run(
            [sys.executable, "-m", "service", *args],
            env=self.env,
            capture_output=True,
            text=True,
            cwd=REPO_ROOT,
        )

    def create_token(self, name: str, role: str, project: str = "default") -> str:
        result = self.manage("token", "create", name, "--role", role, "--project", project)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()


# how often ``wait_for`` asks again: each wait ends on average half of this after its condition
# came true, and the Ray tests wait about a hundred times on their critical path
WAIT_POLL_S = 0.2


def wait_for(probe: Callable[[], T | None], timeout_s: float, what: str) -> T:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(WAIT_POLL_S)
    raise AssertionError(f"timed out after {timeout_s}s waiting for {what}")


def kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)


def alive_actors(ray: RayConnection, class_name: str, submission_id: str) -> list[Any]:
    job = ray.jobs.get_job_info(submission_id)
    if job.job_id is None:
        return []
    return list_actors(
        address=ray.address,
        filters=[
            ("class_name", "=", class_name),
            ("state", "=", "ALIVE"),
            ("job_id", "=", job.job_id),
        ],
        raise_on_missing_output=False,
    )


CHROMIUM = "/usr/bin/chromium"
WEB_INDEX = REPO_ROOT / "web" / "dist" / "index.html"
CHROMIUM_ARGS = [
    "--no-sandbox",  # root in a container has no user namespace for Chromium's sandbox
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # the machine's closed network refuses Chromium's background connections
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
