"""The test harness's servers: a port another process took before the server bound it is given
up for a new one, and the server is never confused with what answers there (a clean clone's
suite once sent a test's requests to another test's server: "unknown token")."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from devkit.harness import ServerProcess, listens_on
from service.engine.cluster import free_port
from tests.conftest import InProcessServer


@contextmanager
def listener() -> Iterator[int]:
    """A socket listening on a free port, as another test's server would: its port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


@pytest.mark.parametrize("kind", ["process", "in-process"])
def test_a_server_whose_port_was_taken_moves_to_a_free_one_and_answers_itself(
    db_url: str, tmp_path: Path, kind: str
) -> None:
    with listener() as taken:
        factory = ServerProcess if kind == "process" else InProcessServer
        server = factory(tmp_path / "home", db_url, {"RAYSWEEP_CONTROLLER": "false"})
        server.move_to(taken)  # as if free_port had given it the port just taken
        server.start()
        try:
            assert server.port != taken and server.url.endswith(f":{server.port}")
            with server.client() as client:
                assert client.get("/api/v1/me").status_code == 200  # its own admin token
            if isinstance(server, InProcessServer):
                return
            assert server.process is not None and listens_on(server.process.pid, server.port)
            assert not listens_on(server.process.pid, taken)
        finally:
            server.stop()


def test_listens_on_tells_a_listening_process_from_others() -> None:
    with listener() as port:
        assert listens_on(os.getpid(), port)
        assert not listens_on(os.getpid(), free_port())
        assert not listens_on(1, port)
