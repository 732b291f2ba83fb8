"""Wakes the controller when a request has changed something: a submitted, resumed, extended,
cancelled or promoted sweep is acted on at once, not at the controller's next pass (up to
RAYSWEEP_CONTROLLER_INTERVAL_S later). In a process without the controller (an extra API
worker) nothing waits on the event, and the controller's own pass picks the change up."""

from __future__ import annotations

import threading

from starlette.types import ASGIApp, Message, Receive, Scope, Send

READS = frozenset({"GET", "HEAD", "OPTIONS"})


class ControllerWakeMiddleware:
    def __init__(self, app: ASGIApp, work_arrived: threading.Event):
        self.app, self.work_arrived = app, work_arrived

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] in READS
            or not scope["path"].startswith("/api/")
        ):
            await self.app(scope, receive, send)
            return

        async def send_and_wake(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                self.work_arrived.set()
            await send(message)

        await self.app(scope, receive, send_and_wake)
