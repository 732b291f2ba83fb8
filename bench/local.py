"""The service a benchmark runs against: a scratch directory, a 2-CPU Ray head and a raysweep
server (SQLite) on it, all removed afterwards."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from service.db import migrate
from service.engine.cluster import RayConnection
from service.harness import ServerProcess
from service.settings import Settings


@contextmanager
def local_raysweep(
    controller_interval_s: float | None = 0.5,
) -> Iterator[tuple[Path, RayConnection, ServerProcess]]:
    """(scratch directory, Ray head, started server). The controller polls every 0.5 s by
    default, so queueing does not count in the figures; None keeps the server's default (what
    a recovery time depends on)."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        with RayConnection(Settings(home=root / "ray", local_ray_cpus=2)) as ray:
            db_url = f"sqlite:///{root / 'bench.db'}"
            migrate.upgrade(db_url)
            env = {"RAYSWEEP_RAY_ADDRESS": str(ray.address)}
            if controller_interval_s is not None:
                env["RAYSWEEP_CONTROLLER_INTERVAL_S"] = str(controller_interval_s)
            server = ServerProcess(root / "home", db_url, env).start()
            try:
                yield root, ray, server
            finally:
                server.stop()
