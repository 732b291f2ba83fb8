"""The lifecycle of work the controller runs as Ray Jobs, in one shape for both kinds: a sweep
(one driver job per attempt) and a final run (one training job per attempt).

The controller's one dispatcher and one reconciler (``service.controller.jobs``) drive both
through ``JobRecords``: they read what is queued and what is active, call Ray, and report back
what happened (``job_submitted``, ``job_lost``, ``job_resubmitted``). Every state change is made
here, against the tables in ``service.states``.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from sqlalchemy import ColumnElement, func, select, true
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import EXPERIMENT_ACTIVE, FINAL_RUN_ACTIVE, ExperimentState, FinalRunState
from service.db import repositories as repo
from service.db.base import utcnow
from service.db.models.registry import FinalRunRow
from service.db.models.sweeps import ExperimentRow
from service.settings import Settings
from service.states import STOPPED, IllegalTransition, end_sweep, move_experiment, move_final_run

Id = TypeVar("Id", bound=Hashable)
Id_co = TypeVar("Id_co", bound=Hashable, covariant=True)

BATCH = 50
# an active sweep's driver job exists (or is being stopped) and holds a sweep slot; an active
# final run's job holds its final cluster's


@dataclass(frozen=True)
class Pool:
    """Jobs that share one limit on one cluster."""

    cluster: str
    limit: int


@dataclass(frozen=True)
class Queued(Generic[Id]):
    id: Id
    attempt: int


@dataclass(frozen=True)
class Active(Generic[Id]):
    id: Id
    job_id: str
    cluster: str
    # asked to stop, and the job has had the time it is given to honour that itself
    stop_overdue: bool


@dataclass(frozen=True)
class Lost:
    """What ``job_lost`` decided: nothing (the job recorded its outcome meanwhile), ended (the
    record reached its final state), or a resubmission as ``attempt``."""

    acted: bool
    resubmit_attempt: int | None = None


class JobRecords(Protocol[Id]):
    kind: str  # "sweep" or "final run", for messages

    def pools(self) -> list[Pool]: ...

    def queued(self, pool: Pool) -> list[Queued[Id]]:
        """The oldest queued records that fit in the pool's free slots."""

    def active(self) -> list[Active[Id]]: ...

    def job_submitted(self, id: Id, job_id: str, attempt: int) -> None: ...

    def job_lost(self, id: Id, job_id: str, reason: str, resubmittable: bool) -> Lost: ...

    def job_resubmitted(self, id: Id, job_id: str, attempt: int) -> None: ...


def first_line(message: str) -> str:
    # Ray's job message can carry the job's last 20k characters of logs: keep the first line
    return message.strip().splitlines()[0][:300] if message.strip() else ""


class SweepJobs:
    kind = "sweep"

    def __init__(self, db: sessionmaker[Session], settings: Settings):
        self.db, self.settings = db, settings

    def pools(self) -> list[Pool]:
        """One per sweep cluster: the shared one, and each project's own."""
        return [
            Pool(c.name, self.settings.max_concurrent_sweeps) for c in self.settings.sweep_clusters
        ]

    def _of_pool(self, pool: Pool) -> ColumnElement[bool]:
        """The experiments whose project's sweeps run on the pool's cluster."""
        cluster = next(c for c in self.settings.sweep_clusters if c.name == pool.cluster)
        if cluster.projects:
            return ExperimentRow.project.in_(cluster.projects)
        bound = [p for c in self.settings.sweep_clusters for p in c.projects]
        return ExperimentRow.project.not_in(bound) if bound else true()

    def queued(self, pool: Pool) -> list[Queued[str]]:
        with self.db.begin() as session:
            busy = session.scalar(
                select(func.count())
                .select_from(ExperimentRow)
                .where(ExperimentRow.state.in_(EXPERIMENT_ACTIVE), self._of_pool(pool))
            )
            free = pool.limit - (busy or 0)
            if free <= 0:
                return []
            rows = session.execute(
                select(ExperimentRow.id, ExperimentRow.driver_attempts)
                .where(ExperimentRow.state == ExperimentState.queued, self._of_pool(pool))
                .order_by(ExperimentRow.created_at, ExperimentRow.id)
                .limit(free)
            ).all()
        return [Queued(experiment_id, attempt) for experiment_id, attempt in rows]

    def active(self) -> list[Active[str]]:
        with self.db.begin() as session:
            rows = session.execute(
                select(
                    ExperimentRow.id,
                    ExperimentRow.driver_job_id,
                    ExperimentRow.state,
                    ExperimentRow.stop_requested_at,
                    ExperimentRow.project,
                )
                .where(
                    ExperimentRow.state.in_(EXPERIMENT_ACTIVE),
                    ExperimentRow.driver_job_id.is_not(None),
                )
                .order_by(ExperimentRow.updated_at)
                .limit(BATCH)
            ).all()
        now = utcnow()
        # a driver asked to cancel or pause stops by itself after its trials' next checkpoint;
        # only one that has not within cancel_grace_s has its job stopped. Its cluster: its
        # project's, as the settings say now (a binding is changed while the project has no
        # sweep running)
        return [
            Active(
                experiment_id,
                job_id,
                self.settings.sweep_cluster_for(project).name,
                state is not ExperimentState.running
                and asked is not None
                and (now - asked).total_seconds() >= self.settings.cancel_grace_s,
            )
            for experiment_id, job_id, state, asked, project in rows
            if job_id is not None
        ]

    def job_submitted(self, id: str, job_id: str, attempt: int) -> None:
        with self.db.begin() as session:
            row = repo.get_experiment_row(session, id, for_update=True)
            try:
                move_experiment(row, ExperimentState.running)
            except IllegalTransition:
                # cancelled while we submitted: the driver sees a non-running sweep and exits
                return
            self._record_job(session, row, job_id, attempt, "driver submitted")

    def job_lost(self, id: str, job_id: str, reason: str, resubmittable: bool) -> Lost:
        with self.db.begin() as session:
            row = repo.get_experiment_row(session, id, for_update=True)
            if row.driver_job_id != job_id or row.state not in EXPERIMENT_ACTIVE:
                return Lost(False)  # the driver finished its bookkeeping meanwhile
            reason = f"driver {reason}"
            if row.state in STOPPED:
                # it was asked to stop; with the driver gone that request is fulfilled
                target = STOPPED[row.state]
                end_sweep(session, row, target)
                repo.add_event(session, id, target.value, f"{reason}; {target.value}")
                return Lost(True)
            limit = self.settings.max_driver_restarts
            if not resubmittable or row.driver_restarts >= limit:
                end_sweep(session, row, ExperimentState.failed)
                row.error = f"{reason}; not resubmitted" + (
                    f": the driver was already restarted {row.driver_restarts} time(s), the "
                    f"limit set by RAYSWEEP_MAX_DRIVER_RESTARTS={limit}"
                    if resubmittable
                    else ""
                )
                repo.add_event(session, id, "failed", row.error)
                return Lost(True)
            row.driver_restarts += 1
            repo.add_event(
                session,
                id,
                "driver_lost",
                f"{reason}; resubmitting (restart {row.driver_restarts})",
            )
            return Lost(True, row.driver_attempts)

    def job_resubmitted(self, id: str, job_id: str, attempt: int) -> None:
        with self.db.begin() as session:
            row = repo.get_experiment_row(session, id, for_update=True)
            self._record_job(session, row, job_id, attempt, "driver resubmitted")

    @staticmethod
    def _record_job(
        session: Session, row: ExperimentRow, job_id: str, attempt: int, what: str
    ) -> None:
        row.driver_job_id, row.driver_attempts = job_id, attempt + 1
        repo.add_event(
            session,
            row.id,
            "driver_submitted",
            f"{what} as Ray job {job_id}",
            data={"job_id": job_id},
        )


class FinalRunJobs:
    kind = "final run"

    def __init__(self, db: sessionmaker[Session], settings: Settings):
        self.db, self.settings = db, settings

    def pools(self) -> list[Pool]:
        return [
            Pool(record.name, record.max_concurrent_jobs)
            for record in self.settings.cluster_records
            if record.serves("final")
        ]

    def queued(self, pool: Pool) -> list[Queued[int]]:
        with self.db.begin() as session:
            busy = session.scalar(
                select(func.count()).where(
                    FinalRunRow.cluster == pool.cluster, FinalRunRow.state.in_(FINAL_RUN_ACTIVE)
                )
            )
            free = pool.limit - (busy or 0)
            if free <= 0:
                return []
            rows = session.execute(
                select(FinalRunRow.id, FinalRunRow.attempts)
                .where(
                    FinalRunRow.cluster == pool.cluster, FinalRunRow.state == FinalRunState.queued
                )
                .order_by(FinalRunRow.created_at, FinalRunRow.id)
                .limit(free)
            ).all()
        return [Queued(final_run_id, attempt) for final_run_id, attempt in rows]

    def active(self) -> list[Active[int]]:
        with self.db.begin() as session:
            rows = session.execute(
                select(FinalRunRow.id, FinalRunRow.job_id, FinalRunRow.cluster, FinalRunRow.state)
                .where(FinalRunRow.state.in_(FINAL_RUN_ACTIVE), FinalRunRow.job_id.is_not(None))
                .order_by(FinalRunRow.id)
                .limit(BATCH)
            ).all()
        # a final run's job does not watch for cancellation: its job is stopped at once (Ray
        # Jobs: SIGTERM, then SIGKILL; the Train run's actors and placement groups go with it)
        return [
            Active(final_run_id, job_id, cluster, state is FinalRunState.cancelling)
            for final_run_id, job_id, cluster, state in rows
            if job_id is not None
        ]

    def job_submitted(self, id: int, job_id: str, attempt: int) -> None:
        with self.db.begin() as session:
            row = session.get(FinalRunRow, id, with_for_update=True)
            if row is None or row.job_id is not None or row.state.is_final:
                return  # cancelled meanwhile: its job finds nothing to do and ends
            # the job may have started (queued -> running) before this: record its id all the
            # same, or no reconciler would ever look at it
            if row.state == FinalRunState.queued:
                move_final_run(row, FinalRunState.running)
            row.job_id, row.attempts = job_id, attempt + 1
            repo.add_event(
                session,
                row.experiment_id,
                "final_run_submitted",
                f"final run {row.id} submitted as Ray job {job_id}",
                data={"final_run_id": row.id, "job_id": job_id, "cluster": row.cluster},
            )

    def job_lost(self, id: int, job_id: str, reason: str, resubmittable: bool) -> Lost:
        with self.db.begin() as session:
            row = session.get(FinalRunRow, id, with_for_update=True)
            if row is None or row.state.is_final or row.job_id != job_id:
                return Lost(False)  # it recorded its outcome meanwhile
            if row.state == FinalRunState.cancelling:  # the stop asked for is done
                move_final_run(row, FinalRunState.cancelled)
                repo.add_event(
                    session,
                    row.experiment_id,
                    "final_run_cancelled",
                    f"final run {row.id} cancelled ({reason})",
                    data={"final_run_id": row.id, "job_id": job_id},
                )
                return Lost(True)
            if not resubmittable or row.restarts >= self.settings.max_driver_restarts:
                move_final_run(row, FinalRunState.failed)
                row.error = f"{reason}; not resubmitted after {row.restarts} restart(s)"
                repo.add_event(session, row.experiment_id, "final_run_failed", row.error)
                return Lost(True)
            row.restarts += 1
            repo.add_event(
                session,
                row.experiment_id,
                "final_run_lost",
                f"final run {row.id}: {reason}; resubmitting (restart {row.restarts})",
            )
            return Lost(True, row.attempts)

    def job_resubmitted(self, id: int, job_id: str, attempt: int) -> None:
        with self.db.begin() as session:
            row = session.get(FinalRunRow, id, with_for_update=True)
            if row is not None:
                row.job_id, row.attempts = job_id, attempt + 1
