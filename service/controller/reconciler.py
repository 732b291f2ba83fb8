"""Reconciler: compares running experiments with their driver jobs and acts on differences.

- a driver that is gone while its sweep is active is resubmitted (it restores the Tune state),
  up to ``max_driver_restarts``; then the sweep fails with the reason;
- a sweep asked to cancel or pause whose driver has not honoured it within ``cancel_grace_s``
  gets its job stopped.
"""

from __future__ import annotations

import logging

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.schemas import ExperimentState
from service.db import repositories as repo
from service.db.models import ExperimentRow, utcnow
from service.engine.launcher import Launcher
from service.settings import Settings
from service.states import STOPPED, end_sweep

log = logging.getLogger("raysweep.reconciler")
ACTIVE = [ExperimentState.running, ExperimentState.cancelling, ExperimentState.pausing]
BATCH = 50


class Reconciler:
    name = "reconciler"

    def __init__(self, db: sessionmaker[Session], launcher: Launcher, settings: Settings):
        self.db, self.launcher, self.settings = db, launcher, settings

    def run_once(self) -> int:
        with self.db.begin() as session:
            active = session.execute(
                select(ExperimentRow.id, ExperimentRow.driver_job_id, ExperimentRow.state)
                .where(ExperimentRow.state.in_(ACTIVE))
                .order_by(ExperimentRow.updated_at)
                .limit(BATCH)
            ).all()
        acted = 0
        for experiment_id, job_id, state in active:
            if job_id is None:
                continue
            job = self.launcher.status(job_id)
            if not job.alive:
                acted += self.driver_gone(experiment_id, job_id, job.state, job.message)
            elif state != ExperimentState.running:
                acted += self.enforce_request(experiment_id, job_id)
        return acted

    def driver_gone(self, experiment_id: str, job_id: str, job_state: str, message: str) -> int:
        with self.db.begin() as session:
            row = repo.get_experiment_row(session, experiment_id, for_update=True)
            if row.driver_job_id != job_id or row.state not in ACTIVE:
                return 0  # the driver finished its bookkeeping meanwhile
            # Ray's message can carry the job's last 20k characters of logs: keep the first line
            summary = message.strip().splitlines()[0][:300] if message.strip() else ""
            reason = f"driver job {job_id} is {job_state}" + (f": {summary}" if summary else "")
            if row.state != ExperimentState.running:
                # it was asked to stop; with the driver gone that request is fulfilled
                target = STOPPED[row.state]
                end_sweep(session, row, target)
                repo.add_event(session, experiment_id, target.value, f"{reason}; {target.value}")
                return 1
            if row.driver_restarts >= self.settings.max_driver_restarts:
                end_sweep(session, row, ExperimentState.failed)
                row.error = (
                    f"{reason}; not resubmitted: the driver was already restarted "
                    f"{row.driver_restarts} time(s), the limit set by "
                    f"RAYSWEEP_MAX_DRIVER_RESTARTS={self.settings.max_driver_restarts}"
                )
                repo.add_event(session, experiment_id, "failed", row.error)
                return 1
            row.driver_restarts += 1
            attempt = row.driver_attempts
            repo.add_event(
                session,
                experiment_id,
                "driver_lost",
                f"{reason}; resubmitting (restart {row.driver_restarts})",
            )
        new_job = self.launcher.submit(experiment_id, attempt)
        with self.db.begin() as session:
            row = repo.get_experiment_row(session, experiment_id, for_update=True)
            row.driver_job_id = new_job
            row.driver_attempts = attempt + 1
            repo.add_event(
                session,
                experiment_id,
                "driver_submitted",
                f"driver resubmitted as Ray job {new_job}",
                data={"job_id": new_job},
            )
        return 1

    def enforce_request(self, experiment_id: str, job_id: str) -> int:
        with self.db.begin() as session:
            asked = session.scalar(
                select(ExperimentRow.stop_requested_at).where(ExperimentRow.id == experiment_id)
            )
        if asked is None or (utcnow() - asked).total_seconds() < self.settings.cancel_grace_s:
            return 0
        log.warning(
            "driver %s ignored a stop request for %ss; stopping its job",
            job_id,
            self.settings.cancel_grace_s,
        )
        self.launcher.stop(job_id)
        return 1
