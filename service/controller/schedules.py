"""ScheduleFirer: fires every schedule's due times (exactly once across server processes) and
moves retrain firings on as their sweeps and final runs end."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session, sessionmaker

from service.clock import Clock
from service.settings import Settings
from service.usecases.firings import due_schedule_ids, fire_schedule
from service.usecases.retrain import advance_retrains


class ScheduleFirer:
    name = "schedule-firer"

    def __init__(self, db: sessionmaker[Session], settings: Settings, clock: Clock):
        self.db, self.clock = db, clock
        self.grace = timedelta(seconds=settings.misfire_grace_s)
        self.final_clusters = settings.final_clusters_for
        self.fixed_sweep_cluster = settings.fixed_sweep_cluster

    def run_once(self) -> int:
        # retrains first: an ended retrain lets a firing queued behind it start in this pass
        moved = advance_retrains(self.db, self.final_clusters)
        now = self.clock.now()
        return moved + sum(
            fire_schedule(
                self.db, schedule_id, now, self.grace, self.final_clusters, self.fixed_sweep_cluster
            )
            for schedule_id in due_schedule_ids(self.db, now)
        )
