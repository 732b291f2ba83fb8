"""``GET /metrics``: Prometheus text format, for any token (point the scraper's
``authorization`` at a viewer token)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from service.api.deps import Viewer, app_state
from service.api.errors import ERROR_RESPONSES

router = APIRouter(tags=["operations"], responses=ERROR_RESPONSES)


@router.get(
    "/metrics",
    summary="Operator metrics in Prometheus format",
    response_class=Response,
    responses={200: {"content": {CONTENT_TYPE_LATEST: {}}}},
)
def metrics(request: Request, _: Viewer) -> Response:
    """Experiments, trials, final runs and schedule firings by state, results stored, driver and
    final-run restarts (from the database, the same on every server), and this process's
    request latency (`raysweep_http_request_duration_seconds` by route template) and controller
    loops (`raysweep_controller_lag_seconds`: time since each loop last finished a pass,
    `raysweep_controller_pass_seconds`, `raysweep_controller_pass_errors_total`). Needs a token
    (a viewer's is enough)."""
    registry = app_state(request).metrics.registry
    return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
