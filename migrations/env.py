"""Alembic environment: one chain for SQLite (batch mode) and PostgreSQL."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool

import service.db.models  # noqa: F401  (defines the tables on Base.metadata)
from service.db.base import Base

config = context.config
target_metadata = Base.metadata


def run_migrations() -> None:
    url = config.get_main_option("sqlalchemy.url")
    assert url is not None
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()
    engine.dispose()


run_migrations()
