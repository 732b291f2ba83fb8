"""ORM models (on ``service.db.base``). The schema itself is only ever changed by a migration in
``migrations/``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    select,
    text,
)
from sqlalchemy.orm import Mapped, column_property, mapped_column, relationship

from raysweep.lifecycle import (
    DeploymentState,
    ExperimentState,
    FinalRunState,
    FiringOutcome,
    PromotionStatus,
    RungDecisionKind,
    TrialState,
)
from raysweep.schedules import Misfire, Overlap, ScheduleKind
from raysweep.webhooks import DeliveryState
from service.db.base import Base, BigId, stored_enum, utcnow

DEFAULT_PROJECT = "default"


# the tables whose ids the API addresses: SQLite reuses the largest id after a DELETE unless a
# table is AUTOINCREMENT (PostgreSQL's sequences never do); migration 0017
NEVER_REUSED_IDS = {"sqlite_autoincrement": True}


class ProjectRow(Base):
    """A team's share of the service: its objects, its tokens' roles, its weight in fair share,
    its quotas (None: no limit) and monthly budgets."""

    __tablename__ = "projects"

    name: Mapped[str] = mapped_column(String(63), primary_key=True)
    description: Mapped[str | None] = mapped_column(Text)
    weight: Mapped[float] = mapped_column(Float, default=1.0, server_default="1")
    max_workers: Mapped[int | None] = mapped_column(Integer)
    max_cpus: Mapped[float | None] = mapped_column(Float)
    max_gpus: Mapped[float | None] = mapped_column(Float)
    max_queued: Mapped[int | None] = mapped_column(Integer)
    monthly_worker_hours: Mapped[float | None] = mapped_column(Float)
    monthly_gpu_hours: Mapped[float | None] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class TokenProjectRow(Base):
    """A non-admin token's role in one project; a token sees only its projects' objects."""

    __tablename__ = "token_projects"

    token_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("api_tokens.id", ondelete="CASCADE"), primary_key=True
    )
    project: Mapped[str] = mapped_column(ForeignKey("projects.name"), primary_key=True)
    role: Mapped[str] = mapped_column(String(16))


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
    # its trial's number in the experiment, read with the event (no column of its own)
    trial_number: Mapped[int | None] = column_property(
        select(TrialRow.number).where(TrialRow.id == trial_id).scalar_subquery()
    )

    __table_args__ = (Index("ix_events_experiment_id_id", "experiment_id", "id"),)


class TokenRow(Base):
    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[str] = mapped_column(String(16))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None]
    revoked_at: Mapped[datetime | None]

    grants: Mapped[list[TokenProjectRow]] = relationship(
        cascade="all, delete-orphan", passive_deletes=True, lazy="selectin"
    )


class CodePackageRow(Base):
    """An uploaded training-code package; its zip lives on storage under ``code/<sha256>.zip``."""

    __tablename__ = "code_packages"

    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    size_bytes: Mapped[int] = mapped_column(BigInteger)
    files: Mapped[int] = mapped_column(Integer)
    # every .py file -> None when it parses, else its syntax error; checked against entrypoints
    python_files: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class FinalRunRow(Base):
    """A promoted trial trained again on the final cluster; becomes a model version."""

    __tablename__ = "final_runs"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    experiment_id: Mapped[str] = mapped_column(ForeignKey("experiments.id", ondelete="CASCADE"))
    trial_id: Mapped[int] = mapped_column(BigId, ForeignKey("trials.id", ondelete="CASCADE"))
    # its trial's number in the experiment, read with the row (no column of its own)
    trial_number: Mapped[int | None] = column_property(
        select(TrialRow.number).where(TrialRow.id == trial_id).scalar_subquery()
    )
    rank: Mapped[int] = mapped_column(Integer)  # 1 = the sweep's best trial
    state: Mapped[FinalRunState] = stored_enum(FinalRunState)
    config: Mapped[dict[str, Any]]  # what the workers get: the trial's config, scaled
    num_workers: Mapped[int] = mapped_column(Integer)
    # {use_gpu, cpus_per_worker, gpus_per_worker} of each worker; None: the sweep's
    resources: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    epochs: Mapped[int] = mapped_column(Integer)
    warm_start_uri: Mapped[str | None] = mapped_column(Text)
    model_name: Mapped[str] = mapped_column(String(128))
    cluster: Mapped[str] = mapped_column(String(64))  # the final cluster record it runs on
    job_id: Mapped[str | None] = mapped_column(String(128))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    restarts: Mapped[int] = mapped_column(Integer, default=0)  # job resubmissions
    worker_failures: Mapped[int] = mapped_column(Integer, default=0)  # retried by Ray Train
    error: Mapped[str | None] = mapped_column(Text)
    metrics: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    test_metrics: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    checkpoint_uri: Mapped[str | None] = mapped_column(Text)
    # "promotion" (once per trial) or "retrain" (a schedule's firing; any number per trial)
    purpose: Mapped[str] = mapped_column(String(16), default="promotion")
    # a retrain's rule: {alias, margin, metric, mode}; decided when its version registers
    challenge: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]

    __table_args__ = (
        Index(
            "uq_final_runs_promotion",
            "experiment_id",
            "trial_id",
            unique=True,
            sqlite_where=text("purpose = 'promotion'"),
            postgresql_where=text("purpose = 'promotion'"),
        ),
        Index("ix_final_runs_state", "state"),
        NEVER_REUSED_IDS,
    )


class FinalRunResultRow(Base):
    __tablename__ = "final_run_results"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    final_run_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("final_runs.id", ondelete="CASCADE")
    )
    epoch: Mapped[int] = mapped_column(Integer)
    metrics: Mapped[dict[str, Any]]
    reported_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("final_run_id", "epoch"),)


class CodePackageProjectRow(Base):
    """A project holding a code package: packages are stored by content, so the same archive
    uploaded in two projects is one package held by both."""

    __tablename__ = "code_package_projects"

    sha256: Mapped[str] = mapped_column(
        ForeignKey("code_packages.sha256", ondelete="CASCADE"), primary_key=True
    )
    project: Mapped[str] = mapped_column(ForeignKey("projects.name"), primary_key=True)
    # who brought it into this project: one project's members never learn who uploaded the
    # same files in another
    uploaded_by: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ComputeUsageRow(Base):
    """What one worker group held (workers and their CPUs and GPUs in all) from when the gate
    granted its lease to when the lease ended; rewritten while the lease is held."""

    __tablename__ = "compute_usage"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    lease: Mapped[str] = mapped_column(String(255))
    started_at: Mapped[datetime]
    ended_at: Mapped[datetime]
    holding: Mapped[bool] = mapped_column(Boolean)  # the lease was still held when written
    seconds: Mapped[float] = mapped_column(Float)  # ended_at - started_at
    project: Mapped[str] = mapped_column(String(63))
    experiment_id: Mapped[str | None] = mapped_column(
        ForeignKey("experiments.id", ondelete="CASCADE"), index=True
    )
    trial_id: Mapped[int | None] = mapped_column(BigId, index=True)
    final_run_id: Mapped[int | None] = mapped_column(BigId)
    workers: Mapped[int] = mapped_column(Integer)
    cpus: Mapped[float] = mapped_column(Float)
    gpus: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        UniqueConstraint("lease", "started_at"),
        Index("ix_compute_usage_project_started_at", "project", "started_at"),
    )


class ModelVersionRow(Base):
    """A registered model version with its lineage."""

    __tablename__ = "model_versions"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(128))
    version: Mapped[int] = mapped_column(Integer)
    final_run_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("final_runs.id", ondelete="CASCADE"), unique=True
    )
    experiment_id: Mapped[str] = mapped_column(String(32))
    trial_id: Mapped[int] = mapped_column(BigId)
    # its trial's number, read with the row (no column; none once the trial is deleted)
    trial_number: Mapped[int | None] = column_property(
        select(TrialRow.number).where(TrialRow.id == trial_id).scalar_subquery()
    )
    trainer: Mapped[str] = mapped_column(String(128))
    config: Mapped[dict[str, Any]]
    metrics: Mapped[dict[str, Any]]
    test_metrics: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    checkpoint_uri: Mapped[str] = mapped_column(Text)
    code_version: Mapped[dict[str, Any]]
    data_fingerprint: Mapped[str | None] = mapped_column(String(64))
    comparison: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # champion/challenger
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # its experiment's: a model name belongs to the project of its versions
    project: Mapped[str] = mapped_column(
        ForeignKey("projects.name"),
        default=DEFAULT_PROJECT,
        server_default=DEFAULT_PROJECT,
        index=True,
    )

    __table_args__ = (UniqueConstraint("name", "version"), NEVER_REUSED_IDS)


class ModelNameRow(Base):
    """A model name's project, from the first promotion queued under it; it stays when the
    versions go, so a name never changes project and two projects never share one."""

    __tablename__ = "model_names"

    name: Mapped[str] = mapped_column(String(128), primary_key=True)
    project: Mapped[str] = mapped_column(ForeignKey("projects.name"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ModelAliasRow(Base):
    """``name@alias`` -> version; one holder per alias, every move kept in the history."""

    __tablename__ = "model_aliases"

    name: Mapped[str] = mapped_column(String(128), primary_key=True)
    alias: Mapped[str] = mapped_column(String(64), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class ModelAliasHistoryRow(Base):
    __tablename__ = "model_alias_history"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(128))
    alias: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer)
    previous_version: Mapped[int | None] = mapped_column(Integer)
    set_by: Mapped[str | None] = mapped_column(String(64))
    set_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index("ix_model_alias_history_name_alias", "name", "alias"),)


class ModelDeploymentRow(Base):
    """A model version served by Ray Serve on a final cluster: the desired state the Deployer
    reconciles with Serve's."""

    __tablename__ = "model_deployments"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(128))
    version: Mapped[int] = mapped_column(Integer)
    app_name: Mapped[str] = mapped_column(String(160), unique=True)
    # the version it serves (its name and number could come back after a delete; its id not)
    model_version_id: Mapped[int | None] = mapped_column(
        BigId, ForeignKey("model_versions.id", ondelete="SET NULL")
    )
    cluster: Mapped[str] = mapped_column(String(64))
    state: Mapped[DeploymentState] = stored_enum(DeploymentState)
    route_prefix: Mapped[str] = mapped_column(String(300))
    # the endpoint's bearer key, hashed (the key is shown once, when the deployment is made)
    key_sha256: Mapped[str | None] = mapped_column(String(64))
    url: Mapped[str | None] = mapped_column(Text)
    error: Mapped[str | None] = mapped_column(Text)
    created_by: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    __table_args__ = (
        Index("ix_model_deployments_name_version", "name", "version"),
        # one deployment that is not deleted per version, however many requests race
        Index(
            "uq_model_deployments_active_version",
            "model_version_id",
            unique=True,
            sqlite_where=text("state != 'deleted'"),
            postgresql_where=text("state != 'deleted'"),
        ),
        NEVER_REUSED_IDS,
    )


class ScheduleRow(Base):
    """A cron schedule: a fresh sweep from its template, or a retrain, at each due time."""

    __tablename__ = "schedules"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(128), unique=True)
    kind: Mapped[ScheduleKind] = stored_enum(ScheduleKind)
    cron: Mapped[str] = mapped_column(String(128))
    timezone: Mapped[str] = mapped_column(String(64))
    enabled: Mapped[bool] = mapped_column(Boolean)
    overlap: Mapped[Overlap] = stored_enum(Overlap)
    misfire: Mapped[Misfire] = stored_enum(Misfire)
    template: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # kind sweep: the spec
    retrain: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # kind retrain: its settings
    next_run_at: Mapped[datetime | None]
    created_by: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    project: Mapped[str] = mapped_column(
        ForeignKey("projects.name"),
        default=DEFAULT_PROJECT,
        server_default=DEFAULT_PROJECT,
        index=True,
    )

    __table_args__ = (Index("ix_schedules_enabled_next_run_at", "enabled", "next_run_at"),)


class ScheduleFiringRow(Base):
    """One due time of a schedule, recorded once (unique per schedule and time)."""

    __tablename__ = "schedule_firings"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    schedule_id: Mapped[str] = mapped_column(ForeignKey("schedules.id", ondelete="CASCADE"))
    scheduled_for: Mapped[datetime]
    fired_at: Mapped[datetime] = mapped_column(default=utcnow)
    outcome: Mapped[FiringOutcome] = stored_enum(FiringOutcome)
    experiment_id: Mapped[str | None] = mapped_column(String(32))
    final_run_id: Mapped[int | None] = mapped_column(BigInteger)  # a retrain's final run
    message: Mapped[str] = mapped_column(Text)

    __table_args__ = (
        UniqueConstraint("schedule_id", "scheduled_for"),
        Index("ix_schedule_firings_schedule_id_outcome", "schedule_id", "outcome"),
    )


class WebhookRow(Base):
    """A project's webhook: the events it wants POSTed to ``url``, signed with ``secret``.
    ``url`` and ``secret`` are secrets: the API shows them redacted (``raysweep.webhooks``)."""

    __tablename__ = "webhooks"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    project: Mapped[str] = mapped_column(ForeignKey("projects.name"), index=True)
    url: Mapped[str] = mapped_column(Text)
    events: Mapped[list[str]] = mapped_column(JSON)
    secret: Mapped[str] = mapped_column(String(256))
    format: Mapped[str] = mapped_column(String(8))
    enabled: Mapped[bool] = mapped_column(Boolean)
    created_by: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    __table_args__ = (NEVER_REUSED_IDS,)


class WebhookDeliveryRow(Base):
    """The outbox: one event for one webhook, written in the transaction that made the event
    happen (``service.db.outbox``), sent and retried by the controller's webhook sender."""

    __tablename__ = "webhook_deliveries"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    webhook_id: Mapped[int] = mapped_column(BigId, ForeignKey("webhooks.id", ondelete="CASCADE"))
    event: Mapped[str] = mapped_column(String(32))
    # what it is about (an experiment id, a model name, a schedule id): trial.failed's rate limit
    subject: Mapped[str | None] = mapped_column(String(160))
    payload: Mapped[dict[str, Any]]
    state: Mapped[DeliveryState] = stored_enum(DeliveryState)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # pending: when it is due (its first attempt, its next retry, or a claim's lease running out)
    next_attempt_at: Mapped[datetime | None]
    last_attempt_at: Mapped[datetime | None]
    delivered_at: Mapped[datetime | None]
    response_code: Mapped[int | None] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        Index("ix_webhook_deliveries_state_next_attempt_at", "state", "next_attempt_at"),
        Index("ix_webhook_deliveries_webhook_id_id", "webhook_id", "id"),
        Index("ix_webhook_deliveries_webhook_id_event_subject", "webhook_id", "event", "subject"),
        NEVER_REUSED_IDS,
    )


class ServiceKeyRow(Base):
    """A key every process of the service shares (``usecases.job_tokens``)."""

    __tablename__ = "service_keys"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class RecordBatchRow(Base):
    """The last batch of reports the sweep's current driver stored (``usecases.recording``):
    a batch sent again because its answer was lost is recognised and stored once."""

    __tablename__ = "record_batches"

    experiment_id: Mapped[str] = mapped_column(
        ForeignKey("experiments.id", ondelete="CASCADE"), primary_key=True
    )
    attempt: Mapped[int] = mapped_column(Integer)  # the driver job's attempt
    last_sequence: Mapped[int] = mapped_column(Integer)  # its batches count from 1
