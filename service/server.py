"""Composition root: builds the database, the API, the embedded Ray head and the controller,
and owns their lifetimes. ``python -m service serve`` runs it."""

from __future__ import annotations

import ctypes
import gc
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import ExitStack, asynccontextmanager

import uvicorn
from anyio import to_thread
from fastapi import FastAPI
from sqlalchemy import Engine, text

from service.api.app import create_app
from service.clock import Clock
from service.db.migrate import SchemaOutOfDate, check_schema
from service.db.session import create_db_engine, session_factory
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


def build_app(settings: Settings, clock: Clock | None = None) -> FastAPI:
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
    ray = None
    if settings.controller:
        # Ray and the controller only where they run: an API-only process starts ~3 s sooner
        from service.controller.runner import build_controller
        from service.engine.cluster import RayConnection

        ray = RayConnection(settings)
    metrics = Metrics(api_db)
    work_arrived = threading.Event()  # the API sets it after a change; the controller wakes
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
                stack.enter_context(
                    build_controller(settings, db, ray, metrics, work_arrived, clock)
                )
            yield
        api_engine.dispose()
        engine.dispose()

    return create_app(settings, api_db, checks, lifespan, metrics, work_arrived, clock)


def settle_heap() -> None:
    """Keep what start-up built (imports, the app, its models: most of the heap) out of the
    collector's full passes. Each of those scanned it all and held every request for ~125 ms
    (4 a run of bench/api_load.py: its p99); after a freeze one takes ~8 ms."""
    gc.collect()
    gc.freeze()


def serve(settings: Settings, clock: Clock | None = None) -> None:
    """``clock``: what the schedules take as now (the system's unless a test gives its own;
    API-only processes, ``RAYSWEEP_API_WORKERS`` > 1, always read the system's)."""
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    # what the server writes (stored code, its database, the Ray head it starts) is the
    # service's user's alone
    os.umask(0o077)
    app = build_app(settings, clock)
    settle_heap()
    print(
        f"raysweep: serving on http://{settings.host}:{settings.port} "
        f"(API docs at /docs; admin token in {settings.admin_token_path.resolve()})",
        flush=True,
    )
    if settings.api_workers == 1:
        uvicorn.run(app, host=settings.host, port=settings.port, log_level="info")
        return
    # each process listens on a socket of its own on the one port (SO_REUSEPORT): the kernel
    # spreads new connections evenly over them, where one shared socket lets whichever process
    # wakes first accept a whole burst
    listener = reuse_port_listener(settings)  # this one first: a port in use fails here
    workers = [start_api_worker() for _ in range(settings.api_workers - 1)]
    try:
        uvicorn.Server(uvicorn.Config(app, log_level="info")).run(sockets=[listener])
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            try:
                worker.wait(timeout=WORKER_STOP_S)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()


WORKER_STOP_S = 10  # uvicorn's graceful stop waits for open requests; then SIGKILL


def reuse_port_listener(settings: Settings) -> socket.socket:
    family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
    return socket.create_server(
        (settings.host, settings.port), family=family, backlog=2048, reuse_port=True
    )


def start_api_worker() -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "service", "serve-api", "--parent", str(os.getpid())],
        env={**os.environ, "RAYSWEEP_CONTROLLER": "false"},
    )


def serve_api_worker(settings: Settings, parent: int) -> None:
    """An API-only process (no controller, no Ray) answering on the port of the ``serve``
    process ``parent``; it stops when that process dies, however."""
    stop_with_parent(parent)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    app = build_app(settings.model_copy(update={"controller": False}))
    settle_heap()
    listener = reuse_port_listener(settings)
    uvicorn.Server(uvicorn.Config(app, log_level="info")).run(sockets=[listener])


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def stop_with_parent(parent: int) -> None:
    """SIGTERM to this process when ``parent`` dies, even by SIGKILL (Linux), so no API process
    outlives its server."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:  # it died before the call above
        os.kill(os.getpid(), signal.SIGTERM)
