"""The SQLite database file the service creates is private, like the admin token."""

from __future__ import annotations

import stat
from pathlib import Path

from sqlalchemy import text

from service.db.session import create_db_engine


def test_a_new_sqlite_database_and_its_wal_are_readable_by_the_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "home" / "raysweep.db"
    engine = create_db_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE t (x INTEGER)"))
        connection.execute(text("INSERT INTO t VALUES (1)"))
        for made in (path, path.with_name("raysweep.db-wal")):
            assert stat.S_IMODE(made.stat().st_mode) == 0o600, made
    engine.dispose()
