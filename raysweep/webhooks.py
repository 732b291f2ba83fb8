"""Webhooks as the API reads and writes them, and the signature a receiver checks.

Every delivery is a POST whose body is JSON and whose ``Raysweep-Signature`` header reads
``t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the webhook's secret>`` (Stripe's
scheme). A receiver recomputes the HMAC over the raw body, compares in constant time, refuses a
``t`` older than a few minutes, and remembers the ``Raysweep-Delivery`` ids it has seen within
that window (a retry of one delivery keeps its id):

Example::

    from raysweep.webhooks import verify_signature

    def handle(headers, body: bytes) -> int:
        if not verify_signature(SECRET, body, headers["Raysweep-Signature"]):
            return 400
        if headers["Raysweep-Delivery"] in seen:   # a replay (or a retry already handled)
            return 200
        seen.add(headers["Raysweep-Delivery"])
        ...
"""

from __future__ import annotations

import hashlib
import hmac
import time
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal
from urllib.parse import SplitResult, parse_qsl, urlencode, urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

from raysweep.strict import StrictModel

SIGNATURE_HEADER = "Raysweep-Signature"
DELIVERY_HEADER = "Raysweep-Delivery"
EVENT_HEADER = "Raysweep-Event"
# a receiver refuses a signature older than this (and one from further in the future)
DEFAULT_TOLERANCE_S = 300
REDACTED = "***"


class WebhookEvent(StrEnum):
    """What a webhook can ask to be told about."""

    sweep_completed = "sweep.completed"
    sweep_failed = "sweep.failed"
    sweep_cancelled = "sweep.cancelled"
    sweep_budget_spent = "sweep.budget_spent"
    sweep_converged = "sweep.converged"
    # at most one per sweep per few minutes (the sweep's events list every failure)
    trial_failed = "trial.failed"
    final_run_completed = "final_run.completed"
    final_run_failed = "final_run.failed"
    model_version_created = "model_version.created"
    alias_moved = "alias.moved"
    schedule_firing_failed = "schedule.firing_failed"
    # skipped by the overlap policy, or missed (no server ran) and not made up
    schedule_firing_skipped = "schedule.firing_skipped"


# the event of a delivery asked for with "send test"; every webhook gets it
TEST_EVENT = "webhook.test"


class DeliveryState(StrEnum):
    pending = "pending"  # waiting for its first attempt or its next retry
    delivered = "delivered"  # the receiver answered 2xx
    failed = "failed"  # a 4xx other than 408/429, a redirect, or retries used up

    @property
    def is_final(self) -> bool:
        return self is not DeliveryState.pending


WebhookFormat = Literal["json", "slack"]
FORMAT_DESCRIPTION = (
    "`json` (default): the event as JSON; `slack`: a Slack incoming-webhook body "
    '(`{"text": ...}`) with the same signature headers.'
)


def signature_header(secret: str, body: bytes, timestamp: int) -> str:
    """``t=<timestamp>,v1=<hex HMAC-SHA256 over "<timestamp>.<body>">``."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def verify_signature(
    secret: str,
    body: bytes,
    header: str,
    tolerance_s: float = DEFAULT_TOLERANCE_S,
    now: float | None = None,
) -> bool:
    """Whether ``header`` signs ``body`` (the raw bytes received) under ``secret`` at a time
    within ``tolerance_s`` of ``now``: False for a wrong secret, a changed body, or an old
    (replayed) or future timestamp."""
    fields: dict[str, list[str]] = {}
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        fields.setdefault(key, []).append(value)
    try:
        timestamp = int(fields["t"][0])
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - timestamp) > tolerance_s:
        return False
    expected = signature_header(secret, body, timestamp).partition(",v1=")[2]
    return any(hmac.compare_digest(expected, given) for given in fields.get("v1", []))


def url_carries_secret(url: str, format: WebhookFormat = "json") -> bool:
    """A URL whose user info, query or (a Slack webhook's) path is a credential."""
    parts = urlsplit(url)
    return bool(parts.username or parts.password or parts.query or format == "slack")


def redact_url(url: str, format: WebhookFormat = "json") -> str:
    """The URL as the API shows it: user info, query values and a Slack webhook's path (its
    token) replaced by ``***``."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = host + (f":{parts.port}" if parts.port else "")
    if parts.username or parts.password:
        netloc = f"{REDACTED}@{netloc}"
    query = urlencode([(key, REDACTED) for key, _ in parse_qsl(parts.query, True)], safe="*")
    path = parts.path
    if format == "slack" and path.strip("/"):
        path = "/" + path.strip("/").split("/")[0] + "/" + REDACTED
    return urlunsplit(SplitResult(parts.scheme, netloc, path, query, ""))


def _checked_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("must be an http:// or https:// URL with a host")
    if parts.fragment:
        raise ValueError("must not have a #fragment")
    try:
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError as error:
        raise ValueError(f"bad port: {error}") from None
    return url


class WebhookSettings(StrictModel):
    @field_validator("url", check_fields=False)
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        return None if value is None else _checked_url(value)

    @field_validator("events", check_fields=False)
    @classmethod
    def _events(cls, value: list[WebhookEvent] | None) -> list[WebhookEvent] | None:
        return None if value is None else sorted(set(value))


PORT = r"(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})"
# http(s), optional user info, a host name or IPv4 address, a port, then printable ASCII up to
# a fragment: the schema says what the validator takes
URL_PATTERN = (
    r"^https?://([A-Za-z0-9._~%!$&'()*+,;=:-]+@)?[A-Za-z0-9._-]+(:" + PORT + r")?([/?][!-\"$-~]*)?$"
)
URL_DESCRIPTION = (
    "Where deliveries are POSTed (http or https). Treated as a secret: user info, query values "
    "and a Slack webhook's path are never shown again."
)
SECRET_DESCRIPTION = (
    "The HMAC-SHA256 key of the signature (16-256 characters); omitted: the server makes one "
    "and shows it once, in this response."
)


class WebhookCreate(WebhookSettings):
    """A webhook of a project: ``events`` are POSTed to ``url``, signed with ``secret``."""

    url: str = Field(max_length=2048, pattern=URL_PATTERN, description=URL_DESCRIPTION)
    events: list[WebhookEvent] = Field(min_length=1, description="The events it is told about.")
    secret: str | None = Field(
        default=None, min_length=16, max_length=256, description=SECRET_DESCRIPTION
    )
    format: WebhookFormat = Field(default="json", description=FORMAT_DESCRIPTION)
    enabled: StrictBool = True


class WebhookUpdate(WebhookSettings):
    """The fields given are changed; ``secret`` rotates the signing key."""

    url: str | None = Field(
        default=None, max_length=2048, pattern=URL_PATTERN, description=URL_DESCRIPTION
    )
    events: list[WebhookEvent] | None = Field(default=None, min_length=1)
    secret: str | None = Field(default=None, min_length=16, max_length=256)
    format: WebhookFormat | None = None
    enabled: StrictBool | None = None


class WebhookRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    project: str
    url: str = Field(description="The URL, with its secret parts shown as `***`.")
    url_redacted: bool = Field(description="Whether `url` hides parts of the stored URL.")
    events: list[WebhookEvent]
    format: WebhookFormat
    enabled: bool
    secret_hint: str = Field(description="The secret's last four characters, after `…`.")
    created_by: str | None
    created_at: datetime
    updated_at: datetime


class WebhookCreated(WebhookRead):
    secret: str | None = Field(
        description="The secret the server made (shown this once); null when the request gave one."
    )


class DeliveryRead(BaseModel):
    """One event sent (or to be sent) to one webhook, with its latest attempt."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    webhook_id: int
    event: str
    state: DeliveryState
    attempts: int
    response_code: int | None = Field(description="The latest attempt's HTTP status, if any.")
    error: str | None = Field(description="Why the latest attempt did not deliver.")
    payload: dict[str, Any] = Field(description="The event as the `json` format sends it.")
    created_at: datetime
    last_attempt_at: datetime | None
    next_attempt_at: datetime | None = Field(description="When a pending one is tried next.")
    delivered_at: datetime | None
