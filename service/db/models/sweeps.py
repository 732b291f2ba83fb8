"""The rows of a sweep: experiments and their labels, trials, rung decisions, PBT exploits,
results, checkpoints, events, the record batches stored once, and the cluster capacity seen."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    select,
)
from sqlalchemy.orm import Mapped, MappedSQLExpression, column_property, mapped_column, relationship

from raysweep.lifecycle import (
    ExperimentState,
    PromotionStatus,
    RungDecisionKind,
    TrialState,
)
from raysweep.names import DEFAULT_PROJECT
from service.db.base import NEVER_REUSED_IDS, Base, BigId, stored_enum, utcnow


class ExperimentRow(Base):
    __tablename__ = "experiments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(128))
    trainer: Mapped[str] = mapped_column(String(128))
    metric: Mapped[str] = mapped_column(String(128))
    mode: Mapped[str] = mapped_column(String(3))
    spec: Mapped[dict[str, Any]]
    state: Mapped[ExperimentState] = stored_enum(ExperimentState)
    error: Mapped[str | None] = mapped_column(Text)
    created_by: Mapped[str | None] = mapped_column(String(64))
    driver_job_id: Mapped[str | None] = mapped_column(String(128))
    driver_restarts: Mapped[int] = mapped_column(Integer, default=0)
    # every driver submitted so far (first run, restarts, resumes): the next job's attempt number
    driver_attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # times the sweep was extended: the latest extension runs as its own Tune run
    extensions: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # every version of the search space once an extension changed it (``SpaceVersion`` dicts,
    # oldest first); None while the sweep has its first space only
    search_spaces: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    best_trial_id: Mapped[int | None] = mapped_column(
        ForeignKey("trials.id", ondelete="SET NULL", use_alter=True)
    )
    best_metric: Mapped[float | None] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    # when the latest cancel or pause was asked for: the reconciler stops a driver that has
    # not honoured it within the grace period
    stop_requested_at: Mapped[datetime | None]
    promotion: Mapped[PromotionStatus | None] = stored_enum(PromotionStatus)
    notes: Mapped[str | None] = mapped_column(Text)  # a member's, shown in the lists
    project: Mapped[str] = mapped_column(
        ForeignKey("projects.name"),
        default=DEFAULT_PROJECT,
        server_default=DEFAULT_PROJECT,
        index=True,
    )

    labels: Mapped[list[LabelRow]] = relationship(
        cascade="all, delete-orphan", passive_deletes=True, lazy="selectin"
    )

    __table_args__ = (
        Index("ix_experiments_created_at", "created_at"),
        Index("ix_experiments_state_created_at", "state", "created_at"),
    )


class LabelRow(Base):
    __tablename__ = "experiment_labels"

    experiment_id: Mapped[str] = mapped_column(
        ForeignKey("experiments.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(63), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))

    __table_args__ = (Index("ix_experiment_labels_key_value", "key", "value"),)


class TrialRow(Base):
    __tablename__ = "trials"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    experiment_id: Mapped[str] = mapped_column(ForeignKey("experiments.id", ondelete="CASCADE"))
    tune_trial_id: Mapped[str] = mapped_column(String(64))
    # its place in its experiment: 1 for the first trial created (what the web UI shows)
    number: Mapped[int] = mapped_column(Integer)
    config: Mapped[dict[str, Any]]
    state: Mapped[TrialState] = stored_enum(TrialState)
    iteration: Mapped[int] = mapped_column(Integer, default=0)
    last_metric: Mapped[float | None] = mapped_column(Float)
    best_metric: Mapped[float | None] = mapped_column(Float)
    # the latest result's value of each objective and constrained metric (None: not reported
    # or not finite), and whether it keeps the constraints (None: the sweep has none)
    objective_values: Mapped[dict[str, float | None] | None] = mapped_column(JSON)
    feasible: Mapped[bool | None] = mapped_column(Boolean)
    checkpoint_uri: Mapped[str | None] = mapped_column(Text)
    restarts: Mapped[int] = mapped_column(Integer, default=0)
    # the version of the sweep's search space it was sampled from (1 until a space change)
    space_version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    error: Mapped[str | None] = mapped_column(Text)
    # what its worker group waits for while the cluster cannot place it yet
    waiting_for: Mapped[str | None] = mapped_column(Text)
    # the latest early-stopping decision about it, in one line (from rung_decisions)
    early_stopping: Mapped[str | None] = mapped_column(Text)
    notes: Mapped[str | None] = mapped_column(Text)  # a member's, shown in the trial table
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]

    __table_args__ = (
        UniqueConstraint("experiment_id", "tune_trial_id"),
        UniqueConstraint("experiment_id", "number"),
        Index("ix_trials_experiment_id_state", "experiment_id", "state"),
        Index("ix_trials_experiment_id_best_metric", "experiment_id", "best_metric"),
        # the cached views' versions: an experiment's latest trial change, and any trial's
        Index("ix_trials_experiment_id_updated_at", "experiment_id", "updated_at"),
        Index("ix_trials_updated_at", "updated_at"),
        NEVER_REUSED_IDS,
    )


def trial_number_of(
    trial_id: Mapped[int] | Mapped[int | None],
) -> MappedSQLExpression[int | None]:
    """A row's trial's number in its experiment, read with the row (no column of its own; None
    once the trial is gone): for rows that name a trial by id."""
    return column_property(select(TrialRow.number).where(TrialRow.id == trial_id).scalar_subquery())


class RungDecisionRow(Base):
    """One early-stopping decision, stored when the scheduler made it: the durable record the
    rung view reads and a restored driver's scheduler rebuilds its rungs from."""

    __tablename__ = "rung_decisions"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    experiment_id: Mapped[str] = mapped_column(ForeignKey("experiments.id", ondelete="CASCADE"))
    trial_id: Mapped[int] = mapped_column(BigId, ForeignKey("trials.id", ondelete="CASCADE"))
    bracket: Mapped[int] = mapped_column(Integer, default=0)
    milestone: Mapped[int] = mapped_column(Integer)
    value: Mapped[float | None] = mapped_column(Float)
    cutoff: Mapped[float | None] = mapped_column(Float)
    rank: Mapped[int | None] = mapped_column(Integer)
    rung_size: Mapped[int] = mapped_column(Integer)
    decision: Mapped[RungDecisionKind] = stored_enum(RungDecisionKind)
    reason: Mapped[str] = mapped_column(Text)
    decided_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        # a re-delivered decision (restored driver, resent batch) is stored once
        UniqueConstraint("trial_id", "milestone", "decision"),
        Index("ix_rung_decisions_experiment_id_milestone", "experiment_id", "milestone"),
    )


class ExploitRow(Base):
    """One exploit of population-based training, stored when the scheduler made it: at
    ``epoch`` the trial continued from a copy of ``source_trial_id``'s checkpoint with
    ``new_config`` (its config until then: ``old_config``). The trial's schedule and the
    sweep's lineage read these; a restored driver's scheduler rebuilds from them."""

    __tablename__ = "exploits"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    experiment_id: Mapped[str] = mapped_column(ForeignKey("experiments.id", ondelete="CASCADE"))
    trial_id: Mapped[int] = mapped_column(BigId, ForeignKey("trials.id", ondelete="CASCADE"))
    trial_number: Mapped[int | None] = trial_number_of(trial_id)
    source_trial_id: Mapped[int] = mapped_column(BigId, ForeignKey("trials.id", ondelete="CASCADE"))
    source_trial_number: Mapped[int | None] = trial_number_of(source_trial_id)
    epoch: Mapped[int] = mapped_column(Integer)
    value: Mapped[float | None] = mapped_column(Float)
    source_value: Mapped[float | None] = mapped_column(Float)
    old_config: Mapped[dict[str, Any]] = mapped_column(JSON)
    new_config: Mapped[dict[str, Any]] = mapped_column(JSON)
    decided_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        # a re-delivered exploit (restored driver, resent batch) is stored once
        UniqueConstraint("trial_id", "epoch"),
        Index("ix_exploits_experiment_id_epoch", "experiment_id", "epoch"),
    )


class ClusterCapacityRow(Base):
    """A cluster's alive nodes and their total resources, as the controller last saw them."""

    __tablename__ = "cluster_capacity"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    nodes: Mapped[list[dict[str, float]]] = mapped_column(JSON)
    observed_at: Mapped[datetime]


class ResultRow(Base):
    __tablename__ = "trial_results"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    trial_id: Mapped[int] = mapped_column(BigId, ForeignKey("trials.id", ondelete="CASCADE"))
    iteration: Mapped[int] = mapped_column(Integer)
    metrics: Mapped[dict[str, Any]]
    reported_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("trial_id", "iteration"),)


class CheckpointRow(Base):
    __tablename__ = "checkpoints"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    trial_id: Mapped[int] = mapped_column(BigId, ForeignKey("trials.id", ondelete="CASCADE"))
    iteration: Mapped[int] = mapped_column(Integer)
    uri: Mapped[str] = mapped_column(Text)
    metric: Mapped[float | None] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)

    __table_args__ = (UniqueConstraint("trial_id", "iteration"),)


class EventRow(Base):
    """Append-only timeline of an experiment."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    experiment_id: Mapped[str] = mapped_column(ForeignKey("experiments.id", ondelete="CASCADE"))
    trial_id: Mapped[int | None] = mapped_column(BigId, ForeignKey("trials.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(64))
    message: Mapped[str] = mapped_column(Text)
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    trial_number: Mapped[int | None] = trial_number_of(trial_id)

    __table_args__ = (Index("ix_events_experiment_id_id", "experiment_id", "id"),)


class RecordBatchRow(Base):
    """The last batch of reports the sweep's current driver stored (``usecases.recording``):
    a batch sent again because its answer was lost is recognised and stored once."""

    __tablename__ = "record_batches"

    experiment_id: Mapped[str] = mapped_column(
        ForeignKey("experiments.id", ondelete="CASCADE"), primary_key=True
    )
    attempt: Mapped[int] = mapped_column(Integer)  # the driver job's attempt
    last_sequence: Mapped[int] = mapped_column(Integer)  # its batches count from 1
