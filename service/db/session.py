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
from sqlalchemy.orm import Session, sessionmaker

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
    options = (
        {"options": f"-c statement_timeout={round(statement_timeout_s * 1000)}"}
        if statement_timeout_s is not None
        else {}
    )
    return create_engine(
        url, pool_pre_ping=True, pool_size=10, max_overflow=10, connect_args=options
    )


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
