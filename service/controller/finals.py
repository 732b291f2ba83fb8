"""Final runs in the controller: auto-promotion of completed sweeps, dispatch of queued final
runs as Ray Jobs, resubmission of a final run whose job died (it continues from the Train
run's latest checkpoint), and stopping the job of a final run being cancelled."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.schemas import ExperimentState, FinalRunState, PromotionStatus
from raysweep.spec import ExperimentSpec, PromotionOverrides
from service.db import repositories as repo
from service.db.models import ExperimentRow, FinalRunRow
from service.engine.launcher import Launcher
from service.errors import Conflict, InvalidInput
from service.settings import Settings
from service.states import move_final_run
from service.usecases.promotion import promote_experiment

log = logging.getLogger("raysweep.finals")
BATCH = 20
# the states in which a final run's job exists (or is being stopped) and holds a cluster slot
JOB_HOLDING = (FinalRunState.running, FinalRunState.cancelling)


class Promoter:
    """Completed sweeps with ``promotion.auto`` that were neither promoted nor skipped."""

    name = "promoter"

    def __init__(self, db: sessionmaker[Session], settings: Settings):
        self.db, self.settings = db, settings

    def run_once(self) -> int:
        with self.db.begin() as session:
            candidates = session.execute(
                select(ExperimentRow.id, ExperimentRow.spec)
                .where(
                    ExperimentRow.state == ExperimentState.completed,
                    ExperimentRow.promotion.is_(None),
                )
                .order_by(ExperimentRow.finished_at)
                .limit(BATCH)
            ).all()
        acted = 0
        for experiment_id, spec in candidates:
            if not ExperimentSpec.model_validate(spec).promotion.auto:
                # recorded, so that the next pass looks past it (a batch of these would
                # otherwise hide every later sweep from the promoter)
                self.record(experiment_id, PromotionStatus.manual)
                continue
            try:
                promote_experiment(
                    self.db,
                    experiment_id,
                    PromotionOverrides(),
                    None,
                    self.settings.final_cluster_names,
                )
            except (Conflict, InvalidInput) as error:
                self.record(experiment_id, PromotionStatus.skipped, error.message)
            acted += 1
        return acted

    def record(self, experiment_id: str, status: PromotionStatus, reason: str = "") -> None:
        with self.db.begin() as session:
            row = session.get(ExperimentRow, experiment_id, with_for_update=True)
            if row is None or row.promotion is not None:
                return  # deleted, or promoted by hand meanwhile
            row.promotion = status
            if status is PromotionStatus.skipped:
                repo.add_event(session, experiment_id, "promotion_skipped", reason)


class FinalRunDispatcher:
    """Queued final runs -> one Ray Job each on their final cluster, oldest first, within each
    cluster's ``max_concurrent_jobs``."""

    name = "final-run-dispatcher"

    def __init__(
        self, db: sessionmaker[Session], launchers: Mapping[str, Launcher], settings: Settings
    ):
        self.db, self.launchers, self.settings = db, launchers, settings

    def run_once(self) -> int:
        submitted = 0
        for record in self.settings.cluster_records:
            if record.serves("final"):
                submitted += self.dispatch(record.name, record.max_concurrent_jobs)
        return submitted

    def dispatch(self, cluster: str, limit: int) -> int:
        with self.db.begin() as session:
            running = (
                session.scalar(
                    select(func.count()).where(
                        FinalRunRow.cluster == cluster,
                        FinalRunRow.state.in_(JOB_HOLDING),
                    )
                )
                or 0
            )
            if running >= limit:
                return 0
            queued = session.execute(
                select(FinalRunRow.id, FinalRunRow.attempts)
                .where(
                    FinalRunRow.cluster == cluster,
                    FinalRunRow.state == FinalRunState.queued,
                )
                .order_by(FinalRunRow.created_at, FinalRunRow.id)
                .limit(limit - running)
            ).all()
        for final_run_id, attempt in queued:
            job_id = self.launchers[cluster].submit_final_run(final_run_id, attempt)
            with self.db.begin() as session:
                row = session.get(FinalRunRow, final_run_id, with_for_update=True)
                if row is None or row.job_id is not None or row.state.is_final:
                    continue  # cancelled meanwhile: its job finds nothing to do and ends
                # the job may have started (queued -> running) before this: record its id
                # all the same, or no reconciler would ever look at it
                if row.state == FinalRunState.queued:
                    move_final_run(row, FinalRunState.running)
                row.job_id, row.attempts = job_id, attempt + 1
                repo.add_event(
                    session,
                    row.experiment_id,
                    "final_run_submitted",
                    f"final run {row.id} submitted as Ray job {job_id}",
                    data={"final_run_id": row.id, "job_id": job_id, "cluster": cluster},
                )
        return len(queued)


class FinalRunReconciler:
    """A running final run whose job is gone is resubmitted (up to max_driver_restarts), or
    fails with the reason; a cancelling one has its job stopped, and is cancelled once the job
    is gone."""

    name = "final-run-reconciler"

    def __init__(
        self, db: sessionmaker[Session], launchers: Mapping[str, Launcher], settings: Settings
    ):
        self.db, self.launchers, self.settings = db, launchers, settings

    def run_once(self) -> int:
        with self.db.begin() as session:
            running = session.execute(
                select(FinalRunRow.id, FinalRunRow.job_id, FinalRunRow.cluster, FinalRunRow.state)
                .where(FinalRunRow.state.in_(JOB_HOLDING), FinalRunRow.job_id.is_not(None))
                .order_by(FinalRunRow.id)
                .limit(BATCH)
            ).all()
        acted = 0
        for final_run_id, job_id, cluster, state in running:
            if job_id is None:  # the query asks for a job; this tells the type checker
                continue
            launcher = self.launchers.get(cluster)
            if launcher is None:
                gone = f"cluster {cluster} is no longer configured"
                acted += self.job_gone(final_run_id, job_id, gone, None)
                continue
            job = launcher.status(job_id)
            if state == FinalRunState.cancelling:
                acted += self.stop(final_run_id, job_id, job.alive, launcher)
            elif not job.alive:
                reason = f"job {job_id} is {job.state}"
                acted += self.job_gone(final_run_id, job_id, reason, launcher)
        return acted

    def stop(self, final_run_id: int, job_id: str, alive: bool, launcher: Launcher) -> int:
        """A cancelling run: stop its job (Ray Jobs: SIGTERM, then SIGKILL; the Train run's
        actors and placement groups go with its driver) until it is gone, then cancelled."""
        if alive:
            launcher.stop(job_id)
            return 0
        stopped = f"final run {final_run_id} cancelled; its job {job_id} was stopped"
        return self.job_gone(final_run_id, job_id, stopped, launcher)

    def job_gone(
        self, final_run_id: int, job_id: str, reason: str, launcher: Launcher | None
    ) -> int:
        with self.db.begin() as session:
            row = session.get(FinalRunRow, final_run_id, with_for_update=True)
            if row is None or row.state.is_final or row.job_id != job_id:
                return 0  # it recorded its outcome meanwhile
            if row.state == FinalRunState.cancelling:  # the stop asked for is done
                move_final_run(row, FinalRunState.cancelled)
                repo.add_event(
                    session,
                    row.experiment_id,
                    "final_run_cancelled",
                    reason,
                    data={"final_run_id": row.id, "job_id": job_id},
                )
                return 1
            if launcher is None or row.restarts >= self.settings.max_driver_restarts:
                move_final_run(row, FinalRunState.failed)
                row.error = f"{reason}; not resubmitted after {row.restarts} restart(s)"
                repo.add_event(session, row.experiment_id, "final_run_failed", row.error)
                return 1
            row.restarts += 1
            attempt = row.attempts
            repo.add_event(
                session,
                row.experiment_id,
                "final_run_lost",
                f"final run {row.id}: {reason}; resubmitting (restart {row.restarts})",
            )
        new_job = launcher.submit_final_run(final_run_id, attempt)
        with self.db.begin() as session:
            row = session.get(FinalRunRow, final_run_id, with_for_update=True)
            if row is not None:
                row.job_id, row.attempts = new_job, attempt + 1
        return 1
