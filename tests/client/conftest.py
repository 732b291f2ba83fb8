"""The SDK and CLI speak only REST: one database (SQLite) is enough here; the API tests run
every route on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def empty_db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'raysweep.db'}"
