"""The FastAPI application factory. Everything it needs is handed in; it starts nothing."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute
from sqlalchemy.orm import Session, sessionmaker
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

import raysweep
from raysweep.spec import ExperimentSpec
from service.api.body_limit import BodyLimitMiddleware
from service.api.cached_json import GZIP_LEVEL, GZIP_MINIMUM_BYTES
from service.api.deps import AppState, JobTokenKey
from service.api.errors import install_error_handlers
from service.api.headers import SecurityHeadersMiddleware
from service.api.routes import (
    clusters,
    code,
    experiments,
    health,
    jobs,
    logs,
    models,
    operator_metrics,
    projects,
    promotion,
    schedules,
    tensorboard,
    trials,
    views,
    web,
    webhooks,
)
from service.api.timing import RequestTimingMiddleware
from service.api.token_first import TokenBeforeBody
from service.api.view_slots import ViewSlots
from service.api.wake import ControllerWakeMiddleware
from service.clock import Clock, SystemClock
from service.metrics import Metrics
from service.settings import Settings
from service.usecases.access import Owners
from service.usecases.driving import MAX_BATCH_BYTES
from service.usecases.tokens import RecentTokens

DESCRIPTION = """raysweep runs hyperparameter sweeps as Ray Tune sweeps of Ray Train DDP trials.

Every `/api/v1` route needs `Authorization: Bearer <token>`; viewers may read, members may also
submit, control, promote and deploy, upload code and set aliases; admins may do everything. The
`/api/v1/jobs` routes are for raysweep's own Ray jobs (sweep drivers, final runs), each with its
job's token (`rsj_...`), and take no other. Every 4xx has the body
`{"error": {"code", "message", "details": [{"path", "message"}]}}`."""


def create_app(
    settings: Settings,
    db: sessionmaker[Session],
    ready_checks: dict[str, Callable[[], str | None]],
    lifespan: Any = None,
    metrics: Metrics | None = None,
    work_arrived: threading.Event | None = None,
    clock: Clock | None = None,
) -> FastAPI:
    """``work_arrived``: set after every request that changed something (the controller, where
    this process runs it, waits on it between passes)."""
    app = FastAPI(
        title="raysweep", version=raysweep.__version__, description=DESCRIPTION, lifespan=lifespan
    )
    work_arrived = work_arrived or threading.Event()
    metrics = metrics or Metrics(db)
    app.state.raysweep = AppState(
        settings=settings,
        db=db,
        ready_checks=ready_checks,
        metrics=metrics,
        recent_tokens=RecentTokens(),
        owners=Owners(),
        view_slots=ViewSlots(settings.views_at_once, settings.view_wait_s),
        work_arrived=work_arrived,
        job_token_key=JobTokenKey(),
        clock=clock or SystemClock(),
    )
    install_error_handlers(app)
    # JSON above 1 KiB compressed for clients that accept gzip (a page of 500 trials: ~10x less)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_BYTES, compresslevel=GZIP_LEVEL)
    app.add_middleware(
        BodyLimitMiddleware,
        max_bytes=settings.max_body_bytes,
        # a driver's batch of reports (at most driving.MAX_BATCH of them)
        limits={code.router.prefix: settings.max_code_bytes, jobs.router.prefix: MAX_BATCH_BYTES},
    )
    # outside the body limit: a request without a valid token is a 401 whatever its body
    app.add_middleware(TokenBeforeBody)
    app.add_middleware(RequestTimingMiddleware, metrics=metrics)
    app.add_middleware(ControllerWakeMiddleware, work_arrived=work_arrived)
    # outermost (the last added): every answer carries the headers, the body limit's own 413s too
    app.add_middleware(SecurityHeadersMiddleware)
    routers = (
        health.router,
        experiments.router,
        trials.router,
        tensorboard.router,
        logs.router,
        views.router,
        code.router,
        promotion.router,
        models.router,
        clusters.router,
        schedules.router,
        projects.router,
        webhooks.router,
        operator_metrics.router,
        jobs.router,
    )
    for router in routers:
        app.include_router(router)
    # what a 405's Allow names: every method served at a path, across the routes
    app.state.route_methods = [
        (route.path_regex, route.methods)
        for router in routers
        for route in router.routes
        if isinstance(route, APIRoute)
    ]
    web.mount(app, settings.web_dir)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title, version=app.version, description=app.description, routes=app.routes
            )
            spec_schema = ExperimentSpec.model_json_schema(
                ref_template="#/components/schemas/{model}"
            )
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            components.update(spec_schema.pop("$defs", {}))
            components["ExperimentSpec"] = spec_schema
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    serve_openapi_off_the_event_loop(app)
    return app


def serve_openapi_off_the_event_loop(app: FastAPI) -> None:
    """FastAPI serves ``/openapi.json`` from an ``async`` route, so the first request builds the
    schema on the event loop (half a second on an idle 2-core machine, several under load),
    holding every other request. This route is a plain function instead: FastAPI runs it in its
    thread pool."""

    def openapi_json(request: Request) -> JSONResponse:
        return JSONResponse(app.openapi())

    routes = app.router.routes
    [index] = [i for i, r in enumerate(routes) if getattr(r, "path", None) == app.openapi_url]
    routes[index] = Route(str(app.openapi_url), openapi_json, include_in_schema=False)
