"""Time for the schedule firer, injectable: the system clock, or (tests only) the time written in
a file, so tests move time forward instead of waiting for real minutes, for every server process
reading the same file."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class FileClock:
    """The ISO-8601 time in ``path`` (timezone-aware)."""

    def __init__(self, path: Path):
        self.path = path

    def now(self) -> datetime:
        moment = datetime.fromisoformat(self.path.read_text().strip())
        if moment.tzinfo is None:
            raise ValueError(f"{self.path} must hold a timezone-aware time")
        return moment.astimezone(UTC)


def clock_for(path: Path | None) -> Clock:
    return FileClock(path) if path is not None else SystemClock()
