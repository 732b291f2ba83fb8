"""The ORM's foundation: the declarative base with its naming convention and type map, UTC
datetimes on every backend, enum columns stored as plain strings, and id types."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, ClassVar

from sqlalchemy import JSON, BigInteger, DateTime, Dialect, Enum, Integer, MetaData, TypeDecorator
from sqlalchemy.orm import DeclarativeBase, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


def stored_enum(enum: type[StrEnum], length: int = 16) -> Any:
    """A column typed ``enum``: rows load as its members, and a value not in it is refused on
    write. Stored as its values in a plain VARCHAR (no database enum type, no CHECK), so adding
    a member needs no migration."""
    return mapped_column(
        Enum(
            enum,
            native_enum=False,
            create_constraint=False,
            length=length,
            values_callable=lambda members: [member.value for member in members],
            validate_strings=True,
        )
    )


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on every backend (SQLite drops the offset on its own)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# BigInteger ids that SQLite still autoincrements (it only does so for INTEGER PRIMARY KEY).
BigId = BigInteger().with_variant(Integer(), "sqlite")
# the largest values the columns hold: BigInteger ids, Integer iterations and model versions
MAX_BIGINT = 2**63 - 1
MAX_INT = 2**31 - 1

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UTCDateTime(),
        dict[str, Any]: JSON(),
    }


# the tables whose ids the API addresses: SQLite reuses the largest id after a DELETE unless a
# table is AUTOINCREMENT (PostgreSQL's sequences never do); migration 0017
NEVER_REUSED_IDS = {"sqlite_autoincrement": True}
