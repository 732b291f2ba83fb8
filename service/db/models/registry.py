"""The model registry: final runs and their results, model versions, names, aliases with
their history, and deployments."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from raysweep.lifecycle import (
    DeploymentState,
    FinalRunState,
)
from raysweep.names import DEFAULT_PROJECT
from service.db.base import NEVER_REUSED_IDS, Base, BigId, stored_enum, utcnow
from service.db.models.sweeps import trial_number_of


class FinalRunRow(Base):
    """A promoted trial trained again on the final cluster; becomes a model version."""

    __tablename__ = "final_runs"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    experiment_id: Mapped[str] = mapped_column(ForeignKey("experiments.id", ondelete="CASCADE"))
    trial_id: Mapped[int] = mapped_column(BigId, ForeignKey("trials.id", ondelete="CASCADE"))
    trial_number: Mapped[int | None] = trial_number_of(trial_id)
    rank: Mapped[int] = mapped_column(Integer)  # 1 = the sweep's best trial
    state: Mapped[FinalRunState] = stored_enum(FinalRunState)
    config: Mapped[dict[str, Any]]  # what the workers get: the trial's config, scaled
    num_workers: Mapped[int] = mapped_column(Integer)
    # {use_gpu, cpus_per_worker, gpus_per_worker} of each worker; None: the sweep's
    resources: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    epochs: Mapped[int] = mapped_column(Integer)
    # a PBT trial's config changes, replayed: [{"epoch": e, "config": ...}], each config
    # (scaled as ``config``) trained from the epoch after e; None: ``config`` throughout
    schedule: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
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
    trial_number: Mapped[int | None] = trial_number_of(trial_id)
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
