"""Alembic, driven from code: upgrade, downgrade, and the schema-version check at startup."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

from service.settings import bundled

MIGRATIONS_DIR = bundled("migrations", "migrations")


class SchemaOutOfDate(RuntimeError):
    pass


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    # percent signs in passwords would be read as interpolation by configparser
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    command.downgrade(alembic_config(url), revision)


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def check_schema(engine: Engine) -> None:
    """Raise ``SchemaOutOfDate`` with the command that fixes it unless the DB is at head."""
    current, head = current_revision(engine), head_revision()
    if current != head:
        raise SchemaOutOfDate(
            f"database schema is at {current or 'nothing'}, this server needs {head}; "
            "run `python -m service migrate` (or `make migrate`) first"
        )
