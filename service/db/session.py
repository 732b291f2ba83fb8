"""One engine per process (the server: one for the controller, one for API requests with a
statement time limit); SQLite gets foreign keys, WAL and a busy timeout on every connection."""

from __future__ import annotations

import math
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import ORMExecuteState, Session, sessionmaker

from service.db.outbox import capture

SQLITE_BUSY_TIMEOUT_MS = 30_000


def _sqlite_pragmas(busy_timeout_ms: int) -> Callable[[Any, Any], None]:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        if isinstance(dbapi_connection, sqlite3.Connection):
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

    return on_connect


# the monotonic time the connection's latest statement started (inf: none running), one cell per
# pooled connection, in its record's info
STATEMENT_STARTED = "raysweep_statement_started"
# SQLite calls the progress handler every this many virtual-machine instructions
PROGRESS_STEPS = 10_000


def _limit_sqlite_statements(engine: Engine, limit_s: float) -> None:
    """SQLite has no statement timeout: a progress handler interrupts a statement (its rows are
    computed while they are fetched, so until the transaction ends) once it has run longer than
    ``limit_s``; the caller gets OperationalError("interrupted")."""

    def on_connect(dbapi_connection: Any, record: Any) -> None:
        started = record.info.setdefault(STATEMENT_STARTED, [math.inf])

        def over_time() -> int:
            return 1 if time.monotonic() - started[0] > limit_s else 0

        dbapi_connection.set_progress_handler(over_time, PROGRESS_STEPS)

    def statement_starts(connection: Any, *_: Any) -> None:
        connection.info[STATEMENT_STARTED][0] = time.monotonic()

    def transaction_ends(connection: Any, *_: Any) -> None:
        connection.info.get(STATEMENT_STARTED, [0.0])[0] = math.inf

    event.listen(engine, "connect", on_connect)
    event.listen(engine, "before_cursor_execute", statement_starts)
    for name in ("commit", "rollback"):
        event.listen(engine, name, transaction_ends)


def create_db_engine(url: str, statement_timeout_s: float | None = None) -> Engine:
    """``statement_timeout_s``: no statement may run longer (PostgreSQL's statement_timeout;
    on SQLite, a progress handler), so no request holds a connection for long."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            path = Path(parsed.database)
            path.parent.mkdir(parents=True, exist_ok=True)
            # private like the admin token: it holds token hashes; SQLite gives its -wal and -shm
            # files the database file's mode (an existing file keeps the mode it has)
            path.touch(mode=0o600, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})
        if statement_timeout_s is None:
            event.listen(engine, "connect", _sqlite_pragmas(SQLITE_BUSY_TIMEOUT_MS))
            return engine
        # waiting for another writer's lock counts too
        busy_ms = min(SQLITE_BUSY_TIMEOUT_MS, round(statement_timeout_s * 1000))
        event.listen(engine, "connect", _sqlite_pragmas(busy_ms))
        _limit_sqlite_statements(engine, statement_timeout_s)
        return engine
    if statement_timeout_s is None:
        return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=10)
    engine = create_engine(
        url,
        pool_size=10,
        max_overflow=10,
        connect_args={"options": f"-c statement_timeout={round(statement_timeout_s * 1000)}"},
    )
    _ping_idle_connections(engine)
    return engine


# a connection back in the pool this recently was alive then (HikariCP's aliveBypassWindowMs)
ALIVE_BYPASS_S = 0.5
RETURNED = "raysweep_returned"  # in a pooled connection's record's info: when it came back


def _ping_idle_connections(engine: Engine) -> None:
    """``pool_pre_ping`` for the API engine, skipped for a connection returned to the pool in the
    last ``ALIVE_BYPASS_S``: under load every request checks one out, and a ping each time was a
    tenth of a cached read's throughput. A connection that went stale after a database restart
    has been idle, so it is pinged and replaced; one in use fails its request, and that
    disconnect invalidates the whole pool."""

    def checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info[RETURNED] = time.monotonic()

    def checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if time.monotonic() - record.info.get(RETURNED, -math.inf) < ALIVE_BYPASS_S:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as error:
            # the pool discards this connection and checks out a new one
            raise DisconnectionError(f"a pooled connection was dead: {error}") from error

    event.listen(engine, "checkin", checkin)
    event.listen(engine, "checkout", checkout)


# a write statement that changes nothing: on SQLite it takes the database's write lock
SQLITE_WRITE_LOCK = "UPDATE alembic_version SET version_num = version_num WHERE 0"


def session_factory(engine: Engine) -> sessionmaker[Session]:
    factory = sessionmaker(engine, expire_on_commit=False)
    # what a flush writes that a webhook can ask for becomes its deliveries, in that transaction
    event.listen(factory, "before_flush", capture)
    if engine.dialect.name == "sqlite":
        event.listen(factory, "do_orm_execute", _lock_before_reading_for_update)
    return factory


def _lock_before_reading_for_update(state: ORMExecuteState) -> None:
    """SQLite has no row locks and ignores ``FOR UPDATE``, and its driver starts a transaction at
    the first write only: a use case that read a row "for update", decided and wrote raced
    another doing the same (a cancel answered 200 while the sweep ended paused; an event stored
    twice). Before such a read, a write that changes nothing starts the transaction and takes
    the database's write lock (waiting for another writer, as PostgreSQL waits for the row), so
    the read and everything after it until the commit are one atomic step."""
    if state.is_select and state.statement._for_update_arg is not None:  # type: ignore[attr-defined]
        state.session.connection().exec_driver_sql(SQLITE_WRITE_LOCK)
