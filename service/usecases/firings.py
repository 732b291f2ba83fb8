"""Firing schedules: which are due, and one due time recorded exactly once (across server
processes) with what it started, skipped, queued or cancelled by its ``overlap`` and
``misfire`` rules."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import FIRING_ACTIVE, FiringOutcome
from raysweep.schedules import Misfire, Overlap, ScheduleKind
from raysweep.spec import ExperimentSpec
from service.cron import due_between, next_due
from service.db.models.registry import FinalRunRow
from service.db.models.schedules import ScheduleFiringRow, ScheduleRow
from service.db.models.sweeps import ExperimentRow
from service.states import move_firing
from service.usecases.admission import Refusal
from service.usecases.clusters import FinalClusters, FixedSweepCluster, no_fixed_cluster
from service.usecases.experiments import queue_sweep
from service.usecases.final_runs import request_final_run_cancel
from service.usecases.retrain import end, start_retrain
from service.usecases.schedules import BATCH
from service.usecases.sweep_control import request_cancel


def due_schedule_ids(db: sessionmaker[Session], now: datetime) -> list[str]:
    with db.begin() as session:
        due = session.scalars(
            select(ScheduleRow.id)
            .where(ScheduleRow.enabled.is_(True), ScheduleRow.next_run_at <= now)
            .order_by(ScheduleRow.next_run_at)
            .limit(BATCH)
        ).all()
        waiting = session.scalars(
            select(ScheduleFiringRow.schedule_id)
            .where(ScheduleFiringRow.outcome == FiringOutcome.waiting)
            .distinct()
            .limit(BATCH)
        ).all()
    return list(dict.fromkeys([*due, *waiting]))


def fire_schedule(
    db: sessionmaker[Session],
    schedule_id: str,
    now: datetime,
    misfire_grace: timedelta,
    final_clusters: FinalClusters,
    fixed_sweep_cluster: FixedSweepCluster = no_fixed_cluster,
) -> int:
    """Fire what is due for one schedule, in one transaction; returns the firings recorded.
    Another process holding the schedule (or having fired the time) makes this a no-op."""
    try:
        with db.begin() as session:
            row = session.scalars(
                select(ScheduleRow)
                .where(ScheduleRow.id == schedule_id)
                .with_for_update(skip_locked=True)
            ).one_or_none()
            if row is None:
                return 0  # another server is firing it right now
            firing = Firing(session, row, final_clusters, fixed_sweep_cluster)
            recorded = firing.release_waiting()
            if row.enabled and row.next_run_at is not None and row.next_run_at <= now:
                recorded += firing.fire_due(now, misfire_grace)
            return recorded
    except IntegrityError:
        return 0  # another server recorded this due time first


@dataclass(frozen=True)
class Previous:
    """The previous firing's run, still going: what to say of it, and its sweep (kind sweep)
    or its firing (kind retrain: a re-tuning sweep or a final run)."""

    what: str
    sweep: ExperimentRow | None = None
    retrain: ScheduleFiringRow | None = None


@dataclass
class Firing:
    """Firing one schedule, inside the transaction that holds its row."""

    session: Session
    row: ScheduleRow
    final_clusters: FinalClusters
    # the sweep cluster when it does not autoscale: a sweep whose trial cannot fit it now is a
    # failed firing, not a sweep that waits forever
    fixed_sweep_cluster: FixedSweepCluster = no_fixed_cluster

    def fire_due(self, now: datetime, grace: timedelta) -> int:
        """Fire the due times up to ``now``. Times more than ``grace`` old were missed (no
        server ran): ``misfire: skip`` records them as one ``missed`` row; ``run_once`` fires
        once for all of them (or lets an on-time firing stand for them)."""
        row = self.row
        assert row.next_run_at is not None
        times = due_between(row.cron, row.timezone, row.next_run_at, now)
        row.next_run_at = next_due(row.cron, row.timezone, now)
        late = [t for t in times if now - t > grace]
        on_time = [t for t in times if now - t <= grace]
        recorded = 0
        if late and row.misfire == Misfire.skip:
            self.session.add(
                ScheduleFiringRow(
                    schedule_id=row.id,
                    scheduled_for=late[0],
                    outcome=FiringOutcome.missed,
                    message=f"{len(late)} due time(s) from {late[0].isoformat()} to "
                    f"{late[-1].isoformat()} missed while no server ran; skipped (misfire: skip)",
                )
            )
            self.session.flush()
            recorded += 1
        elif late and not on_time:
            recorded += self.fire_one(
                late[-1], f"stands for {len(late)} due time(s) missed while down; "
            )
        for index, moment in enumerate(on_time):
            note = f"also stands for {len(late)} missed due time(s); " if late and not index else ""
            recorded += self.fire_one(moment, note if row.misfire == Misfire.run_once else "")
        return recorded

    def still_going(self) -> Previous | None:
        """What the previous firing started, while it runs."""
        if self.row.kind == ScheduleKind.retrain:
            active = self.session.scalars(
                select(ScheduleFiringRow)
                .where(
                    ScheduleFiringRow.schedule_id == self.row.id,
                    ScheduleFiringRow.outcome.in_(FIRING_ACTIVE),
                )
                .limit(1)
                .with_for_update()
            ).one_or_none()
            if active is None:
                return None
            what = f"final run {active.final_run_id}" if active.final_run_id else "re-tuning"
            return Previous(
                f"the previous retrain ({what}) is still {active.outcome}", retrain=active
            )
        experiment_id = self.session.scalar(
            select(ScheduleFiringRow.experiment_id)
            .where(
                ScheduleFiringRow.schedule_id == self.row.id,
                ScheduleFiringRow.experiment_id.is_not(None),
            )
            .order_by(ScheduleFiringRow.scheduled_for.desc())
            .limit(1)
        )
        if experiment_id is None:
            return None
        experiment = self.session.get(ExperimentRow, experiment_id, with_for_update=True)
        if experiment is None or experiment.state.is_final:
            return None
        return Previous(
            f"the previous sweep {experiment.id} is still {experiment.state}", experiment
        )

    def cancel_previous(self, previous: Previous) -> str:
        """``overlap: cancel_previous``: cancel what the previous firing runs; what to tell."""
        session, reason = self.session, f"cancelled by schedule {self.row.name}: next run due"
        if previous.sweep is not None:
            request_cancel(session, previous.sweep, reason)
            return f"cancelled the previous sweep {previous.sweep.id}; "
        firing = previous.retrain
        assert firing is not None  # a Previous names one or the other
        if firing.final_run_id is not None:
            run = session.get(FinalRunRow, firing.final_run_id, with_for_update=True)
            if run is not None and not run.state.is_final:
                request_final_run_cancel(session, run, reason)
        elif firing.experiment_id is not None:
            sweep = session.get(ExperimentRow, firing.experiment_id, with_for_update=True)
            if sweep is not None and not sweep.state.is_final:
                request_cancel(session, sweep, reason)
        end(
            firing,
            FiringOutcome.cancelled,
            "cancelled: the next due time came (overlap: cancel_previous)",
        )
        return f"cancelled the previous retrain (firing {firing.id}); "

    def fire_one(self, scheduled_for: datetime, note: str) -> int:
        row, session = self.row, self.session
        previous = self.still_going()
        waiting = session.scalar(
            select(ScheduleFiringRow.id).where(
                ScheduleFiringRow.schedule_id == row.id,
                ScheduleFiringRow.outcome == FiringOutcome.waiting,
            )
        )
        firing = ScheduleFiringRow(schedule_id=row.id, scheduled_for=scheduled_for, message=note)
        if previous is not None and row.overlap == Overlap.skip:
            move_firing(firing, FiringOutcome.skipped)
            firing.message += previous.what
        elif (previous is not None or waiting is not None) and row.overlap == Overlap.queue:
            move_firing(firing, FiringOutcome.waiting)
            firing.message += "queued behind the previous run"
        else:
            if previous is not None:  # overlap: cancel_previous
                firing.message += self.cancel_previous(previous)
            self.start(firing)
        session.add(firing)
        session.flush()
        return 1

    def start(self, firing: ScheduleFiringRow) -> None:
        move_firing(firing, FiringOutcome.submitted)
        self.session.add(firing)
        self.session.flush()  # a retrain's final run and sweep name the firing
        if self.row.kind == ScheduleKind.retrain:
            start_retrain(
                self.session, self.row, firing, self.final_clusters, self.fixed_sweep_cluster
            )
        else:
            self.submit_sweep(firing)

    def submit_sweep(self, firing: ScheduleFiringRow) -> None:
        row = self.row
        spec = ExperimentSpec.model_validate(row.template)
        stamp = firing.scheduled_for.strftime("%Y%m%dT%H%M")
        spec = spec.model_copy(
            update={
                "name": f"{spec.name[:100]}-{stamp}",
                "labels": {**spec.labels, "schedule": row.name},
            }
        )
        experiment = queue_sweep(
            self.session,
            spec,
            f"submitted by schedule {row.name} for {firing.scheduled_for.isoformat()}",
            f"schedule:{row.name}"[:64],
            {"schedule_id": row.id, "scheduled_for": firing.scheduled_for.isoformat()},
            self.fixed_sweep_cluster,
        )
        if isinstance(experiment, Refusal):
            move_firing(firing, FiringOutcome.failed)
            firing.message += f"not submitted: {experiment.reason}"
            return
        firing.experiment_id = experiment.id
        firing.message += f"submitted sweep {experiment.id}"

    def release_waiting(self) -> int:
        """Start the oldest waiting firing once the run before it has ended."""
        waiting = self.session.scalars(
            select(ScheduleFiringRow)
            .where(
                ScheduleFiringRow.schedule_id == self.row.id,
                ScheduleFiringRow.outcome == FiringOutcome.waiting,
            )
            .order_by(ScheduleFiringRow.scheduled_for)
            .limit(1)
        ).one_or_none()
        if waiting is None or self.still_going() is not None:
            return 0
        waiting.message += "; "
        self.start(waiting)
        self.session.flush()
        return 1
