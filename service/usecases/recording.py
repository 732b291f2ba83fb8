"""Storing one batch of what a running sweep reports, in one transaction: trials started,
results and checkpoints, trials waiting, restarted and ended.

Idempotent: results and checkpoints are unique per (trial, iteration), so a batch delivered twice
(a restored driver, a restarted worker group) stores each once; an ended trial stays ended.
The engine's ``Recorder`` buffers the Tune callback's reports and hands batches to this.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import InstrumentedAttribute, Session, sessionmaker

from raysweep.lifecycle import TrialState
from raysweep.mode import Mode
from raysweep.spec import Constraint, ExperimentSpec
from service.db import bulk
from service.db import repositories as repo
from service.db.base import utcnow
from service.db.models.sweeps import CheckpointRow, RecordBatchRow, ResultRow, TrialRow
from service.resources import HeldSegment
from service.storage import artifact_uri, train_runs_uri
from service.usecases.decisions import RungDecided, store_decisions
from service.usecases.exploits import ExploitDecided, store_exploit
from service.usecases.projects import store_held
from service.usecases.reports import (
    BatchSequence,
    Op,
    ReservationReclaimed,
    ResultReported,
    TrialEnded,
    TrialHeld,
    TrialRestarted,
    TrialStarted,
    TrialWaiting,
    TrialYielded,
    time_attr_of,
)
from service.usecases.retention import KeptResults, Objective, prune_trial
from service.usecases.studies import feasible, metric_in, tracked_metrics
from service.usecases.trial_moves import end_trial, resume_trial, store_event, store_waiting

log = logging.getLogger(__name__)


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
    retention: KeptResults = field(default_factory=KeptResults)
    project: str = "default"
    # the latest checkpoints a trial keeps once ended (plus its best); None: all
    checkpoints_to_keep: int | None = None

    @classmethod
    def for_sweep(cls, experiment_id: str, spec: ExperimentSpec, storage_root: str) -> ResultStore:
        """A sweep's store: its scalar objective, the metrics every trial keeps the latest
        values of, its constraints, and checkpoint and result retention."""
        return cls(
            experiment_id,
            spec.primary.metric,
            spec.primary.mode,
            storage_root=storage_root,
            time_attr=time_attr_of(spec),
            tracked=tuple(tracked_metrics(spec)),
            constraints=tuple(spec.constraints),
            retention=KeptResults.of(spec),
            project=spec.project,
            checkpoints_to_keep=spec.fault_tolerance.checkpoints_to_keep,
        )

    def into(self, db: sessionmaker[Session]) -> Callable[[list[Op]], None]:
        """A batch writer into ``db`` that remembers the trial ids it looked up (a recorder's
        sink where the writer holds the database itself: the server, tests)."""
        known: dict[str, int] = {}

        def write(batch: list[Op]) -> None:
            known.update(self.write(db, batch, known))

        return write

    def write(
        self,
        db: sessionmaker[Session],
        batch: list[Op],
        known: Mapping[str, int],
        sequence: BatchSequence | None = None,
    ) -> dict[str, int]:
        """Store ``batch``, then prune the checkpoints of the trials it ended; ``known`` maps
        Tune ids to trial ids already looked up. Returns the map extended with this batch's
        trials (committed). A batch with a ``sequence`` the sweep's driver already stored (sent
        again: its answer was lost after the commit) is not stored twice."""
        trial_ids = self._store(db, batch, known, sequence)
        if trial_ids is None:
            log.info("batch %s of the sweep's driver was stored before; not again", sequence)
            return dict(known)
        self._prune([trial_ids[op.tune_id] for op in batch if isinstance(op, TrialEnded)], db)
        return trial_ids

    def _prune(self, ended: list[int], db: sessionmaker[Session]) -> None:
        if self.checkpoints_to_keep is None:
            return
        runs = train_runs_uri(self.storage_root, self.experiment_id)
        for trial_id in ended:
            try:
                prune_trial(db, trial_id, runs, self.checkpoints_to_keep, self.mode)
            except Exception:  # storage or database trouble: the next driver start catches up
                log.warning("could not prune the checkpoints of trial %s", trial_id, exc_info=True)

    def _store(
        self,
        db: sessionmaker[Session],
        batch: list[Op],
        known: Mapping[str, int],
        sequence: BatchSequence | None,
    ) -> dict[str, int] | None:
        with db.begin() as session:
            if sequence is not None and not self._first_time(session, sequence):
                return None
            trial_ids, creating = self._load_trials(session, batch, known)
            reported = [op for op in batch if isinstance(op, ResultReported)]
            dropped = self.retention.not_kept(session, reported, trial_ids, self.objective)
            skipped = {id(op) for op in dropped}
            results: list[dict[str, Any]] = []
            checkpoints: list[dict[str, Any]] = []
            held: list[tuple[int, HeldSegment]] = []
            now = utcnow()  # the batch's results are stored together
            for op in batch:
                match op:
                    case TrialStarted():
                        if id(op) not in creating:
                            resume_trial(session, self.experiment_id, op, trial_ids[op.tune_id])
                    case ResultReported():
                        trial_id = trial_ids[op.tune_id]
                        if id(op) not in skipped:
                            results.append(
                                {
                                    "trial_id": trial_id,
                                    "iteration": op.iteration,
                                    "metrics": op.metrics,
                                    "reported_at": now,
                                }
                            )
                        if op.checkpoint_uri:
                            checkpoints.append(
                                {
                                    "trial_id": trial_id,
                                    "iteration": op.iteration,
                                    "uri": artifact_uri(self.storage_root, op.checkpoint_uri),
                                    "metric": self._value(op.metrics),
                                    "created_at": now,
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
                    case ExploitDecided():
                        store_exploit(
                            session,
                            self.experiment_id,
                            trial_ids[op.tune_id],
                            op,
                            self.metric,
                            self.time_attr,
                        )
                    case TrialEnded():
                        end_trial(session, self.experiment_id, op, trial_ids[op.tune_id])
                    case TrialWaiting():
                        store_waiting(session, self.experiment_id, op, trial_ids[op.tune_id])
                    case TrialHeld():
                        held.append((trial_ids[op.tune_id], op.segment))
                    case TrialYielded() | ReservationReclaimed() | TrialRestarted():
                        store_event(session, self.experiment_id, op, trial_ids)
            stored = bulk.insert_ignoring_duplicates(
                session, ResultRow, results, ["trial_id", "iteration"]
            )
            bulk.insert_ignoring_duplicates(
                session, CheckpointRow, checkpoints, ["trial_id", "iteration"]
            )
            if held:
                store_held(session, self.project, self.experiment_id, held)
            # a result not kept still counts for the trial's progress, as a stored one does
            counted = stored | {(trial_ids[op.tune_id], op.iteration) for op in dropped}
            self._update_progress(session, batch, trial_ids, counted)
            self.retention.keep_last(session, {trial_id for trial_id, _ in stored}, self.objective)
        return trial_ids

    def _first_time(self, session: Session, sequence: BatchSequence) -> bool:
        """Whether the driver's batch ``sequence`` is new, marking it stored (in the batch's
        transaction). The sweep's row of ``record_batches`` is locked until the commit, so the
        same batch sent again while the first is still being stored waits and is then seen."""
        bulk.insert_ignoring_duplicates(
            session,
            RecordBatchRow,
            [
                {
                    "experiment_id": self.experiment_id,
                    "attempt": sequence.attempt,
                    "last_sequence": 0,
                }
            ],
            ["experiment_id"],
        )
        row = session.get_one(RecordBatchRow, self.experiment_id, with_for_update=True)
        if row.attempt == sequence.attempt and row.last_sequence >= sequence.number:
            return False
        if row.attempt > sequence.attempt:
            return True  # an earlier driver's (its token is refused by now): not counted
        row.attempt, row.last_sequence = sequence.attempt, sequence.number
        return True

    def _load_trials(
        self, session: Session, batch: list[Op], known: Mapping[str, int]
    ) -> tuple[dict[str, int], set[int]]:
        """The batch's trial ids, every trial it names that is not stored yet created (with one
        flush for all); and the ``TrialStarted`` ops that created one (``id()``), which the
        batch then skips."""
        trial_ids = dict(known)
        # an op of no trial (a sweep's: its tune_id is empty) creates none
        missing = {op.tune_id for op in batch if op.tune_id} - trial_ids.keys()
        if missing:
            rows = session.execute(
                select(TrialRow.tune_trial_id, TrialRow.id).where(
                    TrialRow.experiment_id == self.experiment_id,
                    TrialRow.tune_trial_id.in_(missing),
                )
            )
            trial_ids.update({tune_id: trial_id for tune_id, trial_id in rows})
        # a result for a trial whose start was never seen (e.g. a restored driver) creates it;
        # the gate's notices do not: they name what the gate was told (a label that is no trial
        # once made a trial "warm group"), and are stored on the sweep instead
        first: dict[str, Op] = {}
        for op in batch:
            notice = isinstance(op, TrialRestarted | ReservationReclaimed)
            if op.tune_id and op.tune_id not in trial_ids and not notice:
                first.setdefault(op.tune_id, op)
        if not first:
            return trial_ids, set()
        now = utcnow()
        configs = {
            tune_id: op.config if isinstance(op, TrialStarted) else {}
            for tune_id, op in first.items()
        }
        first_number = repo.next_trial_number(session, self.experiment_id)
        # the space cannot change while a driver runs (only an ended sweep is extended)
        version = repo.space_version(session, self.experiment_id)
        created = {
            tune_id: TrialRow(
                experiment_id=self.experiment_id,
                tune_trial_id=tune_id,
                number=first_number + index,
                config=config,
                state=TrialState.running,
                iteration=0,
                restarts=0,
                space_version=version,
                started_at=now,
            )
            for index, (tune_id, config) in enumerate(configs.items())
        }
        session.add_all(created.values())
        session.flush()
        for tune_id, row in created.items():
            trial_ids[tune_id] = row.id
            repo.add_event(
                session,
                self.experiment_id,
                "trial_started",
                f"trial {tune_id} started",
                trial_id=row.id,
                data={"config": configs[tune_id]},
            )
        return trial_ids, {id(op) for op in first.values() if isinstance(op, TrialStarted)}

    @property
    def objective(self) -> Objective:
        return Objective(self.metric, Mode(self.mode), self.time_attr)

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
            if value is not None and Mode(self.mode).better(value, best.get(trial_id)):
                best[trial_id] = value
        if not latest:
            return
        # one query and one UPDATE for the batch's trials, not two statements per trial
        columns: list[InstrumentedAttribute[Any]] = [
            TrialRow.id,
            TrialRow.iteration,
            TrialRow.last_metric,
            TrialRow.best_metric,
            TrialRow.checkpoint_uri,
        ]
        if self.tracked:
            columns.append(TrialRow.objective_values)
        if self.constraints:
            columns.append(TrialRow.feasible)
        now = utcnow()
        changes = []
        for row in session.execute(select(*columns).where(TrialRow.id.in_(latest))).mappings():
            op = latest[row["id"]]
            # even a late result that changes no column marks the trial changed: the UI's
            # cached views of the experiment are keyed on it
            change = {**row, "updated_at": now}
            if op.iteration >= row["iteration"]:
                change["iteration"] = op.iteration
                change["last_metric"] = self._value(op.metrics)
                if self.tracked:
                    change["objective_values"] = {m: metric_in(op.metrics, m) for m in self.tracked}
                if self.constraints:
                    change["feasible"] = feasible(self.constraints, op.metrics)
                if op.checkpoint_uri:
                    change["checkpoint_uri"] = artifact_uri(self.storage_root, op.checkpoint_uri)
            found = best.get(row["id"])
            if found is not None and Mode(self.mode).better(found, row["best_metric"]):
                change["best_metric"] = found
            changes.append(change)
        bulk.update_by_id(session, TrialRow, changes)
