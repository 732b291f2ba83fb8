"""HTTP around the routes: 405 names the allowed methods, every response carries the security
headers, large JSON is compressed, and a request whose statement waits past the API's time limit
is a 503 in the one error body while the server goes on answering."""

from __future__ import annotations

import gzip
import inspect
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg
from sqlalchemy.engine import make_url
from starlette.routing import Route

from tests.conftest import BOTH_BACKENDS, InProcessServer, ServerProcess, minimal_spec
from tests.factories import submit


def test_405_names_every_method_the_path_allows(server: ServerProcess) -> None:
    with server.client() as client:
        response = client.delete("/api/v1/experiments")
        experiment = client.put(f"/api/v1/experiments/{submit(client)}")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"
    assert response.headers["allow"] == "GET, POST"  # two routes serve this path
    assert experiment.status_code == 405 and experiment.headers["allow"] == "DELETE, GET"


def test_every_response_has_the_security_headers_and_the_ui_a_content_policy(
    server: ServerProcess,
) -> None:
    with server.client() as client:
        responses = {
            path: client.get(path)
            for path in ("/", "/api/v1/experiments", "/api/v1/nothing", "/healthz", "/docs")
        }
    for path, response in responses.items():
        assert response.headers["x-content-type-options"] == "nosniff", path
        assert response.headers["x-frame-options"] == "DENY", path
        assert response.headers["referrer-policy"] == "no-referrer", path
    policy = responses["/"].headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "script-src 'self';" in policy  # no inline or foreign scripts in the UI
    # Swagger UI loads its assets from FastAPI's CDN: the docs get no content policy
    assert "content-security-policy" not in responses["/docs"].headers


def test_large_json_is_gzipped_for_clients_that_accept_it(server: ServerProcess) -> None:
    with server.client() as client:
        for i in range(10):
            submit(client, name=f"sweep-{i}")
        raw = httpx.get(
            f"{server.url}/api/v1/experiments",
            headers={"Authorization": f"Bearer {server.admin_token}", "Accept-Encoding": "gzip"},
        )
        plain = client.get("/api/v1/experiments", headers={"Accept-Encoding": "identity"})
        small = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert raw.headers["content-encoding"] == "gzip"
    assert raw.json() == plain.json() and len(raw.json()["items"]) == 10  # httpx decodes it
    assert int(raw.headers["content-length"]) < len(plain.content) / 3
    assert gzip.decompress(gzip.compress(plain.content)) == plain.content
    assert "content-encoding" not in plain.headers and "content-encoding" not in small.headers


@contextmanager
def table_locked(db_url: str) -> Iterator[None]:
    """Another client holds the experiments table (PostgreSQL) or the write lock (SQLite)."""
    url = make_url(db_url)
    if url.get_backend_name() == "sqlite":
        connection = sqlite3.connect(str(url.database), isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            connection.execute("ROLLBACK")
            connection.close()
        return
    dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn) as locker:
        locker.execute("LOCK TABLE experiments IN ACCESS EXCLUSIVE MODE")
        yield
        locker.rollback()


@BOTH_BACKENDS
def test_a_request_that_waits_past_the_statement_limit_is_503_and_the_server_answers_on(
    db_url: str, tmp_path: Path
) -> None:
    server = InProcessServer(
        tmp_path / "home", db_url, {"RAYSWEEP_API_STATEMENT_TIMEOUT_S": "0.5"}
    ).start()
    try:
        with server.client() as client:
            with table_locked(db_url):
                blocked = client.post("/api/v1/experiments", json=minimal_spec())
                assert client.get("/healthz").status_code == 200
            after = client.post("/api/v1/experiments", json=minimal_spec())
            listed = client.get("/api/v1/experiments").json()["total"]
    finally:
        server.stop()
    assert blocked.status_code == 503, blocked.text
    error = blocked.json()["error"]
    assert error["code"] == "database_unavailable" and "within 0.5 s" in error["message"]
    assert blocked.headers["retry-after"] == "1"
    assert after.status_code == 201 and listed == 1  # the refused one left nothing


def test_a_chunked_body_over_the_limit_is_413_on_every_route_that_reads_one(
    server: ServerProcess,
) -> None:
    """No Content-Length to refuse up front: the limit is hit while the body is read, by the
    route's own parser (POST /experiments) or FastAPI's (POST /schedules, PATCH); with one, the
    limit answers before reading. Each 413 carries the security headers."""

    def oversize() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(20):
            yield b"x" * 65_536
        yield b'"}'

    with server.client() as client:
        experiment_id = submit(client)
        answers = [
            client.post(path, content=oversize(), headers={"Content-Type": "application/json"})
            for path in ("/api/v1/experiments", "/api/v1/schedules")
        ] + [
            client.patch(
                "/api/v1/schedules/nothing",
                content=oversize(),
                headers={"Content-Type": "application/json"},
            )
        ]
        # a declared Content-Length over the limit: the limit's own answer, nothing read
        answers.append(client.post("/api/v1/experiments", content=b"{" * 1_048_577))
        listed = client.get("/api/v1/experiments").json()["items"]
    for response in answers:
        assert response.status_code == 413, (response.request.url, response.text)
        assert response.headers["x-content-type-options"] == "nosniff"
        error = response.json()["error"]
        assert error["code"] == "too_large" and "over 1048576 bytes" in error["message"]
    assert [e["id"] for e in listed] == [experiment_id]


def test_the_first_openapi_request_builds_the_schema_off_the_event_loop(
    server: ServerProcess,
) -> None:
    """FastAPI's own ``/openapi.json`` is an ``async`` route: its first request builds the
    schema (about half a second idle, over five seconds on a loaded machine) on the event loop,
    and every other request waits. raysweep's is a plain function, which Starlette runs in its
    thread pool."""
    assert isinstance(server, InProcessServer) and server.uvicorn is not None
    app = server.uvicorn.config.app
    [route] = [r for r in app.router.routes if getattr(r, "path", None) == "/openapi.json"]
    assert isinstance(route, Route) and not inspect.iscoroutinefunction(route.endpoint)
    with server.client() as client:
        schema = client.get("/openapi.json", timeout=60)
    assert schema.status_code == 200 and "ExperimentSpec" in schema.json()["components"]["schemas"]
