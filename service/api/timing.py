"""Request latency for ``/metrics``, labelled by route template (bounded label values)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from fastapi import FastAPI, Request, Response

from service.metrics import Metrics


def install_request_timing(app: FastAPI, metrics: Metrics) -> None:
    @app.middleware("http")
    async def time_request(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        started = time.perf_counter()
        response = await call_next(request)
        route = request.scope.get("route")
        template = getattr(route, "path", None) or "unmatched"
        metrics.request_seconds.labels(request.method, template, str(response.status_code)).observe(
            time.perf_counter() - started
        )
        return response
