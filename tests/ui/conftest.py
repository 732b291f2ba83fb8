"""Routes, the UI and the clients on SQLite alone: the SQL under them is the use cases', which
run on both backends (tests/test_*.py, tests/db); a test here whose own queries differ by
backend says so with ``BOTH_BACKENDS``."""

from __future__ import annotations

import pytest

from tests.conftest import fresh_database

empty_db_url = pytest.fixture(params=["sqlite"], name="empty_db_url")(fresh_database)
