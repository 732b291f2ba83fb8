"""The delivery log's retention on both databases: the webhook sender's thread deletes delivered
and failed deliveries whose last attempt is older than RAYSWEEP_WEBHOOK_DELIVERY_RETENTION_DAYS,
at most a batch (1,000 rows) a pass, and never a pending one however old."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.webhooks import DeliveryState, WebhookCreate
from service.controller.webhooks import DeliveryPruner
from service.db.base import utcnow
from service.db.models.schedules import WebhookDeliveryRow
from service.settings import Settings, settings_from_environment
from service.usecases.access import operator
from service.usecases.deliveries import PRUNE_BATCH
from service.usecases.webhooks import create_webhook, list_deliveries

ADMIN = operator("tester")
DAY = timedelta(days=1)


def a_webhook(db: sessionmaker[Session]) -> int:
    request = WebhookCreate.model_validate(
        {"url": "http://127.0.0.1:9/hook", "events": ["sweep.completed"]}
    )
    return create_webhook(db, ADMIN, "default", request).id


def delivery(
    webhook_id: int,
    state: DeliveryState,
    created: datetime,
    last_attempt: datetime | None,
    note: str,
) -> dict[str, Any]:
    """A delivery row as the sender leaves it (the outbox writes them; their age is set here)."""
    final = state is not DeliveryState.pending
    return {
        "webhook_id": webhook_id,
        "event": "sweep.completed",
        "subject": note,
        "payload": {"event": "sweep.completed", "project": "default", "data": {}},
        "state": state,
        "attempts": 0 if last_attempt is None else 3,
        "next_attempt_at": None if final else (last_attempt or created) + timedelta(minutes=5),
        "last_attempt_at": last_attempt,
        "delivered_at": last_attempt if state is DeliveryState.delivered else None,
        "response_code": {DeliveryState.delivered: 200, DeliveryState.failed: 404}.get(state),
        "created_at": created,
    }


def notes(db: sessionmaker[Session]) -> list[str | None]:
    with db.begin() as session:
        return list(
            session.scalars(select(WebhookDeliveryRow.subject).order_by(WebhookDeliveryRow.id))
        )


def test_ended_deliveries_past_retention_go_a_bounded_batch_a_pass_and_pending_ones_stay(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    hook = a_webhook(db)
    now = utcnow()
    old = now - 40 * DAY
    delivered, failed, pending = (
        DeliveryState.delivered,
        DeliveryState.failed,
        DeliveryState.pending,
    )
    rows = [delivery(hook, delivered, old, old, f"old-{n}") for n in range(PRUNE_BATCH + 3)]
    rows += [
        delivery(hook, failed, now - 31 * DAY, now - 31 * DAY, "old-failed"),
        # pending, however old: waiting for a disabled webhook, retrying, being sent now
        delivery(hook, pending, now - 90 * DAY, None, "waiting"),
        delivery(hook, pending, now - 90 * DAY, now - 40 * DAY, "retrying"),
        delivery(hook, pending, now - 90 * DAY, now, "sending"),
        # created long ago but ended within the retention: its age is its last attempt's
        delivery(hook, delivered, now - 45 * DAY, now - 29 * DAY, "ended-recently"),
        delivery(hook, failed, now - DAY, now - DAY, "recent-failed"),
        delivery(hook, delivered, now, now, "recent-delivered"),
    ]
    with db.begin() as session:
        session.execute(insert(WebhookDeliveryRow), rows)
    pruner = DeliveryPruner(db, Settings(home=tmp_path), every=timedelta(hours=1))
    assert pruner.retention == 30 * DAY  # the default
    # a backlog goes a batch a pass, the oldest first
    assert pruner.run_once() == PRUNE_BATCH == 1000
    assert notes(db)[:4] == ["old-1000", "old-1001", "old-1002", "old-failed"]
    assert pruner.run_once() == 4  # the rest of the backlog: caught up
    kept = ["waiting", "retrying", "sending", "ended-recently", "recent-failed"]
    assert notes(db) == [*kept, "recent-delivered"]
    # caught up, it looks again only after ``every``: a row ageing meanwhile waits for that
    with db.begin() as session:
        session.execute(insert(WebhookDeliveryRow), [delivery(hook, failed, old, old, "later")])
    assert pruner.run_once() == 0 and notes(db)[-1] == "later"
    assert DeliveryPruner(db, Settings(home=tmp_path)).run_once() == 1  # e.g. after a restart
    log = list_deliveries(db, ADMIN, "default", hook, 50, 0)
    assert log.total == 6
    assert [d.state for d in log.items] == [delivered, failed, delivered, *[pending] * 3]


def test_a_smaller_batch_bounds_each_pass_and_a_shorter_retention_takes_more(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    hook = a_webhook(db)
    now = utcnow()
    ages = [10, 9, 8, 6, 2]  # days since each delivery's last attempt
    rows = [
        delivery(hook, DeliveryState.delivered, now - age * DAY, now - age * DAY, f"{age}d")
        for age in ages
    ]
    with db.begin() as session:
        session.execute(insert(WebhookDeliveryRow), rows)
    settings = Settings(home=tmp_path, webhook_delivery_retention_days=7)
    pruner = DeliveryPruner(db, settings, batch=2, every=timedelta(0))
    assert [pruner.run_once() for _ in range(4)] == [2, 1, 0, 0]
    assert notes(db) == ["6d", "2d"]


def test_the_retention_past_its_documented_bounds_stops_the_server_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("RAYSWEEP_SECRETS_DIR", raising=False)
    for value in ("0", "3651"):
        monkeypatch.setenv("RAYSWEEP_WEBHOOK_DELIVERY_RETENTION_DAYS", value)
        with pytest.raises(ValueError, match="webhook_delivery_retention_days"):
            settings_from_environment()
    monkeypatch.setenv("RAYSWEEP_WEBHOOK_DELIVERY_RETENTION_DAYS", "3650")
    assert settings_from_environment().webhook_delivery_retention_days == 3650
