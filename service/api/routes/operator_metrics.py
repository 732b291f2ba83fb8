"""``GET /metrics``: Prometheus text format, for any token (point the scraper's
``authorization`` at a viewer token)."""

from __future__ import annotations

from typing import cast

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

from service.api.deps import Viewer, app_state
from service.api.errors import ERROR_RESPONSES
from service.metrics import Scrape
from service.usecases.access import visible_projects

router = APIRouter(tags=["operations"], responses=ERROR_RESPONSES)


@router.get(
    "/metrics",
    summary="Operator metrics in Prometheus format",
    response_class=Response,
    responses={200: {"content": {CONTENT_TYPE_LATEST: {}}}},
)
def metrics(request: Request, caller: Viewer) -> Response:
    """Experiments, trials, final runs and schedule firings by state, results stored, driver and
    final-run restarts (from the database, the same on every server; the token's projects
    only, as for the ledger below), and this process's
    request latency (`raysweep_http_request_duration_seconds` by route template) and controller
    loops (`raysweep_controller_lag_seconds`: time since each loop last finished a pass,
    `raysweep_controller_pass_seconds`, `raysweep_controller_pass_errors_total`), and the
    compute ledger's totals (`raysweep_compute_{worker,cpu,gpu}_seconds_total`) for the
    token's projects only. Needs a token (a viewer's is enough)."""
    metrics = app_state(request).metrics
    scrape = Scrape(metrics.registry, metrics.stored, metrics.ledger, visible_projects(caller))
    # generate_latest only calls collect(): one scrape, with the caller's part of the database
    text = generate_latest(cast(CollectorRegistry, scrape))
    return Response(text, media_type=CONTENT_TYPE_LATEST)
