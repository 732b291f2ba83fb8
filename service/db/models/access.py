"""Who may do what and what it costs: projects, tokens and their grants, code packages and
the projects they belong to, the compute ledger, and the service keys."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from service.db.base import Base, BigId, utcnow


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


class ServiceKeyRow(Base):
    """A key every process of the service shares (``usecases.job_tokens``)."""

    __tablename__ = "service_keys"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
