"""Webhook routes: a project's webhooks, their delivery log and a test delivery."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response

from raysweep.names import PROJECT_PATTERN
from raysweep.schemas import Page
from raysweep.webhooks import (
    DeliveryRead,
    WebhookCreate,
    WebhookCreated,
    WebhookRead,
    WebhookUpdate,
)
from service.api.deps import Db, Limit, Member, Offset, RowId, Viewer
from service.api.errors import ERROR_RESPONSES
from service.usecases import webhooks as usecase

router = APIRouter(
    prefix="/api/v1/projects/{project}/webhooks", tags=["webhooks"], responses=ERROR_RESPONSES
)
Project = Annotated[str, Path(pattern=PROJECT_PATTERN)]


@router.post("", status_code=201, summary="Create a webhook (member)")
def create_webhook(
    project: Project, body: WebhookCreate, db: Db, caller: Member, response: Response
) -> WebhookCreated:
    """The project's `events` are POSTed to `url` as JSON (or a Slack incoming-webhook body),
    each delivery signed in the `Raysweep-Signature` header: `t=<unix time>,v1=<hex
    HMAC-SHA256 of "<t>.<body>" under the secret>`. A receiver recomputes it over the raw body,
    compares in constant time and refuses a `t` more than a few minutes old; `Raysweep-Delivery`
    (the delivery id, the same on every retry) lets it refuse replays and repeats.

    The secret, when the server made it, is in this response only; the URL's user info, query
    values and a Slack URL's path are never shown again. At most 20 webhooks per project (409).
    `trial.failed` is sent at most once per sweep per 5 minutes."""
    created = usecase.create_webhook(db, caller, project, body)
    response.headers["Location"] = f"/api/v1/projects/{project}/webhooks/{created.id}"
    return created


@router.get("", summary="A project's webhooks (viewer)")
def list_webhooks(project: Project, db: Db, caller: Viewer) -> list[WebhookRead]:
    return usecase.list_webhooks(db, caller, project)


@router.get("/{webhook_id}", summary="One webhook (viewer)")
def get_webhook(project: Project, webhook_id: RowId, db: Db, caller: Viewer) -> WebhookRead:
    return usecase.get_webhook(db, caller, project, webhook_id)


@router.patch("/{webhook_id}", summary="Change a webhook: URL, events, format, secret, on/off")
def update_webhook(
    project: Project, webhook_id: RowId, body: WebhookUpdate, db: Db, caller: Member
) -> WebhookRead:
    """Sets the fields the body names; a new `secret` signs every delivery sent from now on
    (retries of older ones too)."""
    return usecase.update_webhook(db, caller, project, webhook_id, body)


@router.delete("/{webhook_id}", status_code=204, summary="Delete a webhook and its log (member)")
def delete_webhook(project: Project, webhook_id: RowId, db: Db, caller: Member) -> Response:
    usecase.delete_webhook(db, caller, project, webhook_id)
    return Response(status_code=204)


@router.post("/{webhook_id}/test", status_code=202, summary="Send a test delivery (member)")
def send_test(project: Project, webhook_id: RowId, db: Db, caller: Member) -> DeliveryRead:
    """Queues a `webhook.test` delivery, signed like every other; the controller sends it
    within a second or so, and its outcome (status, response code, error) appears in
    `GET .../deliveries`."""
    return usecase.send_test(db, caller, project, webhook_id)


@router.get("/{webhook_id}/deliveries", summary="A webhook's delivery log, newest first")
def list_deliveries(
    project: Project,
    webhook_id: RowId,
    db: Db,
    caller: Viewer,
    limit: Limit = 50,
    offset: Offset = 0,
) -> Page[DeliveryRead]:
    """Each delivery's event, state (`pending`, `delivered`, `failed`), attempts, the latest
    attempt's response code and error, and its times. A 5xx, 408, 429, connection error or
    timeout is retried with exponential backoff (`RAYSWEEP_WEBHOOK_RETRY_S`, doubling) up to
    `RAYSWEEP_WEBHOOK_MAX_ATTEMPTS`; any other 4xx or a redirect fails it at once."""
    return usecase.list_deliveries(db, caller, project, webhook_id, limit, offset)
