"""ScheduleFirer: fires every schedule's due times (exactly once across server processes)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session, sessionmaker

from service.clock import Clock
from service.settings import Settings
from service.usecases.schedules import due_schedule_ids, fire_schedule


class ScheduleFirer:
    name = "schedule-firer"

    def __init__(self, db: sessionmaker[Session], settings: Settings, clock: Clock):
        self.db, self.clock = db, clock
        self.grace = timedelta(seconds=settings.misfire_grace_s)

    def run_once(self) -> int:
        now = self.clock.now()
        return sum(
            fire_schedule(self.db, schedule_id, now, self.grace)
            for schedule_id in due_schedule_ids(self.db, now)
        )
