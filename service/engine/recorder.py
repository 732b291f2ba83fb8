"""Batched, idempotent database writes for a running sweep.

The Tune callback only appends to an in-memory buffer, so Tune never waits on the database. A
writer thread drains the buffer in batches, one transaction each; a failed batch is retried with
backoff and nothing is dropped. Results are unique per (trial, iteration), so a result delivered
twice (a restored driver, a restarted worker group) is stored once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field

from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from raysweep.spec import Constraint, ExperimentSpec
from service.engine.retention import prune_trial
from service.storage import train_runs_uri
from service.usecases.recording import KeptResults, Op, ResultStore, TrialEnded
from service.usecases.studies import tracked_metrics

log = logging.getLogger(__name__)


class BufferFull(RuntimeError):
    pass


@dataclass
class Recorder:
    db: sessionmaker[Session]
    experiment_id: str
    metric: str
    mode: str
    # storage root (for checkpoint URIs) and the latest checkpoints a finished trial keeps
    storage_root: str = ""
    checkpoints_to_keep: int | None = None
    time_attr: str = "epoch"  # the progress measure, named in early-stopping decisions' lines
    # metrics whose latest values each trial keeps (objectives, constrained), and the bounds
    tracked: tuple[str, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    retention: KeptResults = field(default_factory=KeptResults)  # which results trials keep
    project: str = "default"  # whose ledger the trials' held compute goes to
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
    _store: ResultStore = field(init=False)

    def __post_init__(self) -> None:
        self._store = ResultStore(
            self.experiment_id,
            self.metric,
            self.mode,
            self.storage_root,
            self.time_attr,
            self.tracked,
            self.constraints,
            self.retention,
            self.project,
        )

    @classmethod
    def for_sweep(
        cls,
        db: sessionmaker[Session],
        experiment_id: str,
        spec: ExperimentSpec,
        storage_root: str = "",
        time_attr: str = "epoch",
    ) -> Recorder:
        """The recorder a sweep's driver runs: its scalar objective, the metrics every trial
        keeps the latest values of, its constraints, and checkpoint and result retention."""
        return cls(
            db,
            experiment_id,
            spec.primary.metric,
            spec.primary.mode,
            storage_root=storage_root,
            checkpoints_to_keep=spec.fault_tolerance.checkpoints_to_keep,
            time_attr=time_attr,
            tracked=tuple(tracked_metrics(spec)),
            constraints=tuple(spec.constraints),
            retention=KeptResults.of(spec),
            project=spec.project,
        )

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
                self._trial_ids = self._store.write(self.db, batch, self._trial_ids)
            except Exception as error:
                # the database's own error, or (a batch it could not even be sent) ours, with
                # its traceback: either way nothing is dropped, and a full buffer names it
                cause = error.orig if isinstance(error, DBAPIError) else error
                self.last_error = f"{type(cause).__name__}: {cause}"
                log.warning(
                    "database write failed (%s); retrying in %.1fs",
                    self.last_error,
                    backoff,
                    exc_info=not isinstance(error, DBAPIError),
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
