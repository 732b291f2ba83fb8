"""Trial use cases: listing, one trial, its results."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeVar

from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import InstrumentedAttribute, Session, sessionmaker

from raysweep.schemas import (
    CheckpointRead,
    Page,
    ResultRead,
    RungDecisionRead,
    TrialRead,
    TrialState,
)
from service.db import repositories as repo
from service.db.models import CheckpointRow, RungDecisionRow, TrialRow

TrialSort = Literal["best_metric", "last_metric", "iteration", "created_at"]


def list_trials(
    db: sessionmaker[Session],
    experiment_id: str,
    states: Sequence[TrialState],
    sort: TrialSort,
    order: Literal["best", "asc", "desc"],
    limit: int,
    offset: int,
) -> Page[TrialRead]:
    """Trials of one experiment; ``order="best"`` sorts the metric columns best-first for the
    experiment's mode (and other columns descending)."""
    with db.begin() as session:
        experiment = repo.get_experiment_row(session, experiment_id)
        query = select(TrialRow).where(TrialRow.experiment_id == experiment_id)
        if states:
            query = query.where(TrialRow.state.in_([s.value for s in states]))
        column = getattr(TrialRow, sort)
        if order == "best":
            mode = experiment.mode if sort in ("best_metric", "last_metric") else "max"
            ordering = repo.metric_order(column, mode)
        else:
            ordering = (column.asc() if order == "asc" else column.desc()).nulls_last()
        ordered = query.order_by(ordering, TrialRow.id)
        return repo.page(session, ordered, limit, offset, TrialRead.model_validate)


def get_trial(db: sessionmaker[Session], trial_id: int) -> TrialRead:
    with db.begin() as session:
        return TrialRead.model_validate(repo.get_trial_row(session, trial_id))


def list_results(
    db: sessionmaker[Session],
    trial_id: int,
    first: int | None,
    last: int | None,
    limit: int,
    offset: int,
) -> Page[ResultRead]:
    with db.begin() as session:
        repo.get_trial_row(session, trial_id)
        query = repo.results_query(trial_id, first, last)
        return repo.page(session, query, limit, offset, ResultRead.model_validate)


def list_checkpoints(db: sessionmaker[Session], trial_id: int) -> list[CheckpointRead]:
    """Every checkpoint the trial reported, oldest first; retention marks removed ones deleted."""
    return rows_of_trial(db, trial_id, CheckpointRow.iteration, CheckpointRead)


def list_decisions(db: sessionmaker[Session], trial_id: int) -> list[RungDecisionRead]:
    """The early-stopping decisions made about the trial, in the order they were made."""
    return rows_of_trial(db, trial_id, RungDecisionRow.id, RungDecisionRead)


Read = TypeVar("Read", bound=BaseModel)


def rows_of_trial(
    db: sessionmaker[Session], trial_id: int, order: InstrumentedAttribute[int], read: type[Read]
) -> list[Read]:
    """The rows of ``order``'s table that belong to the trial (a ``NotFound`` when it does not
    exist), in that order."""
    with db.begin() as session:
        repo.get_trial_row(session, trial_id)
        table = order.class_
        rows = session.scalars(select(table).where(table.trial_id == trial_id).order_by(order))
        return [read.model_validate(r) for r in rows]
