"""The service a benchmark runs against: a scratch directory, a 2-CPU Ray head and a raysweep
server (SQLite) on it, all removed afterwards."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from devkit.harness import ServerProcess
from service.db import migrate
from service.engine.cluster import RayConnection
from service.settings import Settings


@contextmanager
def local_raysweep(
    controller_interval_s: float | None = 0.5, cpus: int | None = 2
) -> Iterator[tuple[Path, RayConnection, ServerProcess]]:
    """(scratch directory, Ray head of ``cpus`` CPUs (None: the machine's, and its GPUs),
    started server). The controller polls every 0.5 s by default, so queueing does not count
    in the figures; None keeps the server's default (what a recovery time depends on)."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        with (
            RayConnection(Settings(home=root / "ray", local_ray_cpus=cpus)) as ray,
            server_on(root, ray, "bench", controller_interval_s) as server,
        ):
            yield root, ray, server


@contextmanager
def server_on(
    root: Path,
    ray: RayConnection,
    name: str,
    controller_interval_s: float | None = 0.5,
    extra_env: dict[str, str] | None = None,
) -> Iterator[ServerProcess]:
    """A raysweep server of its own (database ``<name>.db``, home ``<name>-home``) on the
    Ray head, with ``extra_env`` in its settings: another configuration, side by side."""
    db_url = f"sqlite:///{root / f'{name}.db'}"
    migrate.upgrade(db_url)
    env = {"RAYSWEEP_RAY_ADDRESS": str(ray.address), **(extra_env or {})}
    if controller_interval_s is not None:
        env["RAYSWEEP_CONTROLLER_INTERVAL_S"] = str(controller_interval_s)
    server = ServerProcess(root / f"{name}-home", db_url, env).start()
    try:
        yield server
    finally:
        server.stop()


def completed_sweep(client: httpx.Client, spec: dict[str, Any], poll_s: float) -> dict[str, Any]:
    """Submits ``spec``, polls every ``poll_s`` until it ends and returns the experiment; a
    sweep that ended other than completed ends the benchmark, naming how and why."""
    created = client.post("/api/v1/experiments", json=spec)
    created.raise_for_status()
    experiment_id = created.json()["id"]
    while True:
        experiment: dict[str, Any] = client.get(f"/api/v1/experiments/{experiment_id}").json()
        if experiment["state"] in ("completed", "failed", "cancelled"):
            break
        time.sleep(poll_s)
    if experiment["state"] != "completed":
        raise SystemExit(f"{spec['name']} ended {experiment['state']}: {experiment['error']}")
    return experiment
