"""Sending the outbox: the webhook sender claims due deliveries (each claim one conditional
UPDATE, so two server processes never send the same attempt), sends them outside any
transaction, and records each outcome: delivered on 2xx; retried with exponential backoff after
a 5xx, 408, 429, a connection error or a timeout, until the attempts run out; failed at once on
any other answer (a 4xx says the receiver will not take it, a redirect is not followed). Ended
deliveries are pruned once they are older than the retention, a bounded batch at a time."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from raysweep.webhooks import TEST_EVENT, DeliveryState, redact_url
from service.db.models.schedules import WebhookDeliveryRow, WebhookRow

RETRIED_CODES = frozenset({408, 429})
LONGEST_BACKOFF = timedelta(hours=1)
ERROR_CHARS = 500
# rows one prune deletes at most, in one transaction: a backlog never holds the write lock long
PRUNE_BATCH = 1000


@dataclass(frozen=True)
class Outgoing:
    """One claimed attempt: where to, what, signed with what."""

    id: int
    event: str
    url: str
    secret: str
    body: bytes
    attempt: int
    format: str = "json"

    @property
    def shown_url(self) -> str:
        return redact_url(self.url, "slack" if self.format == "slack" else "json")


@dataclass(frozen=True)
class Answer:
    """What an attempt got: an HTTP status, or the error that stopped it."""

    code: int | None
    error: str | None = None


def body_of(row: WebhookDeliveryRow, format: str) -> bytes:
    """The bytes POSTed (the same on every attempt, so a receiver may key on the id)."""
    if format == "slack":
        message = row.payload.get("message", row.event)
        return json.dumps({"text": f"[raysweep {row.payload.get('project')}] {message}"}).encode()
    document = {"id": row.id, **row.payload}
    return json.dumps(document, separators=(",", ":"), default=str).encode()


def claim_due(
    db: sessionmaker[Session], now: datetime, lease: timedelta, limit: int
) -> list[Outgoing]:
    """Up to ``limit`` pending deliveries due by ``now``, each claimed for ``lease`` (a sender
    that dies mid-attempt leaves it due again when the lease ends: at least once)."""
    claimed: list[Outgoing] = []
    with db.begin() as session:
        candidates = session.execute(
            select(WebhookDeliveryRow.id, WebhookDeliveryRow.next_attempt_at)
            .join(WebhookRow, WebhookRow.id == WebhookDeliveryRow.webhook_id)
            .where(
                WebhookDeliveryRow.state == DeliveryState.pending,
                WebhookDeliveryRow.next_attempt_at <= now,
                # a disabled webhook's deliveries wait; its test deliveries go
                or_(WebhookRow.enabled, WebhookDeliveryRow.event == TEST_EVENT),
            )
            .order_by(WebhookDeliveryRow.next_attempt_at, WebhookDeliveryRow.id)
            .limit(limit)
        ).all()
    for delivery_id, due in candidates:
        with db.begin() as session:
            won = session.execute(
                update(WebhookDeliveryRow)
                .where(
                    WebhookDeliveryRow.id == delivery_id,
                    WebhookDeliveryRow.state == DeliveryState.pending,
                    WebhookDeliveryRow.next_attempt_at == due,
                )
                .values(
                    next_attempt_at=now + lease,
                    attempts=WebhookDeliveryRow.attempts + 1,
                    last_attempt_at=now,
                )
                .execution_options(synchronize_session=False)
            )
            if getattr(won, "rowcount", 0) != 1:
                continue  # another sender took it
            row, hook = session.execute(
                select(WebhookDeliveryRow, WebhookRow)
                .join(WebhookRow, WebhookRow.id == WebhookDeliveryRow.webhook_id)
                .where(WebhookDeliveryRow.id == delivery_id)
            ).one()
            body = body_of(row, hook.format)
            claimed.append(
                Outgoing(row.id, row.event, hook.url, hook.secret, body, row.attempts, hook.format)
            )
    return claimed


def record_answer(
    db: sessionmaker[Session],
    delivery: Outgoing,
    answer: Answer,
    now: datetime,
    retry: timedelta,
    max_attempts: int,
) -> DeliveryState:
    """Store the attempt's outcome; returns the delivery's state after it. An attempt whose
    claim was taken over meanwhile (it outlived its lease) leaves the newer one's outcome."""
    with db.begin() as session:
        row = session.get(WebhookDeliveryRow, delivery.id)
        if row is None:  # its webhook was deleted meanwhile
            return DeliveryState.failed
        if row.attempts != delivery.attempt or row.state != DeliveryState.pending:
            return row.state
        row.response_code, row.error = answer.code, answer.error
        code = answer.code
        if code is not None and 200 <= code < 300:
            row.state, row.delivered_at, row.next_attempt_at = DeliveryState.delivered, now, None
        elif (code is None or code >= 500 or code in RETRIED_CODES) and row.attempts < max_attempts:
            backoff = min(retry * 2 ** (row.attempts - 1), LONGEST_BACKOFF)
            row.next_attempt_at = now + backoff
        else:
            row.state, row.next_attempt_at = DeliveryState.failed, None
        return row.state


def prune_deliveries(db: sessionmaker[Session], ended_before: datetime, limit: int) -> int:
    """Delete up to ``limit`` delivered or failed deliveries whose last attempt was before
    ``ended_before``, oldest first; returns how many went. A pending one (waiting for its first
    attempt, a retry or a disabled webhook, or being sent now) stays, however old."""
    with db.begin() as session:
        ended = func.coalesce(WebhookDeliveryRow.last_attempt_at, WebhookDeliveryRow.created_at)
        oldest = (
            select(WebhookDeliveryRow.id)
            .where(
                WebhookDeliveryRow.state.in_([DeliveryState.delivered, DeliveryState.failed]),
                ended < ended_before,
            )
            .order_by(WebhookDeliveryRow.id)
            .limit(limit)
        )
        gone = session.execute(
            delete(WebhookDeliveryRow)
            .where(WebhookDeliveryRow.id.in_(oldest))
            .execution_options(synchronize_session=False)
        )
        return int(getattr(gone, "rowcount", 0) or 0)
