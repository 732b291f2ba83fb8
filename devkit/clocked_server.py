"""``python -m devkit.clocked_server CLOCK_FILE``: ``python -m service serve`` whose schedules
take the time written in ``CLOCK_FILE`` (ISO-8601, timezone-aware) as now, read at every use,
so a test moves time forward for every such server reading the file instead of waiting for real
minutes (the API-only processes ``RAYSWEEP_API_WORKERS`` > 1 starts keep the system's clock). A
test tool: it is not installed with the service."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

from service.server import serve
from service.settings import get_settings


class FileClock:
    """The ISO-8601 time in ``path`` (timezone-aware)."""

    def __init__(self, path: Path):
        self.path = path

    def now(self) -> datetime:
        moment = datetime.fromisoformat(self.path.read_text().strip())
        if moment.tzinfo is None:
            raise ValueError(f"{self.path} must hold a timezone-aware time")
        return moment.astimezone(UTC)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m devkit.clocked_server CLOCK_FILE", file=sys.stderr)
        return 2
    serve(get_settings(), FileClock(Path(argv[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
