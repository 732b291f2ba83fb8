"""Request latency for ``/metrics``, labelled by route template (bounded label values). A plain
ASGI middleware, like the body limit: it adds a timer and a label lookup per request, no
request/response wrapping."""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.metrics import Metrics


class RequestTimingMiddleware:
    def __init__(self, app: ASGIApp, metrics: Metrics):
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # what the server answers when the app raises before responding

        async def send_and_note_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note_status)
        finally:
            # the router puts the matched route into the (shared) scope
            template = getattr(scope.get("route"), "path", None) or "unmatched"
            self.metrics.request_seconds.labels(scope["method"], template, str(status)).observe(
                time.perf_counter() - started
            )
