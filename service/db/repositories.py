"""Queries and row helpers. They add, flush and select; transactions belong to the use cases."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import (
    ColumnElement,
    Select,
    case,
    func,
    select,
    tuple_,
)
from sqlalchemy.orm import Session

from raysweep.lifecycle import TrialState
from raysweep.mode import Mode
from raysweep.schemas import Page
from service.db.models.sweeps import (
    CheckpointRow,
    EventRow,
    ExperimentRow,
    LabelRow,
    ResultRow,
    TrialRow,
)
from service.errors import NotFound

RowT = TypeVar("RowT")
ItemT = TypeVar("ItemT")


def get_experiment_row(
    session: Session, experiment_id: str, *, for_update: bool = False
) -> ExperimentRow:
    query = select(ExperimentRow).where(ExperimentRow.id == experiment_id)
    if for_update:
        query = query.with_for_update()
    row = session.scalars(query).one_or_none()
    if row is None:
        raise NotFound(f"experiment {experiment_id} not found")
    return row


def get_trial_row(session: Session, trial_id: int) -> TrialRow:
    row = session.get(TrialRow, trial_id)
    if row is None:
        raise NotFound(f"trial {trial_id} not found")
    return row


def next_trial_number(session: Session, experiment_id: str) -> int:
    """The number the experiment's next trial gets: one past its highest (1 for the first)."""
    highest = session.scalar(
        select(func.max(TrialRow.number)).where(TrialRow.experiment_id == experiment_id)
    )
    return (highest or 0) + 1


def space_version(session: Session, experiment_id: str) -> int:
    """The version of the experiment's search space new trials are sampled from: 1 until an
    extension changes it (``ExperimentRow.search_spaces``)."""
    spaces = session.scalar(
        select(ExperimentRow.search_spaces).where(ExperimentRow.id == experiment_id)
    )
    return len(spaces) if spaces else 1


def add_event(
    session: Session,
    experiment_id: str,
    kind: str,
    message: str,
    *,
    trial_id: int | None = None,
    data: dict[str, Any] | None = None,
) -> None:
    session.add(
        EventRow(
            experiment_id=experiment_id,
            trial_id=trial_id,
            kind=kind,
            message=message,
            data=data or {},
        )
    )


def experiments_query(
    states: Sequence[str],
    labels: Sequence[tuple[str, str]],
    projects: Sequence[str] | None = None,
) -> Select[ExperimentRow]:
    query = select(ExperimentRow)
    if projects is not None:
        query = query.where(ExperimentRow.project.in_(projects))
    if states:
        query = query.where(ExperimentRow.state.in_(states))
    if labels:
        # one subquery whatever the number of filters (one EXISTS each grew the plan, and the
        # time, with their number): an experiment has one value per key, so with distinct
        # pairs it matches when it has as many of them as were asked for
        pairs = tuple_(LabelRow.key, LabelRow.value).in_(list(labels))
        query = query.where(
            ExperimentRow.id.in_(
                select(LabelRow.experiment_id)
                .where(pairs)
                .group_by(LabelRow.experiment_id)
                .having(func.count() == len(labels))
            )
        )
    return query


def count(session: Session, query: Select[Any]) -> int:
    return session.scalar(select(func.count()).select_from(query.order_by(None).subquery())) or 0


def page(
    session: Session,
    query: Select[RowT],
    limit: int,
    offset: int,
    read: Callable[[RowT], ItemT],
) -> Page[ItemT]:
    """One page of an ordered query, each row read into its API model, and the total it pages
    through (the same filters, without the order)."""
    return page_rows(session, query, limit, offset, lambda rows: [read(row) for row in rows])


def page_rows(
    session: Session,
    query: Select[RowT],
    limit: int,
    offset: int,
    read_rows: Callable[[Sequence[RowT]], list[ItemT]],
) -> Page[ItemT]:
    """``page``, the page's rows read together (a few queries for the page, not per row)."""
    rows = session.scalars(query.limit(limit).offset(offset)).all()
    return Page(items=read_rows(rows), total=count(session, query), limit=limit, offset=offset)


def trial_counts(session: Session, experiment_ids: Sequence[str]) -> dict[str, dict[str, int]]:
    """Each experiment's number of trials by state (an experiment without trials: absent)."""
    counts: dict[str, dict[str, int]] = {}
    rows = session.execute(
        select(TrialRow.experiment_id, TrialRow.state, func.count())
        .where(TrialRow.experiment_id.in_(experiment_ids))
        .group_by(TrialRow.experiment_id, TrialRow.state)
    )
    for experiment_id, state, number in rows:
        counts.setdefault(experiment_id, {})[state] = number
    return counts


def labels_of(session: Session, experiment_ids: Sequence[str]) -> dict[str, dict[str, str]]:
    labels: dict[str, dict[str, str]] = {}
    rows = session.execute(
        select(LabelRow.experiment_id, LabelRow.key, LabelRow.value).where(
            LabelRow.experiment_id.in_(experiment_ids)
        )
    )
    for experiment_id, key, value in rows:
        labels.setdefault(experiment_id, {})[key] = value
    return labels


def metric_order(column: Any, mode: str) -> ColumnElement[Any]:
    """Best first for the experiment's mode; trials without a value last."""
    ordered: ColumnElement[Any] = Mode(mode).order(column)
    return ordered.nulls_last()


def json_number(session: Session, column: Any, key: str) -> ColumnElement[Any]:
    """The number under ``key`` of a JSON column, NULL when it is missing or not a number (a
    string compared as a number must not make PostgreSQL's cast fail the query). ``key`` holds
    no quote (the callers' patterns refuse them)."""
    element = column[key]
    if session.get_bind().dialect.name == "postgresql":
        is_number = func.json_typeof(element) == "number"
    else:
        is_number = func.json_type(column, f'$."{key}"').in_(("integer", "real"))
    return case((is_number, element.as_float()), else_=None)


def json_text(column: Any, key: str) -> ColumnElement[Any]:
    """The value under ``key`` of a JSON column as text (a string's own text)."""
    return column[key].as_string()


def results_query(trial_id: int, first: int | None, last: int | None) -> Select[ResultRow]:
    query = select(ResultRow).where(ResultRow.trial_id == trial_id)
    if first is not None:
        query = query.where(ResultRow.iteration >= first)
    if last is not None:
        query = query.where(ResultRow.iteration <= last)
    return query.order_by(ResultRow.iteration)


NEVER_BEST = (TrialState.failed, TrialState.pruned)


def keeps_a_checkpoint() -> ColumnElement[bool]:
    """Whether the trial (``TrialRow`` in the query) has a checkpoint retention kept: without
    one its Train run would start over."""
    return (
        select(CheckpointRow.id)
        .where(CheckpointRow.trial_id == TrialRow.id, CheckpointRow.deleted.is_(False))
        .exists()
    )


def best_trial(session: Session, experiment_id: str, mode: str) -> TrialRow | None:
    """The feasible trial with the best metric so far, the earliest on a tie; never a failed
    one (its model is broken) or a pruned one (early stopping judged it below its rung's
    cutoff)."""
    return session.scalars(
        select(TrialRow)
        .where(
            TrialRow.experiment_id == experiment_id,
            TrialRow.best_metric.is_not(None),
            TrialRow.feasible.is_not(False),  # an infeasible trial is never the best
            TrialRow.state.not_in(NEVER_BEST),
        )
        .order_by(metric_order(TrialRow.best_metric, mode), TrialRow.id)
        .limit(1)
    ).one_or_none()


def last_reports(session: Session, trial_ids: Sequence[int]) -> dict[int, datetime]:
    """When each trial reported its latest result (a trial without results: absent)."""
    if not trial_ids:
        return {}
    rows = session.execute(
        select(ResultRow.trial_id, func.max(ResultRow.reported_at))
        .where(ResultRow.trial_id.in_(trial_ids))
        .group_by(ResultRow.trial_id)
    )
    return {trial_id: at for trial_id, at in rows}


def waits_began(session: Session, trials: Sequence[TrialRow]) -> dict[int, datetime]:
    """When each trial's current wait for resources began: its latest ``trial_waiting`` event,
    which the recorder adds only as a wait begins (a trial not waiting: absent)."""
    waiting = [t for t in trials if t.waiting_for is not None]
    if not waiting:
        return {}
    rows = session.execute(
        select(EventRow.trial_id, func.max(EventRow.created_at))
        .where(
            EventRow.experiment_id.in_({t.experiment_id for t in waiting}),
            EventRow.kind == "trial_waiting",
            EventRow.trial_id.in_([t.id for t in waiting]),
        )
        .group_by(EventRow.trial_id)
    )
    return {trial_id: at for trial_id, at in rows if trial_id is not None}


def live_trials(session: Session, experiment_ids: Sequence[str]) -> list[TrialRow]:
    """The experiments' running trials and any pending one waiting for resources (by the
    experiment and state index: never a scan of a large sweep's ended trials)."""
    if not experiment_ids:
        return []
    rows = session.scalars(
        select(TrialRow).where(
            TrialRow.experiment_id.in_(experiment_ids),
            TrialRow.state.in_([TrialState.running, TrialState.pending]),
        )
    )
    return [t for t in rows if t.state is TrialState.running or t.waiting_for is not None]
