"""The SQLite database file the service creates is private, like the admin token; an API
engine's statements are cut off after a time limit on both backends."""

from __future__ import annotations

import stat
import time
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from service.db.session import ALIVE_BYPASS_S, create_db_engine


def test_a_new_sqlite_database_and_its_wal_are_readable_by_the_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "home" / "raysweep.db"
    engine = create_db_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE t (x INTEGER)"))
        connection.execute(text("INSERT INTO t VALUES (1)"))
        for made in (path, path.with_name("raysweep.db-wal")):
            assert stat.S_IMODE(made.stat().st_mode) == 0o600, made
    engine.dispose()


# far longer than the limit on either backend: 100 million rows counted, or a 60 s sleep
SLOW = {
    "sqlite": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
    "WHERE i < 100000000) SELECT count(*) FROM n",
    "postgresql": "SELECT pg_sleep(60)",
}


def test_a_statement_past_the_time_limit_is_cut_off_and_the_connection_lives_on(
    empty_db_url: str,
) -> None:
    engine = create_db_engine(empty_db_url, statement_timeout_s=0.3)
    try:
        with pytest.raises(OperationalError) as cut, engine.connect() as connection:
            connection.execute(text(SLOW[engine.dialect.name])).scalar()
        assert "interrupted" in str(cut.value) or "statement timeout" in str(cut.value)
        # the same pooled connection answers the next statement, and a quick one is never cut
        with engine.connect() as connection:
            assert connection.execute(text("SELECT 1")).scalar() == 1
        assert engine.pool.checkedin() == 1
    finally:
        engine.dispose()


@pytest.mark.parametrize("empty_db_url", ["postgres"], indirect=True)
def test_an_api_connection_the_server_dropped_is_replaced_once_it_was_idle(
    empty_db_url: str,
) -> None:
    """The API engine pings a pooled connection only after ALIVE_BYPASS_S in the pool: one
    the server terminated meanwhile (as a restart would) is replaced, not handed to a request."""
    engine = create_db_engine(empty_db_url, statement_timeout_s=5)
    try:
        with engine.connect() as connection:
            backend = connection.execute(text("SELECT pg_backend_pid()")).scalar()
        with create_db_engine(empty_db_url).connect() as admin:
            assert admin.execute(text(f"SELECT pg_terminate_backend({backend})")).scalar()
        time.sleep(ALIVE_BYPASS_S + 0.1)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT pg_backend_pid()")).scalar() != backend
        assert engine.pool.checkedin() == 1
    finally:
        engine.dispose()
