"""Shared fixtures: a clean migrated database per test (SQLite and PostgreSQL), a real server
process, and one Ray cluster for the whole session."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from service.db import migrate
from service.db.models import Base
from service.db.session import create_db_engine, session_factory
from service.engine.cluster import RayConnection, free_port
from service.settings import REPO_ROOT, Settings

PG_URL = os.environ.get(
    "RAYSWEEP_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


def _pg_admin_dsn() -> str:
    return make_url(PG_URL).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database on each backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'raysweep.db'}"
        return
    name = f"rs_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(_pg_admin_dsn(), autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    with psycopg.connect(_pg_admin_dsn(), autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def db_url(empty_db_url: str) -> str:
    """A fresh database migrated to head (never create_all)."""
    migrate.upgrade(empty_db_url)
    return empty_db_url


@pytest.fixture
def db(db_url: str) -> Iterator[sessionmaker[Session]]:
    engine = create_db_engine(db_url)
    yield session_factory(engine)
    engine.dispose()


def minimal_spec(**changes: Any) -> dict[str, Any]:
    """The smallest valid spec for the bundled trainer, with ``changes`` applied."""
    spec: dict[str, Any] = {
        "name": "digits",
        "trainer": "digits_mlp",
        "search_space": "digits_mlp",
        "metric": "val_accuracy",
        "mode": "max",
    }
    spec.update(changes)
    return spec


def row_counts(db: sessionmaker[Session]) -> dict[str, int]:
    with db.begin() as session:
        return {
            table.name: session.scalar(select(func.count()).select_from(table)) or 0
            for table in Base.metadata.sorted_tables
        }


class ServerProcess:
    """``python -m service serve`` in a child process, as an operator would run it."""

    def __init__(self, home: Path, db_url: str, extra_env: dict[str, str]):
        self.home, self.db_url = home, db_url
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "RAYSWEEP_HOME": str(home),
            "RAYSWEEP_DATABASE_URL": db_url,
            "RAYSWEEP_PORT": str(self.port),
            "RAYSWEEP_CONTROLLER_INTERVAL_S": "0.5",
            **extra_env,
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = home / "server.log"

    def start(self, timeout_s: float = 60) -> ServerProcess:
        self.home.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "service", "serve"],
                env=self.env,
                cwd=REPO_ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited:\n{self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"server did not start:\n{self.log_path.read_text()[-3000:]}")

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

    def create_token(self, name: str, role: str) -> str:
        result = self.manage("token", "create", name, "--role", role)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """An API-only server (no controller, so no Ray) on a fresh database."""
    process = ServerProcess(tmp_path / "home", db_url, {"RAYSWEEP_CONTROLLER": "false"}).start()
    yield process
    process.stop()


@pytest.fixture(scope="session")
def ray_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RayConnection]:
    """One Ray head for the whole test session, started the way the server starts its own."""
    settings = Settings(home=tmp_path_factory.mktemp("ray-head"), local_ray_cpus=2)
    with RayConnection(settings) as connection:
        yield connection


@pytest.fixture
def engine_server(
    db_url: str, tmp_path: Path, ray_cluster: RayConnection
) -> Iterator[ServerProcess]:
    """A full server (API + controller) pointed at the shared Ray cluster."""
    process = ServerProcess(
        tmp_path / "home",
        db_url,
        {
            "RAYSWEEP_RAY_ADDRESS": str(ray_cluster.address),
            "RAYSWEEP_CANCEL_GRACE_S": "20",
        },
    ).start()
    yield process
    process.stop()
