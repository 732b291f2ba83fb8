"""Time for the schedule firer and the schedule routes, injected where the server is composed
(``service.server.serve``): the system clock in service, a test's clock in the tests
(``devkit.clocked_server``), so tests move time forward instead of waiting for real minutes."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)
