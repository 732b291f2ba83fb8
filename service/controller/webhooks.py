"""WebhookSender: sends the outbox's due deliveries, signed, on threads of its own.

It runs on its own runner thread (``build_controller``), never the controller's: a receiver
that is slow or never answers holds one of its sending threads for at most
``RAYSWEEP_WEBHOOK_TIMEOUT_S`` and delays neither a controller pass nor a sweep (whose drivers
only write the outbox rows). DeliveryPruner, on the same thread, keeps the delivery log to
``RAYSWEEP_WEBHOOK_DELIVERY_RETENTION_DAYS``."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import httpx
from sqlalchemy.orm import Session, sessionmaker

from raysweep.webhooks import DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signature_header
from service.db.base import utcnow
from service.settings import Settings
from service.usecases.deliveries import (
    ERROR_CHARS,
    PRUNE_BATCH,
    Answer,
    Outgoing,
    claim_due,
    prune_deliveries,
    record_answer,
)

SENDING_THREADS = 8
BATCH = 32
USER_AGENT = "raysweep-webhooks/1"
# how often the pruner looks for ended deliveries past their retention once none are left
PRUNE_EVERY = timedelta(minutes=10)


class WebhookSender:
    name = "webhook-sender"

    def __init__(
        self,
        db: sessionmaker[Session],
        settings: Settings,
        transport: httpx.BaseTransport | None = None,
    ):
        self.db = db
        self.timeout_s = settings.webhook_timeout_s
        self.retry = timedelta(seconds=settings.webhook_retry_s)
        self.max_attempts = settings.webhook_max_attempts
        # a claim outlives any attempt: one that is still running is never sent twice
        self.lease = timedelta(seconds=2 * settings.webhook_timeout_s + 30)
        self.http = httpx.Client(
            timeout=settings.webhook_timeout_s,
            follow_redirects=False,
            # no ~/.netrc credentials or proxy from the environment for a member's URL
            trust_env=False,
            transport=transport,
            headers={"User-Agent": USER_AGENT},
        )
        self.pool = ThreadPoolExecutor(SENDING_THREADS, thread_name_prefix="raysweep-webhook")

    def run_once(self) -> int:
        """Send every due delivery (up to a batch), at most ``SENDING_THREADS`` at once; returns
        how many were attempted."""
        batch = claim_due(self.db, utcnow(), self.lease, BATCH)
        for _ in self.pool.map(self.send, batch):
            pass
        return len(batch)

    def send(self, delivery: Outgoing) -> None:
        answer = self.attempt(delivery)
        record_answer(self.db, delivery, answer, utcnow(), self.retry, self.max_attempts)

    def attempt(self, delivery: Outgoing) -> Answer:
        headers = {
            "Content-Type": "application/json",
            SIGNATURE_HEADER: signature_header(delivery.secret, delivery.body, int(time.time())),
            DELIVERY_HEADER: str(delivery.id),
            EVENT_HEADER: delivery.event,
        }
        try:
            response = self.http.post(delivery.url, content=delivery.body, headers=headers)
        except httpx.TimeoutException:
            return Answer(None, f"no answer within {self.timeout_s:g} s")
        except httpx.HTTPError as error:
            return Answer(None, self.scrubbed(delivery, f"{type(error).__name__}: {error}"))
        if 200 <= response.status_code < 300:
            return Answer(response.status_code)
        text = response.text[:ERROR_CHARS].strip()
        location = response.headers.get("location")
        if 300 <= response.status_code < 400 and location:
            text = f"redirected (not followed); {text}"
        return Answer(
            response.status_code,
            self.scrubbed(delivery, f"HTTP {response.status_code}" + (f": {text}" if text else "")),
        )

    @staticmethod
    def scrubbed(delivery: Outgoing, text: str) -> str:
        """An error as the delivery log shows it: never the URL's secret parts."""
        return text.replace(delivery.url, delivery.shown_url).replace(delivery.secret, "***")

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.http.close()


class DeliveryPruner:
    """Deletes delivered and failed deliveries whose last attempt is older than the retention,
    at most ``batch`` rows a pass (each pass one short transaction, the sender's passes between
    them): a backlog goes a batch a pass, then the pruner looks again every ``every``."""

    name = "webhook-pruner"

    def __init__(
        self,
        db: sessionmaker[Session],
        settings: Settings,
        batch: int = PRUNE_BATCH,
        every: timedelta = PRUNE_EVERY,
    ):
        self.db, self.batch, self.every = db, batch, every.total_seconds()
        self.retention = timedelta(days=settings.webhook_delivery_retention_days)
        self.due = 0.0  # time.monotonic() of the next prune: the first pass prunes

    def run_once(self) -> int:
        """Delete one batch when a prune is due; returns how many rows went."""
        now = time.monotonic()
        if now < self.due:
            return 0
        deleted = prune_deliveries(self.db, utcnow() - self.retention, self.batch)
        if deleted < self.batch:  # caught up; a full batch means more may wait: next pass
            self.due = now + self.every
        return deleted
