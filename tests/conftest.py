"""Shared fixtures: a clean migrated database per test (SQLite and PostgreSQL, copied from a
template migrated once), a real HTTP server (in this process, or as a process where the process
is under test), and one Ray cluster for the whole session."""

from __future__ import annotations

import os
import shutil
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Self
from unittest import mock

import psycopg
import pytest
import uvicorn
from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

import service.db.models  # noqa: F401  (defines the tables on Base.metadata)
from devkit.harness import PortTaken, ServerProcess, listening_sockets
from raysweep.tokens import Role
from service.clock import Clock
from service.db import migrate
from service.db.base import Base
from service.db.session import create_db_engine, session_factory
from service.engine.cluster import RAY_AUTH_TOKEN_PATH, RayConnection
from service.settings import Settings
from service.usecases import tokens
from tests.engine.nodes import ensure_ray_token, ray_head

PG_URL = os.environ.get(
    "RAYSWEEP_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


# every Ray test: under pytest-xdist they all run on one worker (one group), sharing its Ray head
# and never fighting each other for the 2 cores while the other worker runs the rest (two groups
# on two heads at once were measured: each Ray test took 1.5-2.5 times as long, and the suite 28
# minutes instead of 22)
RAY_TESTS = [pytest.mark.ray, pytest.mark.slow, pytest.mark.xdist_group("ray")]


def pytest_configure(config: pytest.Config) -> None:
    """Make Ray's token once, before any xdist worker starts a head: heads started at once (the
    session's and the multi-node test's own) on a machine without one would each make their own
    (``ray get-auth-token --generate`` writes ~/.ray/auth_token), and one worker's clients would
    send the other's."""
    if not hasattr(config, "workerinput"):
        ensure_ray_token()


class ManualClock:
    """A clock that moves only when a test moves it (``advance``, or ``now`` set): what a
    ledger, a cache or a loop under test reads instead of the time."""

    def __init__(self, now: float | None = None) -> None:
        self.now = time.monotonic() if now is None else now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def _pg_admin_dsn() -> str:
    return make_url(PG_URL).set(drivername="postgresql").render_as_string(hide_password=False)


def pg_admin(*statements: str) -> None:
    """Run statements on the server's admin database, outside a transaction (CREATE/DROP
    DATABASE)."""
    with psycopg.connect(_pg_admin_dsn(), autocommit=True) as connection:
        for statement in statements:
            connection.execute(statement)


POSTGRES = pytest.param("postgres", marks=pytest.mark.postgres)
# for tests where SQL differs between the backends, in directories that run on one
BOTH_BACKENDS = pytest.mark.parametrize("empty_db_url", ["sqlite", POSTGRES], indirect=True)


# the routes, the UI, the clients and the engine's end-to-end runs are on SQLite alone: the SQL
# under them is the use cases', which run on both backends (tests/test_*.py, tests/db); a test
# in these directories whose own queries differ by backend says so with ``BOTH_BACKENDS`` (the
# recorder's), and a Ray test that must run on PostgreSQL names it (a pause, a sweep, a node
# lost, a database outage)
SQLITE_ONLY_DIRECTORIES = frozenset({"api", "client", "engine", "ui"})


def backends_for(test_file: Path) -> list[Any]:
    """The backends a test of ``test_file`` runs on when it does not name them itself."""
    tests = Path(__file__).parent
    within = test_file.relative_to(tests).parts if test_file.is_relative_to(tests) else ()
    return (
        ["sqlite"] if within[:1] and within[0] in SQLITE_ONLY_DIRECTORIES else ["sqlite", POSTGRES]
    )


def names_database_backends(metafunc: pytest.Metafunc) -> bool:
    """Whether the test parametrizes ``empty_db_url`` itself (``BOTH_BACKENDS``, one backend)."""
    for mark in metafunc.definition.iter_markers("parametrize"):
        names = mark.args[0]
        if isinstance(names, str):
            names = [name.strip() for name in names.split(",")]
        if "empty_db_url" in names:
            return True
    return False


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test that needs a database runs on its directory's backends."""
    if "empty_db_url" in metafunc.fixturenames and not names_database_backends(metafunc):
        backends = backends_for(metafunc.definition.path)
        metafunc.parametrize("empty_db_url", backends, indirect=True)


def fresh_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database on the backend ``request.param`` names."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'raysweep.db'}"
        return
    name = f"rs_test_{uuid.uuid4().hex[:10]}"
    pg_admin(f'CREATE DATABASE "{name}"')
    yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# parametrized with the test directory's backends (pytest_generate_tests above)
empty_db_url = pytest.fixture(name="empty_db_url")(fresh_database)


class MigratedTemplates:
    """One database per backend migrated to head (never create_all) once per session; each
    test's database is a copy of it, which costs a file copy or a ``CREATE DATABASE … TEMPLATE``
    instead of running every migration again."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.sqlite_path: Path | None = None
        self.postgres_name: str | None = None

    def copy_to(self, url: str) -> None:
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite":
            shutil.copyfile(self._sqlite(), str(parsed.database))
            return
        template = self._postgres()
        pg_admin(
            f'DROP DATABASE IF EXISTS "{parsed.database}"',
            f'CREATE DATABASE "{parsed.database}" TEMPLATE "{template}"',
        )

    def _sqlite(self) -> Path:
        if self.sqlite_path is None:
            path = self.directory / "template.db"
            migrate.upgrade(f"sqlite:///{path}")
            self.sqlite_path = path
        return self.sqlite_path

    def _postgres(self) -> str:
        if self.postgres_name is None:
            name = f"rs_template_{uuid.uuid4().hex[:10]}"
            pg_admin(f'CREATE DATABASE "{name}"')
            migrate.upgrade(make_url(PG_URL).set(database=name).render_as_string(False))
            self.postgres_name = name
        return self.postgres_name

    def drop(self) -> None:
        if self.postgres_name is not None:
            pg_admin(f'DROP DATABASE IF EXISTS "{self.postgres_name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def migrated_templates(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MigratedTemplates]:
    templates = MigratedTemplates(tmp_path_factory.mktemp("templates"))
    yield templates
    templates.drop()


@pytest.fixture
def db_url(empty_db_url: str, migrated_templates: MigratedTemplates) -> str:
    """A fresh database at head: a copy of the session's migrated template."""
    migrated_templates.copy_to(empty_db_url)
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


class InProcessServer(ServerProcess):
    """The same app ``python -m service serve`` builds (``build_app``, same settings from the
    same environment), served by uvicorn on a thread of the test process: real HTTP and a real
    database without a process's 7-12 s of start-up. For every test where the process itself is
    not what is under test; those use ``ServerProcess``. With ``controller`` the controller runs
    too (it reaches Ray over HTTP only: the Jobs and state APIs); ``clock`` is what its
    schedules take as now (the system's when not given)."""

    def __init__(
        self,
        home: Path,
        db_url: str,
        extra_env: dict[str, str],
        controller: bool = False,
        clock: Clock | None = None,
    ):
        switch = {} if controller else {"RAYSWEEP_CONTROLLER": "false"}
        super().__init__(home, db_url, {**extra_env, **switch})
        self.clock = clock
        self.uvicorn: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    def _start_once(self, timeout_s: float) -> Self:
        from service.server import build_app

        self.home.mkdir(parents=True, exist_ok=True)
        with mock.patch.dict(os.environ, self.env, clear=True):
            settings = Settings()
        config = uvicorn.Config(
            build_app(settings, self.clock), host="127.0.0.1", port=self.port, log_config=None
        )
        self.uvicorn = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._serve, name="api-server", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + timeout_s
        while not self.uvicorn.started:
            if not self.thread.is_alive() and listening_sockets(self.port):
                raise PortTaken(self.port)  # uvicorn's bind failed: start() takes a new port
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the in-process server did not start")
            time.sleep(0.02)
        return self

    def _serve(self) -> None:
        if self.uvicorn is None:
            return
        # uvicorn exits when it cannot bind: the thread ends, and start() sees why
        with suppress(SystemExit):
            self.uvicorn.run()

    def stop(self) -> None:
        if self.uvicorn is not None and self.thread is not None:
            self.uvicorn.should_exit = True
            self.thread.join(timeout=30)
        self.uvicorn = self.thread = None

    def kill(self) -> None:
        raise NotImplementedError("a crash is a process's: use ServerProcess")

    def create_token(self, name: str, role: str, project: str = "default") -> str:
        """Through the use case the ``token create`` command calls (that command is tested on a
        ServerProcess), without a Python start per token."""
        engine = create_db_engine(self.db_url)
        try:
            db = session_factory(engine)
            return tokens.create_token(db, name, Role(role), project).token
        finally:
            engine.dispose()


@pytest.fixture
def server_process(db_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """``python -m service serve`` API-only, for tests of the process itself (its first start,
    its log, the token commands beside it)."""
    process = ServerProcess(tmp_path / "home", db_url, {"RAYSWEEP_CONTROLLER": "false"}).start()
    yield process
    process.stop()


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """An API-only server (no controller, so no Ray) on a fresh database, in this process."""
    running = InProcessServer(tmp_path / "home", db_url, {}).start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def ray_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RayConnection]:
    """One Ray head for the whole test session, started the way the server starts its own, on
    a host that runs another Ray instance too (``other_ray_cluster``), as users' hosts do."""
    settings = Settings(home=tmp_path_factory.mktemp("ray-head"), local_ray_cpus=2)
    with RayConnection(settings) as connection, other_ray_instance(tmp_path_factory, connection):
        yield connection


# the second Ray instance on the host while the Ray tests run; the promotion tests' final cluster
_other_ray: list[tuple[RayConnection, str]] = []


@contextmanager
def other_ray_instance(
    tmp_path_factory: pytest.TempPathFactory, sweeps: RayConnection
) -> Iterator[None]:
    """A second Ray head (3 CPUs, every port its own, its own temp dir and token file holding
    the token the session's head made, so this process's client may look into both). With two
    instances and neither in ``RAY_ADDRESS`` or Ray's default temp dir, Ray's own address
    lookup fails inside a cluster ("Found multiple active Ray instances"): what raysweep's
    processes must survive."""
    home = tmp_path_factory.mktemp("other-ray")
    token = RAY_AUTH_TOKEN_PATH.read_text().strip()
    token_file = home / "ray_token"
    token_file.write_text(token)
    token_file.chmod(0o600)
    with ray_head(3, token_file, home / "head.log") as (address, _, _):
        _other_ray.append((RayConnection(Settings(home=home), address=address, token=token), token))
        try:
            yield
        finally:
            _other_ray.clear()


@pytest.fixture(scope="session")
def other_ray_cluster(ray_cluster: RayConnection) -> tuple[RayConnection, str]:
    """The other Ray instance on the host (a cluster of its own) and its token."""
    return _other_ray[0]


def engine_env(ray_cluster: RayConnection) -> dict[str, str]:
    return {"RAYSWEEP_RAY_ADDRESS": str(ray_cluster.address), "RAYSWEEP_CANCEL_GRACE_S": "20"}


@pytest.fixture
def engine_server(
    db_url: str, tmp_path: Path, ray_cluster: RayConnection
) -> Iterator[ServerProcess]:
    """A full server (API + controller) pointed at the shared Ray cluster, in this process."""
    running = InProcessServer(
        tmp_path / "home", db_url, engine_env(ray_cluster), controller=True
    ).start()
    yield running
    running.stop()


@pytest.fixture
def engine_process(
    db_url: str, tmp_path: Path, ray_cluster: RayConnection
) -> Iterator[ServerProcess]:
    """``engine_server`` as a process, for tests that kill the server."""
    process = ServerProcess(tmp_path / "home", db_url, engine_env(ray_cluster)).start()
    yield process
    process.stop()
