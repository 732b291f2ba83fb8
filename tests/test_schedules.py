"""Firing schedules on a real database (SQLite and PostgreSQL), with time passed in: exactly once
per due time, the overlap policies, the misfire policies, pause and resume."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.schedules import ScheduleCreate
from service.db.models.access import ProjectRow
from service.db.models.schedules import ScheduleFiringRow, ScheduleRow
from service.db.models.sweeps import ExperimentRow
from service.errors import Conflict
from service.settings import REPO_ROOT
from service.usecases.access import operator
from service.usecases.clusters import shared_final_clusters
from service.usecases.firings import due_schedule_ids, fire_schedule
from service.usecases.schedules import create_schedule, get_schedule, set_enabled
from service.usecases.sweep_control import cancel_experiment
from tests.conftest import minimal_spec

LOCAL_ONLY = shared_final_clusters(["local"])

T0 = datetime(2026, 11, 21, 12, 0, 30, tzinfo=UTC)
GRACE = timedelta(seconds=60)


def schedule(db: sessionmaker[Session], **changes: Any) -> str:
    request = ScheduleCreate.model_validate(
        {"name": "every-minute", "cron": "* * * * *", "spec": minimal_spec(), **changes}
    )
    return create_schedule(
        db, request, REPO_ROOT / "search_spaces", LOCAL_ONLY, T0, operator("tester")
    ).id


def tick(db: sessionmaker[Session], now: datetime) -> int:
    return sum(fire_schedule(db, sid, now, GRACE, LOCAL_ONLY) for sid in due_schedule_ids(db, now))


def firings(db: sessionmaker[Session]) -> list[tuple[str, str | None]]:
    with db.begin() as session:
        rows = session.scalars(select(ScheduleFiringRow).order_by(ScheduleFiringRow.scheduled_for))
        return [(row.outcome, row.experiment_id) for row in rows]


def states(db: sessionmaker[Session]) -> list[str]:
    with db.begin() as session:
        return list(session.scalars(select(ExperimentRow.state).order_by(ExperimentRow.created_at)))


def minute(n: int) -> datetime:
    return T0 + timedelta(minutes=n)


def test_each_due_time_fires_once_however_often_the_firer_looks(db: sessionmaker[Session]) -> None:
    schedule_id = schedule(db, overlap="cancel_previous")
    assert get_schedule(db, schedule_id).next_run_at == datetime(2026, 11, 21, 12, 1, tzinfo=UTC)
    assert tick(db, T0) == 0
    for n in range(1, 6):
        assert tick(db, minute(n)) == 1
        assert tick(db, minute(n)) == 0  # looking again fires nothing
    assert [outcome for outcome, _ in firings(db)] == ["submitted"] * 5
    # cancel_previous: every new sweep cancelled the queued one before it
    assert states(db) == ["cancelled"] * 4 + ["queued"]
    with db.begin() as session:
        names = list(session.scalars(select(ExperimentRow.name).order_by(ExperimentRow.name)))
    assert names == [f"digits-20261121T12{m:02d}" for m in range(1, 6)]
    assert get_schedule(db, schedule_id).next_run_at == datetime(2026, 11, 21, 12, 6, tzinfo=UTC)


def test_overlap_skip_and_queue(db: sessionmaker[Session]) -> None:
    skipping = schedule(db, name="skipping", overlap="skip")
    tick(db, minute(1))
    tick(db, minute(2))  # the first sweep is still queued: this time is skipped
    first = firings(db)[0][1]
    assert [o for o, _ in firings(db)] == ["submitted", "skipped"]
    set_enabled(db, skipping, False, minute(2))

    schedule(db, name="queueing", overlap="queue")
    tick(db, minute(3))
    tick(db, minute(4))
    tick(db, minute(5))
    outcomes = [o for o, _ in firings(db)][2:]
    assert outcomes == ["submitted", "waiting", "waiting"]
    submitted = firings(db)[2][1]
    assert submitted is not None and first is not None
    cancel_experiment(db, submitted)  # the sweep ends: the oldest waiting firing goes next
    tick(db, minute(5) + timedelta(seconds=10))
    assert [o for o, _ in firings(db)][2:] == ["submitted", "submitted", "waiting"]


def test_misfire_run_once_and_skip_after_downtime(db: sessionmaker[Session]) -> None:
    schedule(db, name="catch-up", misfire="run_once", cron="*/10 * * * *")
    schedule(db, name="no-catch-up", misfire="skip", cron="*/10 * * * *")
    # no server ran from 12:00:30 to 13:05: the six times 12:10 .. 13:00 were all missed
    assert tick(db, minute(65) - timedelta(seconds=30)) == 2
    with db.begin() as session:
        rows = session.scalars(select(ScheduleFiringRow).order_by(ScheduleFiringRow.id)).all()
        by_outcome = {row.outcome: row for row in rows}
    assert set(by_outcome) == {"submitted", "missed"} and len(rows) == 2
    submitted, missed = by_outcome["submitted"], by_outcome["missed"]
    assert submitted.scheduled_for == datetime(2026, 11, 21, 13, 0, tzinfo=UTC)
    assert "stands for 6 due time(s) missed while down" in submitted.message
    assert "6 due time(s) from 2026-11-21T12:10" in missed.message
    assert missed.experiment_id is None and submitted.experiment_id is not None
    # the next due time is on time: both fire it (no-catch-up's sweep; catch-up skips: overlap)
    assert tick(db, minute(70)) == 2
    assert sorted(o for o, _ in firings(db)) == ["missed", "skipped", "submitted", "submitted"]


def test_an_on_time_firing_stands_for_the_missed_ones_before_it(
    db: sessionmaker[Session],
) -> None:
    schedule(db, misfire="run_once")
    assert tick(db, minute(60) - timedelta(seconds=10)) == 1  # 13:00 is 20 s old: on time
    with db.begin() as session:
        only = session.scalars(select(ScheduleFiringRow)).one()
    assert only.outcome == "submitted" and "also stands for 59 missed" in only.message


def test_a_paused_schedule_never_fires_and_resuming_skips_the_pause(
    db: sessionmaker[Session],
) -> None:
    schedule_id = schedule(db, enabled=False)
    assert get_schedule(db, schedule_id).next_run_at is None
    assert tick(db, minute(30)) == 0
    resumed = set_enabled(db, schedule_id, True, minute(30))
    assert resumed.next_run_at == datetime(2026, 11, 21, 12, 31, tzinfo=UTC)
    assert tick(db, minute(31)) == 1 and len(firings(db)) == 1


@pytest.mark.parametrize("empty_db_url", ["sqlite"], indirect=True)
def test_a_firing_that_fails_to_commit_leaves_nothing(db: sessionmaker[Session]) -> None:
    """The firing row, the sweep and the next due time are one transaction."""
    schedule_id = schedule(db)
    with db.begin() as session:  # another process recorded this due time first
        session.add(
            ScheduleFiringRow(
                schedule_id=schedule_id,
                scheduled_for=datetime(2026, 11, 21, 12, 1, tzinfo=UTC),
                outcome="submitted",
                message="by the other server",
            )
        )
    assert tick(db, minute(1)) == 0
    assert states(db) == [] and len(firings(db)) == 1


def test_a_firing_its_project_refuses_fails_with_the_reason_and_queues_nothing(
    db: sessionmaker[Session],
) -> None:
    """A schedule's sweep keeps to its project's queue as a submitted one does: with one sweep
    of the project queued and max_queued 1, another schedule's firing fails naming the limit;
    once that sweep is cancelled, its next due time goes through."""
    with db.begin() as session:
        session.add(ProjectRow(name="nightly", max_queued=1))
    first = schedule(db, name="first", project="nightly")
    second = schedule(db, name="second", project="nightly", cron="0 * * * *")
    assert get_schedule(db, second).project == "nightly"
    assert tick(db, minute(1)) == 1  # the first only: the second is due on the hour
    [(_, queued)] = firings(db)
    assert queued is not None and states(db) == ["queued"]
    on_the_hour = datetime(2026, 11, 21, 13, 0, tzinfo=UTC)
    set_enabled(db, first, False, minute(1))
    assert tick(db, on_the_hour) == 1
    with db.begin() as session:
        refused = session.scalars(
            select(ScheduleFiringRow).where(ScheduleFiringRow.schedule_id == second)
        ).one()
        outcome, message, experiment = refused.outcome, refused.message, refused.experiment_id
    assert outcome == "failed" and experiment is None
    assert "project 'nightly' has 1 sweeps queued" in message and "max_queued 1" in message
    assert states(db) == ["queued"]  # nothing more was queued
    cancel_experiment(db, queued)
    assert tick(db, on_the_hour + timedelta(hours=1)) == 1
    assert states(db) == ["cancelled", "queued"]


def test_a_project_at_its_schedule_limit_takes_no_more_and_others_are_not_held(
    db: sessionmaker[Session],
) -> None:
    with db.begin() as session:
        session.add(ProjectRow(name="busy"))

    def create(name: str, project: str) -> str:
        request = ScheduleCreate.model_validate(
            {"name": name, "cron": "* * * * *", "spec": minimal_spec(), "project": project}
        )
        return create_schedule(
            db, request, REPO_ROOT / "search_spaces", LOCAL_ONLY, T0, operator("tester"),
            max_per_project=2,
        ).id  # fmt: skip

    create("one", "busy")
    create("two", "busy")
    with pytest.raises(Conflict, match=r"project 'busy' holds 2 schedules, its most .*2\)"):
        create("three", "busy")
    create("elsewhere", "default")  # another project's count is its own
    with db.begin() as session:
        assert session.scalars(select(ScheduleRow.name).order_by(ScheduleRow.name)).all() == [
            "elsewhere", "one", "two",
        ]  # fmt: skip
