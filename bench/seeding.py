"""The databases the scale benchmarks read: a scratch PostgreSQL database, one seeded with a
simulated sweep named "scale" (devkit/demo.py) among small ones, and a token of the bench's own.
Shared by bench/api_load.py, bench/ui_scale.py, bench/seed_scale.py and bench/recorder.py, and
apart from the UI bench so that none of the others needs its browser (playwright) installed."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import psycopg
from sqlalchemy import select, text
from sqlalchemy.engine import make_url

from devkit.demo import seed_sweep
from raysweep.tokens import Role
from service.db import migrate
from service.db.models.sweeps import ExperimentRow
from service.db.session import create_db_engine, session_factory
from service.usecases.tokens import create_token


@contextmanager
def scratch_database(server_url: str) -> Iterator[str]:
    name = f"rs_bench_{uuid.uuid4().hex[:10]}"
    admin = make_url(server_url).set(drivername="postgresql").render_as_string(False)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def seeded_database(
    postgres: str | None,
    home: Path,
    trials: int,
    results: int,
    *,
    others: int = 0,
    existing: str | None = None,
) -> Iterator[tuple[str, str]]:
    """A new database (on the PostgreSQL server ``postgres`` names, dropped at the end, or a
    SQLite file under ``home``) holding one seeded sweep named "scale" and ``others`` small
    ones; its URL and the sweep's id. With ``existing`` (a database ``bench/seed_scale.py``
    filled) that one, as it is: seeding 100,000 trials takes minutes."""
    if existing:
        yield existing, scale_experiment(existing)
        return
    with ExitStack() as stack:
        database_url = (
            stack.enter_context(scratch_database(postgres))
            if postgres
            else f"sqlite:///{home / 'raysweep.db'}"
        )
        print(f"seeding {trials} trials x {results} results into {database_url}")
        yield database_url, seed(database_url, trials, results, others)


def find_scale(database_url: str) -> str | None:
    """The id of the sweep named "scale" in a migrated database, if there is one."""
    engine = create_db_engine(database_url)
    try:
        with engine.connect() as connection:
            found = connection.execute(
                select(ExperimentRow.id).where(ExperimentRow.name == "scale")
            ).scalar_one_or_none()
    finally:
        engine.dispose()
    return None if found is None else str(found)


def scale_experiment(database_url: str) -> str:
    found = find_scale(database_url)
    if found is None:
        raise SystemExit(f"{database_url} holds no experiment named scale: bench/seed_scale.py")
    return found


def bench_token(database_url: str) -> str:
    """A viewer's token of the bench's own: a database seeded by an earlier run keeps the admin
    token of the server that first opened it, which the bench never saw."""
    engine = create_db_engine(database_url)
    try:
        name = f"bench-{uuid.uuid4().hex[:8]}"
        return create_token(session_factory(engine), name, Role.viewer).token
    finally:
        engine.dispose()


def seed(database_url: str, trials: int, results: int, others: int = 0) -> str:
    migrate.upgrade(database_url)
    engine = create_db_engine(database_url)
    started = time.perf_counter()

    def progress(done: int) -> None:
        if done % 5000 == 0 or done == trials:
            print(f"  seeded {done}/{trials} trials ({time.perf_counter() - started:.0f} s)")

    db = session_factory(engine)
    experiment_id = seed_sweep(
        db, trials=trials, max_t=results, name="scale", running=4, prune=False, progress=progress
    )
    for index in range(others):
        seed_sweep(db, trials=8, max_t=5, name=f"other-{index}", seed=index)
    if engine.dialect.name == "postgresql":
        # what autovacuum does shortly after a bulk load; without statistics the planner's
        # estimates for the poll query are so high that PostgreSQL JIT-compiles it (~100 ms)
        with engine.connect() as connection:
            connection.execute(text("ANALYZE"))
            connection.commit()
    engine.dispose()
    return experiment_id
