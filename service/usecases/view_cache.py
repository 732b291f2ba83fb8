"""Reads kept until what they show changes: the experiment list, an experiment, its trial pages
and its aggregated views (curves, rungs, configs, history, Pareto front, importance).

Every open page polls these; recomputing them reads thousands of trials (and the views tens of
thousands of results), while a finished sweep never changes. Each read is keyed on a version
that two index lookups give: for one experiment, its row's update time and its latest trial
change (the recorder marks a trial changed with every result it stores, a new trial is a change
too); for the list, the number of experiments and the latest change of any experiment or trial.
The same key gives the same object, so the API serializes each one once
(``service/api/cached_json.py``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from cachetools import LRUCache
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from service.db import repositories as repo
from service.db.models.sweeps import ExperimentRow, TrialRow
from service.errors import NotFound

T = TypeVar("T")


class ViewCache:
    """The newest ``size`` reads by key; a key names its version, so nothing is invalidated."""

    def __init__(self, size: int = 128):
        self.entries: LRUCache[tuple[Any, ...], Any] = LRUCache(maxsize=size)
        self.lock = threading.Lock()  # cachetools' caches are not thread-safe

    def get(self, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        with self.lock:
            if key in self.entries:
                cached: T = self.entries[key]  # a read makes it the most recently used
                return cached
        value = compute()
        with self.lock:
            self.entries[key] = value
        return value


CACHE = ViewCache()


def version(session: Session, experiment_id: str) -> tuple[Any, ...]:
    """Changes when the experiment changes, or one of its trials is created or changed (a trial
    goes only with its experiment). One query, reading no more of the experiment's row."""
    latest_trial = (
        select(func.max(TrialRow.updated_at))
        .where(TrialRow.experiment_id == experiment_id)
        .scalar_subquery()
    )
    stamps = session.execute(
        select(ExperimentRow.updated_at, latest_trial).where(ExperimentRow.id == experiment_id)
    ).one_or_none()
    if stamps is None:
        raise NotFound(f"experiment {experiment_id} not found")
    return (experiment_id, *stamps)


def all_experiments_version(session: Session) -> tuple[Any, ...]:
    """Changes when an experiment is created, changed or deleted, or a trial created or changed
    (a trial goes only with its experiment, which changes the count)."""
    count, latest = session.execute(select(func.count(), func.max(ExperimentRow.updated_at))).one()
    return (count, latest, session.scalar(select(func.max(TrialRow.updated_at))))


def cached(
    db: sessionmaker[Session],
    experiment_id: str,
    view: Callable[..., T],
    *params: Any,
) -> T:
    """``view(session, experiment, *params)``, from the cache while the experiment is unchanged."""
    with db.begin() as session:
        return cached_in(session, experiment_id, view, *params)


def cached_in(session: Session, experiment_id: str, view: Callable[..., T], *params: Any) -> T:
    """``cached``, in the caller's transaction."""
    key = (view.__name__, *version(session, experiment_id), *params)
    return CACHE.get(
        key, lambda: view(session, repo.get_experiment_row(session, experiment_id), *params)
    )
