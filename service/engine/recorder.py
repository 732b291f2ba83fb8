"""Batched, idempotent database writes for a running sweep.

The Tune callback only appends to an in-memory buffer, so Tune never waits on the database. A
writer thread drains the buffer in batches, one transaction each; a failed batch is retried with
backoff and nothing is dropped. Results are unique per (trial, iteration), so a result delivered
twice (a restored driver, a restarted worker group) is stored once.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from raysweep.schemas import TrialState
from service.db import repositories as repo
from service.db.models import Base, CheckpointRow, ResultRow, TrialRow, utcnow
from service.engine.retention import prune_trial
from service.states import move_trial
from service.storage import artifact_uri, train_runs_uri

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TrialStarted:
    tune_id: str
    config: dict[str, Any]


@dataclass(frozen=True)
class ResultReported:
    tune_id: str
    iteration: int
    metrics: dict[str, Any]
    checkpoint_uri: str | None = None


@dataclass(frozen=True)
class TrialEnded:
    tune_id: str
    state: TrialState
    error: str | None = None


@dataclass(frozen=True)
class TrialRestarted:
    """Ray Train restarted the trial's worker group ``count`` times (from its latest checkpoint)."""

    tune_id: str
    reason: str
    count: int = 1


@dataclass(frozen=True)
class TrialWaiting:
    """The trial's worker group waits for resources (``reason``), or no longer does (None)."""

    tune_id: str
    reason: str | None


Op = TrialStarted | ResultReported | TrialEnded | TrialRestarted | TrialWaiting


class BufferFull(RuntimeError):
    pass


def insert_ignoring_duplicates(
    session: Session, model: type[Base], rows: list[dict[str, Any]], keys: list[str]
) -> set[tuple[Any, ...]]:
    """Insert the rows whose key is new (the first of equal keys wins); return the keys inserted."""
    unique = list({tuple(row[k] for k in keys): row for row in reversed(rows)}.values())[::-1]
    if not unique:
        return set()
    columns = [getattr(model, k) for k in keys]
    statement: postgresql.Insert | sqlite.Insert
    if session.get_bind().dialect.name == "postgresql":
        statement = postgresql.insert(model).values(unique)
    else:
        statement = sqlite.insert(model).values(unique)
    statement = statement.on_conflict_do_nothing(index_elements=keys)
    return {tuple(row) for row in session.execute(statement.returning(*columns))}


def is_better(value: float, than: float | None, mode: str) -> bool:
    return than is None or (value > than if mode == "max" else value < than)


@dataclass
class Recorder:
    db: sessionmaker[Session]
    experiment_id: str
    metric: str
    mode: str
    # storage root (for checkpoint URIs) and the latest checkpoints a finished trial keeps
    storage_root: str = ""
    checkpoints_to_keep: int | None = None
    flush_interval_s: float = 0.2
    max_buffered: int = 1_000_000
    batch_size: int = 5_000
    max_backoff_s: float = 10.0
    _buffer: deque[Op] = field(default_factory=deque)
    _trial_ids: dict[str, int] = field(default_factory=dict)
    _lock: threading.Condition = field(default_factory=threading.Condition)
    _stopping: bool = False
    _abandoned: bool = False
    _in_flight: int = 0
    _thread: threading.Thread | None = None
    last_error: str | None = None

    def start(self) -> Recorder:
        self._thread = threading.Thread(target=self._run, name="raysweep-recorder", daemon=True)
        self._thread.start()
        return self

    def submit(self, op: Op) -> None:
        with self._lock:
            if len(self._buffer) >= self.max_buffered:
                raise BufferFull(
                    f"{len(self._buffer)} writes are waiting for the database "
                    f"(last error: {self.last_error}); refusing to buffer more"
                )
            self._buffer.append(op)
            self._lock.notify()

    def flush(self, timeout_s: float | None = None) -> bool:
        """Wait until everything submitted so far is written; False on timeout."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        with self._lock:
            self._lock.notify()
            while self._buffer or self._in_flight:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._lock.wait(timeout=remaining if remaining is not None else 1.0)
        return True

    def close(self, timeout_s: float | None = None) -> bool:
        """Write what is buffered, waiting at most ``timeout_s``; False when writes were left
        unwritten, and the writer then stops retrying them (its owner has given up)."""
        done = self.flush(timeout_s)
        with self._lock:
            self._stopping = True
            self._abandoned = not done
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)
        return done

    def _run(self) -> None:
        backoff = 0.1
        while True:
            with self._lock:
                if not self._buffer:
                    if self._stopping:
                        return
                    self._lock.wait(timeout=self.flush_interval_s)
                    continue
                batch = [
                    self._buffer.popleft() for _ in range(min(self.batch_size, len(self._buffer)))
                ]
                self._in_flight = len(batch)
            try:
                self.write(batch)
            except DBAPIError as error:
                self.last_error = f"{type(error.orig).__name__}: {error.orig}"
                log.warning(
                    "database write failed (%s); retrying in %.1fs", self.last_error, backoff
                )
                with self._lock:
                    self._buffer.extendleft(reversed(batch))
                    self._in_flight = 0
                    if self._abandoned:
                        log.error("stopped retrying with %d write(s) unwritten", len(self._buffer))
                        return
                time.sleep(backoff)
                backoff = min(backoff * 2, self.max_backoff_s)
                continue
            backoff = 0.1
            self.last_error = None
            self._prune([op.tune_id for op in batch if isinstance(op, TrialEnded)])
            with self._lock:
                self._in_flight = 0
                self._lock.notify_all()

    def _prune(self, ended: list[str]) -> None:
        if self.checkpoints_to_keep is None:
            return
        for tune_id in ended:
            try:
                prune_trial(
                    self.db,
                    self._trial_ids[tune_id],
                    train_runs_uri(self.storage_root, self.experiment_id),
                    self.checkpoints_to_keep,
                    self.mode,
                )
            except Exception:  # storage or database trouble: the next driver start catches up
                log.warning("could not prune the checkpoints of trial %s", tune_id, exc_info=True)

    # --- one batch, one transaction --------------------------------------------------------------

    def write(self, batch: list[Op]) -> None:
        with self.db.begin() as session:
            trial_ids = self._load_trials(session, batch)
            results: list[dict[str, Any]] = []
            checkpoints: list[dict[str, Any]] = []
            for op in batch:
                match op:
                    case TrialStarted():
                        self._start(session, op, trial_ids)
                    case ResultReported():
                        trial_id = trial_ids[op.tune_id]
                        results.append(
                            {
                                "trial_id": trial_id,
                                "iteration": op.iteration,
                                "metrics": op.metrics,
                                "reported_at": utcnow(),
                            }
                        )
                        if op.checkpoint_uri:
                            checkpoints.append(
                                {
                                    "trial_id": trial_id,
                                    "iteration": op.iteration,
                                    "uri": artifact_uri(self.storage_root, op.checkpoint_uri),
                                    "metric": self._value(op.metrics),
                                    "created_at": utcnow(),
                                    "deleted": False,
                                }
                            )
                    case TrialEnded():
                        self._end(session, op, trial_ids[op.tune_id])
                    case TrialWaiting():
                        self._waiting(session, op, trial_ids[op.tune_id])
                    case TrialRestarted():
                        row = session.get_one(TrialRow, trial_ids[op.tune_id])
                        row.restarts += op.count
                        repo.add_event(
                            session,
                            self.experiment_id,
                            "trial_restarted",
                            f"trial {op.tune_id}: worker group restarted from its latest "
                            f"checkpoint after {op.reason}",
                            trial_id=row.id,
                            data={"count": op.count, "restarts": row.restarts},
                        )
            stored = insert_ignoring_duplicates(
                session, ResultRow, results, ["trial_id", "iteration"]
            )
            insert_ignoring_duplicates(
                session, CheckpointRow, checkpoints, ["trial_id", "iteration"]
            )
            self._update_progress(session, batch, trial_ids, stored)
        self._trial_ids.update(trial_ids)

    def _load_trials(self, session: Session, batch: list[Op]) -> dict[str, int]:
        trial_ids = dict(self._trial_ids)
        missing = {op.tune_id for op in batch} - trial_ids.keys()
        if missing:
            rows = session.execute(
                select(TrialRow.tune_trial_id, TrialRow.id).where(
                    TrialRow.experiment_id == self.experiment_id,
                    TrialRow.tune_trial_id.in_(missing),
                )
            )
            trial_ids.update({tune_id: trial_id for tune_id, trial_id in rows})
        # a result for a trial whose start was never seen (e.g. a restored driver) creates it
        for op in batch:
            if op.tune_id not in trial_ids and not isinstance(op, TrialStarted):
                self._start(session, TrialStarted(op.tune_id, {}), trial_ids)
        return trial_ids

    def _start(self, session: Session, op: TrialStarted, trial_ids: dict[str, int]) -> None:
        if op.tune_id in trial_ids:
            row = session.get_one(TrialRow, trial_ids[op.tune_id])
            if row.state.is_final:
                return  # a restored driver re-started a trial that had ended: it stays ended
            if op.config and not row.config:
                row.config = op.config
            if row.state == TrialState.pending:
                move_trial(row, TrialState.running)
            repo.add_event(
                session,
                self.experiment_id,
                "trial_resumed",
                f"trial {op.tune_id} resumed",
                trial_id=row.id,
            )
            return
        row = TrialRow(
            experiment_id=self.experiment_id,
            tune_trial_id=op.tune_id,
            config=op.config,
            state=TrialState.running,
            iteration=0,
            restarts=0,
            started_at=utcnow(),
        )
        session.add(row)
        session.flush()
        trial_ids[op.tune_id] = row.id
        repo.add_event(
            session,
            self.experiment_id,
            "trial_started",
            f"trial {op.tune_id} started",
            trial_id=row.id,
            data={"config": op.config},
        )

    def _waiting(self, session: Session, op: TrialWaiting, trial_id: int) -> None:
        row = session.get_one(TrialRow, trial_id)
        if row.state.is_final:
            return
        if op.reason is not None and row.waiting_for is None:
            repo.add_event(
                session,
                self.experiment_id,
                "trial_waiting",
                f"trial {op.tune_id} is {op.reason}",
                trial_id=trial_id,
            )
        row.waiting_for = op.reason

    def _end(self, session: Session, op: TrialEnded, trial_id: int) -> None:
        row = session.get_one(TrialRow, trial_id)
        if row.state.is_final:
            return  # a re-delivered end (restored driver) changes nothing
        move_trial(row, op.state)
        row.error = op.error
        row.waiting_for = None
        repo.add_event(
            session,
            self.experiment_id,
            f"trial_{op.state.value}",
            f"trial {op.tune_id} {op.state.value}"
            + (f": {op.error.strip().splitlines()[-1]}" if op.error else ""),
            trial_id=trial_id,
        )

    def _value(self, metrics: dict[str, Any]) -> float | None:
        value = metrics.get(self.metric)
        if isinstance(value, int | float) and math.isfinite(value):
            return float(value)
        return None

    def _update_progress(
        self,
        session: Session,
        batch: list[Op],
        trial_ids: dict[str, int],
        stored: set[tuple[Any, ...]],
    ) -> None:
        """Iteration, last and best metric from the results this batch actually stored: a
        re-delivered result (already in the table) must not change them."""
        latest: dict[int, ResultReported] = {}
        best: dict[int, float] = {}
        for op in batch:
            if not isinstance(op, ResultReported):
                continue
            trial_id = trial_ids[op.tune_id]
            if (trial_id, op.iteration) not in stored:
                continue
            stored.discard((trial_id, op.iteration))  # later equal keys were not the stored ones
            if trial_id not in latest or op.iteration >= latest[trial_id].iteration:
                latest[trial_id] = op
            value = self._value(op.metrics)
            if value is not None and is_better(value, best.get(trial_id), self.mode):
                best[trial_id] = value
        for trial_id, op in latest.items():
            row = session.get_one(TrialRow, trial_id)
            # even a late result that changes no column marks the trial changed: the UI's
            # cached views of the experiment are keyed on it
            row.updated_at = utcnow()
            if op.iteration >= row.iteration:
                row.iteration = op.iteration
                row.last_metric = self._value(op.metrics)
                if op.checkpoint_uri:
                    row.checkpoint_uri = artifact_uri(self.storage_root, op.checkpoint_uri)
            if trial_id in best and is_better(best[trial_id], row.best_metric, self.mode):
                row.best_metric = best[trial_id]
