"""Work on a clock and news sent out: schedules and their firings, webhooks and their
deliveries."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from raysweep.lifecycle import (
    FiringOutcome,
)
from raysweep.names import DEFAULT_PROJECT
from raysweep.schedules import Misfire, Overlap, ScheduleKind
from raysweep.webhooks import DeliveryState
from service.db.base import NEVER_REUSED_IDS, Base, BigId, stored_enum, utcnow


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
