"""Trial use cases: listing (filtered and sorted over all of an experiment's trials, by columns
or config keys), one trial, its results."""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

from pydantic import BaseModel
from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import InstrumentedAttribute, Session, sessionmaker

from raysweep.errors import Problem
from raysweep.lifecycle import TrialState
from raysweep.mode import Mode
from raysweep.schemas import (
    CheckpointRead,
    Page,
    ResultRead,
    RungDecisionRead,
    TrialClock,
    TrialRead,
)
from service.db import repositories as repo
from service.db.models.sweeps import CheckpointRow, ExperimentRow, RungDecisionRow, TrialRow
from service.errors import InvalidInput
from service.usecases.view_cache import cached

# the trials' own columns a filter or sort names; anything else is a config key
# (``config.<key>`` names a config key that shares a column's name)
COLUMNS = ("best_metric", "last_metric", "iteration", "space_version")
KEY = r"[A-Za-z_][A-Za-z0-9_.-]{0,127}"
SORT_PATTERN = rf"^(best_metric|last_metric|iteration|created_at|config\.{KEY})$"
# no NUL in a value: PostgreSQL text cannot hold one
CONDITION = re.compile(rf"^\s*({KEY})\s*(<=|>=|!=|=|<|>)\s*([^\s\x00][^\x00]{{0,255}}?)\s*$")
MAX_CONDITIONS = 16
OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


@dataclass(frozen=True)
class Condition:
    """``key op value`` over a trial column or config key: a number compares as a number, any
    other value as text (``=`` and ``!=`` only)."""

    key: str
    op: str
    value: float | str
    on_config: bool


def parse_conditions(texts: Sequence[str]) -> list[Condition]:
    """Each ``where`` text as a condition, or ``InvalidInput`` naming every bad one."""
    problems = []
    if len(texts) > MAX_CONDITIONS:
        problems.append(Problem(path="query.where", message=f"at most {MAX_CONDITIONS} conditions"))
    conditions = []
    for index, text in enumerate(texts[:MAX_CONDITIONS]):
        path = f"query.where.{index}"
        match = CONDITION.match(text)
        if match is None:
            problems.append(
                Problem(
                    path=path,
                    message=f"{text[:80]!r} is not KEY OP VALUE with OP one of = != < <= > >= "
                    "(e.g. lr>0.01, optimizer=adam, best_metric>=0.9)",
                )
            )
            continue
        key, op, raw = match.groups()
        on_config = key.startswith("config.") or key not in COLUMNS
        key = key.removeprefix("config.") if key.startswith("config.") else key
        try:
            number: float | None = float(raw)
        except ValueError:
            number = None
        if number is not None and not math.isfinite(number):
            number = None
        if number is None and (op not in ("=", "!=") or not on_config):
            what = key if not on_config else f"{op} on {key}"
            problems.append(
                Problem(path=path, message=f"{what} compares numbers: {raw[:80]!r} is not one")
            )
            continue
        conditions.append(Condition(key, op, raw if number is None else number, on_config))
    if problems:
        raise InvalidInput("the trial filter is not valid", problems)
    return conditions


def condition_clause(session: Session, condition: Condition) -> ColumnElement[bool]:
    compare = OPERATORS[condition.op]
    if not condition.on_config:
        return compare(getattr(TrialRow, condition.key), condition.value)  # type: ignore[no-any-return]
    if isinstance(condition.value, float):
        value = repo.json_number(session, TrialRow.config, condition.key)
    else:
        value = repo.json_text(TrialRow.config, condition.key)
    return compare(value, condition.value)  # type: ignore[no-any-return]


def list_trials(
    db: sessionmaker[Session],
    experiment_id: str,
    states: Sequence[TrialState],
    sort: str,
    order: Literal["best", "asc", "desc"],
    limit: int,
    offset: int,
    where: Sequence[str] = (),
) -> Page[TrialRead]:
    """Trials of one experiment matching every ``where`` condition, with their total; sorted
    by ``sort`` (a column or ``config.<key>``, then id); ``order="best"`` sorts the metric
    columns best-first for the experiment's mode (config keys ascending, other columns
    descending). Trials without the sorted value come last either way."""
    conditions = tuple(parse_conditions(where))
    return cached(
        db, experiment_id, trials_page, tuple(states), sort, order, limit, offset, conditions
    )


def trials_page(
    session: Session,
    experiment: ExperimentRow,
    states: tuple[TrialState, ...],
    sort: str,
    order: Literal["best", "asc", "desc"],
    limit: int,
    offset: int,
    conditions: tuple[Condition, ...],
) -> Page[TrialRead]:
    query = select(TrialRow).where(TrialRow.experiment_id == experiment.id)
    if states:
        query = query.where(TrialRow.state.in_([s.value for s in states]))
    for condition in conditions:
        query = query.where(condition_clause(session, condition))
    keys: list[Any]
    if sort.startswith("config."):
        key = sort.removeprefix("config.")
        keys = [
            repo.json_number(session, TrialRow.config, key),
            repo.json_text(TrialRow.config, key),
        ]
        direction = "desc" if order == "desc" else "asc"
    else:
        keys = [getattr(TrialRow, sort)]
        direction = order
    if direction == "best":
        mode = experiment.mode if sort in ("best_metric", "last_metric") else Mode.max
        ordering = [repo.metric_order(keys[0], mode)]
    else:
        ordering = [(k.asc() if direction == "asc" else k.desc()).nulls_last() for k in keys]
    ordered = query.order_by(*ordering, TrialRow.id)
    return repo.page_rows(session, ordered, limit, offset, lambda rows: trial_reads(session, rows))


def trial_reads(session: Session, rows: Sequence[TrialRow]) -> list[TrialRead]:
    """The trials as API models with when each last reported and began its wait: two queries
    for the lot."""
    reports = repo.last_reports(session, [row.id for row in rows])
    waits = repo.waits_began(session, rows)
    return [
        TrialRead.model_validate(row).model_copy(
            update={"last_reported_at": reports.get(row.id), "waiting_since": waits.get(row.id)}
        )
        for row in rows
    ]


LONG_AGO = datetime.min.replace(tzinfo=UTC)


def running_clocks(session: Session, experiment_ids: Sequence[str]) -> dict[str, list[TrialClock]]:
    """Each experiment's running trials' clocks (ExperimentRead.running): longest waiting
    first, then longest silent. Three queries for all of them."""
    trials = repo.live_trials(session, experiment_ids)
    reports = repo.last_reports(session, [trial.id for trial in trials])
    waits = repo.waits_began(session, trials)
    clocks: dict[str, list[TrialClock]] = {}
    for trial in trials:
        clocks.setdefault(trial.experiment_id, []).append(
            TrialClock(
                trial_id=trial.id,
                trial_number=trial.number,
                iteration=trial.iteration,
                started_at=trial.started_at,
                last_reported_at=reports.get(trial.id),
                waiting_for=trial.waiting_for,
                waiting_since=waits.get(trial.id),
            )
        )
    for listed in clocks.values():
        listed.sort(
            key=lambda c: (
                c.waiting_for is None,
                c.waiting_since or c.last_reported_at or c.started_at or LONG_AGO,
                c.trial_number,
            )
        )
    return clocks


def get_trial(db: sessionmaker[Session], trial_id: int) -> TrialRead:
    with db.begin() as session:
        return trial_reads(session, [repo.get_trial_row(session, trial_id)])[0]


def set_trial_notes(db: sessionmaker[Session], trial_id: int, notes: str) -> TrialRead:
    """A member's notes on the trial (empty: none); a change of the trial, so the experiment's
    cached reads follow."""
    with db.begin() as session:
        row = repo.get_trial_row(session, trial_id)
        row.notes = notes or None
        session.flush()
        return trial_reads(session, [row])[0]


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
