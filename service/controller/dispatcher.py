"""Dispatcher: queued experiments -> one driver Ray Job each, oldest first, within the limit."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.schemas import ExperimentState
from service.db import repositories as repo
from service.db.models import ExperimentRow
from service.engine.launcher import Launcher
from service.settings import Settings
from service.states import IllegalTransition, move_experiment

OCCUPYING = [
    ExperimentState.running,
    ExperimentState.cancelling,
    ExperimentState.pausing,
]


class Dispatcher:
    name = "dispatcher"

    def __init__(self, db: sessionmaker[Session], launcher: Launcher, settings: Settings):
        self.db, self.launcher, self.settings = db, launcher, settings

    def run_once(self) -> int:
        with self.db.begin() as session:
            busy = (
                session.scalar(
                    select(func.count())
                    .select_from(ExperimentRow)
                    .where(ExperimentRow.state.in_(OCCUPYING))
                )
                or 0
            )
            free = self.settings.max_concurrent_sweeps - busy
            if free <= 0:
                return 0
            queued = session.execute(
                select(ExperimentRow.id, ExperimentRow.driver_attempts)
                .where(ExperimentRow.state == ExperimentState.queued)
                .order_by(ExperimentRow.created_at, ExperimentRow.id)
                .limit(free)
            ).all()
        for experiment_id, attempt in queued:
            self.dispatch(experiment_id, attempt)
        return len(queued)

    def dispatch(self, experiment_id: str, attempt: int) -> None:
        # intent, Ray call, outcome: no transaction is held across the call, and the job id is
        # derived from (experiment, attempt) so a repeated submit cannot start a second driver
        job_id = self.launcher.submit(experiment_id, attempt)
        with self.db.begin() as session:
            row = repo.get_experiment_row(session, experiment_id, for_update=True)
            try:
                move_experiment(row, ExperimentState.running)
            except IllegalTransition:
                # cancelled while we submitted: the driver sees a non-running sweep and exits
                return
            row.driver_job_id = job_id
            row.driver_attempts = attempt + 1
            repo.add_event(
                session,
                experiment_id,
                "driver_submitted",
                f"driver submitted as Ray job {job_id}",
                data={"job_id": job_id},
            )
