"""Storing one batch of what a running sweep reports, in one transaction: trials started,
results and checkpoints, trials waiting, restarted and ended.

Idempotent: results and checkpoints are unique per (trial, iteration), so a batch delivered twice
(a restored driver, a restarted worker group) stores each once; an ended trial stays ended.
The engine's ``Recorder`` buffers the Tune callback's reports and hands batches to this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.schemas import TrialState
from raysweep.spec import Constraint
from service.db import repositories as repo
from service.db.base import utcnow
from service.db.models import CheckpointRow, ResultRow, TrialRow
from service.states import move_trial
from service.storage import artifact_uri
from service.usecases.decisions import RungDecided, store_decisions
from service.usecases.studies import feasible, metric_in


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


Op = TrialStarted | ResultReported | TrialEnded | TrialRestarted | TrialWaiting | RungDecided


def is_better(value: float, than: float | None, mode: str) -> bool:
    return than is None or (value > than if mode == "max" else value < than)


@dataclass(frozen=True)
class ResultStore:
    """Where one sweep's reports go: its experiment, metric and mode, and the storage root its
    checkpoint paths are relative to."""

    experiment_id: str
    metric: str
    mode: str
    storage_root: str = ""
    time_attr: str = "epoch"
    tracked: tuple[str, ...] = ()  # metrics whose latest values a trial keeps
    constraints: tuple[Constraint, ...] = ()

    def write(
        self, db: sessionmaker[Session], batch: list[Op], known: Mapping[str, int]
    ) -> dict[str, int]:
        """Store ``batch``; ``known`` maps Tune ids to trial ids already looked up. Returns the
        map extended with this batch's trials (committed)."""
        with db.begin() as session:
            trial_ids = self._load_trials(session, batch, known)
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
                    case RungDecided():
                        # stored at once: the trial's end later in this batch tells its line
                        store_decisions(
                            session,
                            self.experiment_id,
                            [(trial_ids[op.tune_id], op)],
                            self.metric,
                            self.mode,
                            self.time_attr,
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
            stored = repo.insert_ignoring_duplicates(
                session, ResultRow, results, ["trial_id", "iteration"]
            )
            repo.insert_ignoring_duplicates(
                session, CheckpointRow, checkpoints, ["trial_id", "iteration"]
            )
            self._update_progress(session, batch, trial_ids, stored)
        return trial_ids

    def _load_trials(
        self, session: Session, batch: list[Op], known: Mapping[str, int]
    ) -> dict[str, int]:
        trial_ids = dict(known)
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
            if row.state in (TrialState.pending, TrialState.paused):
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
        if op.state is TrialState.pruned and row.early_stopping:
            message = f"trial {op.tune_id} {row.early_stopping}"
        else:
            message = f"trial {op.tune_id} {op.state.value}" + (
                f": {op.error.strip().splitlines()[-1]}" if op.error else ""
            )
        repo.add_event(
            session, self.experiment_id, f"trial_{op.state.value}", message, trial_id=trial_id
        )

    def _value(self, metrics: dict[str, Any]) -> float | None:
        return metric_in(metrics, self.metric)

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
                if self.tracked:
                    row.objective_values = {m: metric_in(op.metrics, m) for m in self.tracked}
                if self.constraints:
                    row.feasible = feasible(self.constraints, op.metrics)
                if op.checkpoint_uri:
                    row.checkpoint_uri = artifact_uri(self.storage_root, op.checkpoint_uri)
            if trial_id in best and is_better(best[trial_id], row.best_metric, self.mode):
                row.best_metric = best[trial_id]
