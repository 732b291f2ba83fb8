"""Composition root: builds the database, the API, the embedded Ray head and the controller,
and owns their lifetimes. ``python -m service serve`` runs it."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import ExitStack, asynccontextmanager

import uvicorn
from anyio import to_thread
from fastapi import FastAPI
from sqlalchemy import Engine, text

from service.api.app import create_app
from service.controller.runner import build_controller
from service.db.migrate import SchemaOutOfDate, check_schema
from service.db.session import create_db_engine, session_factory
from service.engine.cluster import RayConnection
from service.metrics import Metrics
from service.settings import Settings
from service.usecases.tokens import ensure_admin_token

log = logging.getLogger("raysweep")


def database_check(engine: Engine) -> Callable[[], str | None]:
    def check() -> str | None:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        try:
            check_schema(engine)
        except SchemaOutOfDate as error:
            return str(error)
        return None

    return check


def build_app(settings: Settings) -> FastAPI:
    engine = create_db_engine(settings.database_url_value)
    check_schema(engine)  # refuse to serve an out-of-date schema, saying how to migrate
    db = session_factory(engine)
    if ensure_admin_token(db, settings.admin_token_path):
        print(
            f"raysweep: created an admin token in {settings.admin_token_path.resolve()}", flush=True
        )
    # requests get their own engine, whose statements are cut off after a limit; the
    # controller's passes keep the first
    api_engine = create_db_engine(
        settings.database_url_value, statement_timeout_s=settings.api_statement_timeout_s
    )
    api_db = session_factory(api_engine)
    ray = RayConnection(settings) if settings.controller else None
    metrics = Metrics(api_db)
    checks = {"database": database_check(engine)}
    if ray is not None:
        checks["ray"] = ray.check

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # sync routes run in anyio's thread pool (40 threads by default); under load 20 threads
        # switching on the GIL answered slower at the 99th percentile than a few taking turns
        to_thread.current_default_thread_limiter().total_tokens = settings.api_threads
        with ExitStack() as stack:
            if ray is not None:
                stack.enter_context(ray)
                stack.enter_context(build_controller(settings, db, ray, metrics))
            yield
        api_engine.dispose()
        engine.dispose()

    return create_app(settings, api_db, checks, lifespan, metrics)


def serve(settings: Settings) -> None:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    app = build_app(settings)
    print(
        f"raysweep: serving on http://{settings.host}:{settings.port} "
        f"(API docs at /docs; admin token in {settings.admin_token_path.resolve()})",
        flush=True,
    )
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="info")
