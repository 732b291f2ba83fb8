"""A real webhook receiver on 127.0.0.1 for tests: it checks each delivery's signature as a
real receiver would (a bad one is answered 400), records what it got, and answers from a
script (a status per request; ``HANG``: never answer until it stops).

A Ray end-to-end test registers one on its running server with ``webhook_on``::

    with webhook_on(server.url, server.admin_token, events=["sweep.completed"]) as receiver:
        ...  # run the sweep
        [delivery] = receiver.wait_for("sweep.completed", timeout_s=60)
        assert delivery["data"]["experiment_id"] == experiment_id
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from raysweep.client import Client
from raysweep.webhooks import DELIVERY_HEADER, SIGNATURE_HEADER, WebhookEvent, verify_signature

HANG = -1  # an answer that never comes (until the receiver stops)


@dataclass(frozen=True)
class Received:
    headers: dict[str, str]
    body: bytes
    verified: bool  # the signature checked out under the receiver's secret
    status: int  # what the receiver answered (HANG: nothing)
    at: float  # time.monotonic() when it arrived

    @property
    def document(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.body)
        return parsed

    @property
    def delivery_id(self) -> str:
        return self.headers.get(DELIVERY_HEADER, "")


class Receiver:
    """``answers``: the status of each request in turn (then 200); ``secret``: the key the
    signatures are checked with (settable once the server made it)."""

    def __init__(self, answers: Sequence[int] = (), secret: str | None = None):
        self.answers, self.secret = list(answers), secret
        self.received: list[Received] = []
        self.lock = threading.Lock()
        self.released = threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.on_request(self, body)

            def log_message(self, *_: Any) -> None:
                pass

        return Handler

    def on_request(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        headers = dict(handler.headers.items())
        secret = self.secret
        verified = secret is not None and verify_signature(
            secret, body, headers.get(SIGNATURE_HEADER, "")
        )
        with self.lock:
            status = self.answers.pop(0) if self.answers else 200
            if secret is not None and not verified and status != HANG:
                status = 400
            self.received.append(Received(headers, body, verified, status, time.monotonic()))
        if status == HANG:
            self.released.wait()
            return
        handler.send_response(status)
        handler.send_header("Content-Length", "2")
        handler.end_headers()
        handler.wfile.write(b"ok")

    def deliveries(self, event: str | None = None) -> list[dict[str, Any]]:
        """The bodies it accepted (verified, answered 2xx), once per delivery id, in order."""
        seen: set[str] = set()
        found = []
        with self.lock:
            received = list(self.received)
        for item in received:
            if not (item.verified and 200 <= item.status < 300) or item.delivery_id in seen:
                continue
            seen.add(item.delivery_id)
            if event is None or item.document.get("event") == event:
                found.append(item.document)
        return found

    def wait_for(self, event: str, count: int = 1, timeout_s: float = 30) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout_s
        while len(found := self.deliveries(event)) < count:
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{len(found)} {event} deliveries within {timeout_s} s (wanted {count}); "
                    f"got {[r.headers.get('Raysweep-Event') for r in self.received]}"
                )
            time.sleep(0.05)
        return found


@contextmanager
def webhook_on(
    server_url: str,
    token: str,
    project: str = "default",
    events: Sequence[str] = tuple(WebhookEvent),
) -> Iterator[Receiver]:
    """A receiver registered as a webhook of ``project`` on the server at ``server_url`` (its
    secret made by the server); the webhook is deleted and the receiver stopped afterwards.
    ``receiver.wait_for(event)`` / ``receiver.deliveries()`` give what it got, verified."""
    with Receiver() as receiver, Client(server_url, token) as client:
        hook = client.create_webhook(project, receiver.url, list(events))
        receiver.secret = hook.secret
        try:
            yield receiver
        finally:
            client.delete_webhook(project, hook.id)
