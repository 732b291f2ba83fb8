"""A ~30 s database outage in the middle of a sweep, on a PostgreSQL instance this test owns
(its own data directory and port; the shared server on 5432 is never touched): training goes
on, the driver buffers and retries, and afterwards every result is stored exactly once."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import select

from service.db import migrate
from service.db.models.sweeps import ResultRow
from service.db.session import create_db_engine, session_factory
from service.engine.cluster import RayConnection, free_port
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import ended_sweep, fault_spec, scripted_package, wait_for
from tests.factories import submit_spec

pytestmark = [*RAY_TESTS, pytest.mark.postgres]
OUTAGE_S = 30


class PrivatePostgres:
    """initdb + pg_ctl in a fresh directory, as the postgres user when we are root (initdb
    refuses to run as root)."""

    def __init__(self) -> None:
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        if not bins:
            raise RuntimeError("PostgreSQL server binaries not found under /usr/lib/postgresql")
        self.bin = Path(bins[-1])
        self.data = Path(tempfile.mkdtemp(prefix="raysweep-pg-"))
        self.port = free_port()
        self.as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_owner:
            shutil.chown(self.data, "postgres", "postgres")
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/raysweep"

    def run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [*self.as_owner, str(self.bin / tool), *args], check=True, capture_output=True
        )

    def init(self) -> None:
        self.run("initdb", "-D", str(self.data / "db"), "-A", "trust", "-U", "postgres")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1"
        self.run("pg_ctl", "-D", str(self.data / "db"), "-o", options, "-l",
                 str(self.data / "log"), "-w", "start")  # fmt: skip

    def stop(self) -> None:
        # immediate: like a crash, no clean shutdown for the clients
        self.run("pg_ctl", "-D", str(self.data / "db"), "-m", "immediate", "-w", "stop")


@pytest.fixture
def private_postgres() -> Iterator[PrivatePostgres]:
    server = PrivatePostgres()
    server.init()
    server.start()
    admin = f"postgresql://postgres@127.0.0.1:{server.port}/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute("CREATE DATABASE raysweep")
    yield server
    with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
        server.stop()
    shutil.rmtree(server.data, ignore_errors=True)


def test_thirty_second_database_outage_loses_and_duplicates_no_result(
    private_postgres: PrivatePostgres, tmp_path: Path, ray_cluster: RayConnection
) -> None:
    migrate.upgrade(private_postgres.url)
    engine = create_db_engine(private_postgres.url)
    db = session_factory(engine)
    server = ServerProcess(
        tmp_path / "home", private_postgres.url, {"RAYSWEEP_RAY_ADDRESS": str(ray_cluster.address)}
    ).start()
    spec = fault_spec(
        scripted_package(server),
        search={"algorithm": "grid", "num_samples": 1, "max_concurrent_trials": 1},
        early_stopping={"scheduler": "none", "max_t": 25},
        fault_tolerance={"max_failures": 0, "checkpoint_frequency": 5, "checkpoints_to_keep": 1},
    )
    spec["search_space"]["lr"] = {"type": "constant", "value": 0.01}
    # 50 s of training: it goes on through the whole outage and past it
    spec["search_space"]["epoch_s"] = {"type": "constant", "value": 2.0}

    def stored() -> list[tuple[int, object]]:
        with db.begin() as session:
            return list(session.execute(select(ResultRow.iteration, ResultRow.reported_at)).all())

    try:
        with server.client() as client:
            experiment_id = submit_spec(client, spec)
            wait_for(lambda: len(stored()) >= 2, 240, "two stored results")
            before = len(stored())
            private_postgres.stop()
            time.sleep(OUTAGE_S)
            private_postgres.start()
            engine.dispose()  # the test's own pooled connections died with the server

            wait_for(lambda: len(stored()) >= before + 5, 60, "the buffered results")
            experiment, trials = ended_sweep(client, experiment_id, 300, metric="loss")
    finally:
        server.stop()

    assert experiment["state"] == "completed", experiment["error"]
    assert len(trials) == 1 and trials[0]["state"] == "completed" and trials[0]["iteration"] == 25
    # training went on during the outage: the results of several epochs were written together
    # when the database came back (an epoch takes 2 s here), not one by one as trained
    after_outage = sorted(at for iteration, at in stored() if iteration > before)
    burst = max(
        sum(1 for other in after_outage if timedelta(0) <= other - at <= timedelta(seconds=1))
        for at in after_outage
    )
    assert burst >= 5, after_outage
    engine.dispose()
