"""The timeline view: when each of a sweep's latest trials ran and waited for resources.

A wait begins with the trial's ``trial_waiting`` event (the recorder adds one as a wait begins)
and ends with its ``trial_placed`` event (the gate placed its workers); a wait stored before
those events existed ends at the trial's first result or other event after it, else at the
trial's end. Bounded: the latest ``limit`` trials, their events and one result time
per wait."""

from __future__ import annotations

import bisect
from collections import defaultdict
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.timeline import Timeline, TimelineTrial, TrialWait
from service.db import repositories as repo
from service.db.models.sweeps import EventRow, ExperimentRow, ResultRow, TrialRow
from service.usecases.view_cache import cached

WAITING = "trial_waiting"
CHUNK = 500


def experiment_timeline(db: sessionmaker[Session], experiment_id: str, limit: int) -> Timeline:
    return cached(db, experiment_id, timeline, limit)


def timeline(session: Session, experiment: ExperimentRow, limit: int) -> Timeline:
    base = select(TrialRow).where(TrialRow.experiment_id == experiment.id)
    total = repo.count(session, base)
    rows = session.execute(
        select(
            TrialRow.id,
            TrialRow.number,
            TrialRow.state,
            TrialRow.started_at,
            TrialRow.finished_at,
            TrialRow.waiting_for,
        )
        .where(TrialRow.experiment_id == experiment.id)
        .order_by(TrialRow.number.desc())
        .limit(limit)
    ).all()
    waits = trial_waits(session, experiment.id, [row.id for row in rows])
    trials = []
    for row in rows:
        spans = waits.get(row.id, [])
        trials.append(
            TimelineTrial(
                trial_id=row.id,
                trial_number=row.number,
                state=row.state,
                started_at=row.started_at,
                finished_at=row.finished_at,
                waits=[
                    TrialWait(
                        since=since,
                        until=until if until is not None else row.finished_at,
                        ongoing=row.waiting_for is not None and i == len(spans) - 1,
                    )
                    for i, (since, until) in enumerate(spans)
                ],
            )
        )
    return Timeline(total_trials=total, limit=limit, truncated=total > len(rows), trials=trials)


def trial_waits(
    session: Session, experiment_id: str, trial_ids: list[int]
) -> dict[int, list[tuple[datetime, datetime | None]]]:
    """Each trial's waits as (began, ended or None), oldest first."""
    waits: dict[int, list[tuple[datetime, datetime | None]]] = defaultdict(list)
    for first in range(0, len(trial_ids), CHUNK):
        chunk = trial_ids[first : first + CHUNK]
        # the first result after each wait: one index walk of the trial's results per wait
        first_result = (
            select(func.min(ResultRow.reported_at))
            .where(
                ResultRow.trial_id == EventRow.trial_id, ResultRow.reported_at > EventRow.created_at
            )
            .scalar_subquery()
        )
        began = session.execute(
            select(EventRow.trial_id, EventRow.created_at, first_result)
            .where(
                EventRow.experiment_id == experiment_id,
                EventRow.kind == WAITING,
                EventRow.trial_id.in_(chunk),
            )
            .order_by(EventRow.trial_id, EventRow.created_at)
        ).all()
        if not began:
            continue
        # any later event of the trial ends a wait too (another wait began after a placement)
        events: dict[int | None, list[datetime]] = defaultdict(list)
        for trial_id, at in session.execute(
            select(EventRow.trial_id, EventRow.created_at).where(
                EventRow.experiment_id == experiment_id,
                EventRow.trial_id.in_({trial_id for trial_id, _, _ in began}),
            )
        ):
            events[trial_id].append(at)
        for times in events.values():
            times.sort()
        for trial_id, at, result_at in began:
            if trial_id is None:
                continue
            later = events[trial_id]
            at_next = bisect.bisect_right(later, at)
            event_at = later[at_next] if at_next < len(later) else None
            ends = [t for t in (result_at, event_at) if t is not None]
            waits[trial_id].append((at, min(ends) if ends else None))
    return waits
