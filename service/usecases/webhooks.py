"""Webhook use cases: a project's members create, change, test and delete its webhooks; its
viewers read them and their delivery log. What a webhook is sent comes from the outbox
(``service.db.outbox``); sending it is the controller's (``usecases/deliveries.py``)."""

from __future__ import annotations

import secrets

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.schemas import Page
from raysweep.tokens import Role, TokenRead
from raysweep.webhooks import (
    TEST_EVENT,
    DeliveryRead,
    DeliveryState,
    WebhookCreate,
    WebhookCreated,
    WebhookEvent,
    WebhookFormat,
    WebhookRead,
    WebhookUpdate,
    redact_url,
    url_carries_secret,
)
from service.db import repositories as repo
from service.db.base import utcnow
from service.db.models.schedules import WebhookDeliveryRow, WebhookRow
from service.db.outbox import Notice, payload
from service.errors import Conflict, NotFound
from service.usecases.projects import check_project

# a project's webhooks each get every event they ask for: a bound keeps one project's script
# from making every event a thousand requests
MAX_WEBHOOKS_PER_PROJECT = 20
SECRET_PREFIX = "whsec_"


def to_read(row: WebhookRow) -> WebhookRead:
    format: WebhookFormat = "slack" if row.format == "slack" else "json"
    return WebhookRead(
        id=row.id,
        project=row.project,
        url=redact_url(row.url, format),
        url_redacted=url_carries_secret(row.url, format),
        events=[WebhookEvent(event) for event in row.events],
        format=format,
        enabled=row.enabled,
        secret_hint=f"…{row.secret[-4:]}",
        created_by=row.created_by,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _webhook(
    session: Session, caller: TokenRead, project: str, webhook_id: int, role: Role
) -> WebhookRow:
    check_project(session, caller, project, role)
    row = session.get(WebhookRow, webhook_id)
    if row is None or row.project != project:
        raise NotFound(f"webhook {webhook_id} not found in project {project!r}")
    return row


def create_webhook(
    db: sessionmaker[Session], caller: TokenRead, project: str, request: WebhookCreate
) -> WebhookCreated:
    made = secrets.token_urlsafe(32) if request.secret is None else None
    with db.begin() as session:
        check_project(session, caller, project, Role.member)
        held = session.scalar(
            select(func.count()).select_from(WebhookRow).where(WebhookRow.project == project)
        )
        if (held or 0) >= MAX_WEBHOOKS_PER_PROJECT:
            raise Conflict(
                f"project {project!r} has {held} webhooks, the most it may hold; delete one first"
            )
        row = WebhookRow(
            project=project,
            url=request.url,
            events=[str(e) for e in request.events],
            secret=request.secret or f"{SECRET_PREFIX}{made}",
            format=request.format,
            enabled=request.enabled,
            created_by=caller.name,
        )
        session.add(row)
        session.flush()
        read = to_read(row)
        return WebhookCreated(**read.model_dump(), secret=row.secret if made else None)


def list_webhooks(db: sessionmaker[Session], caller: TokenRead, project: str) -> list[WebhookRead]:
    with db.begin() as session:
        check_project(session, caller, project, Role.viewer)
        rows = session.scalars(
            select(WebhookRow).where(WebhookRow.project == project).order_by(WebhookRow.id)
        )
        return [to_read(row) for row in rows]


def get_webhook(
    db: sessionmaker[Session], caller: TokenRead, project: str, webhook_id: int
) -> WebhookRead:
    with db.begin() as session:
        return to_read(_webhook(session, caller, project, webhook_id, Role.viewer))


def update_webhook(
    db: sessionmaker[Session],
    caller: TokenRead,
    project: str,
    webhook_id: int,
    request: WebhookUpdate,
) -> WebhookRead:
    with db.begin() as session:
        row = _webhook(session, caller, project, webhook_id, Role.member)
        changes = request.model_dump(exclude_none=True)
        if "events" in changes:
            changes["events"] = [str(e) for e in changes["events"]]
        for key, value in changes.items():
            setattr(row, key, value)
        row.updated_at = utcnow()
        session.flush()
        return to_read(row)


def delete_webhook(
    db: sessionmaker[Session], caller: TokenRead, project: str, webhook_id: int
) -> None:
    """The webhook and its delivery log; a delivery being sent right now still arrives."""
    with db.begin() as session:
        session.delete(_webhook(session, caller, project, webhook_id, Role.member))


def send_test(
    db: sessionmaker[Session], caller: TokenRead, project: str, webhook_id: int
) -> DeliveryRead:
    """Queue a ``webhook.test`` delivery to the webhook (enabled or not); the controller's
    sender sends it within a pass, and its outcome is in the delivery log."""
    with db.begin() as session:
        hook = _webhook(session, caller, project, webhook_id, Role.member)
        now = utcnow()
        notice = Notice(
            TEST_EVENT,
            project,
            None,
            f"a test of webhook {hook.id} of project {project}, sent by {caller.name}",
            {"webhook_id": hook.id, "sent_by": caller.name},
        )
        row = WebhookDeliveryRow(
            webhook_id=hook.id,
            event=TEST_EVENT,
            subject=None,
            payload=payload(notice, now.isoformat()),
            state=DeliveryState.pending,
            attempts=0,
            next_attempt_at=now,
            created_at=now,
        )
        session.add(row)
        session.flush()
        return DeliveryRead.model_validate(row)


def list_deliveries(
    db: sessionmaker[Session],
    caller: TokenRead,
    project: str,
    webhook_id: int,
    limit: int,
    offset: int,
) -> Page[DeliveryRead]:
    """The webhook's deliveries, newest first."""
    with db.begin() as session:
        _webhook(session, caller, project, webhook_id, Role.viewer)
        query = select(WebhookDeliveryRow).where(WebhookDeliveryRow.webhook_id == webhook_id)
        rows = session.scalars(
            query.order_by(WebhookDeliveryRow.id.desc()).limit(limit).offset(offset)
        )
        return Page(
            items=[DeliveryRead.model_validate(row) for row in rows],
            total=repo.count(session, query),
            limit=limit,
            offset=offset,
        )
