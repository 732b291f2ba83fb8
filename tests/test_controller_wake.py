"""A request that changed something wakes the controller at once: its runner passes again
without waiting out RAYSWEEP_CONTROLLER_INTERVAL_S; reads and refused requests do not wake it."""

from __future__ import annotations

import threading

from service.controller.runner import Runner
from tests.conftest import ServerProcess, minimal_spec


class CountingService:
    name = "counting"

    def __init__(self) -> None:
        self.passes = 0
        self.passed = threading.Event()

    def run_once(self) -> int:
        self.passes += 1
        self.passed.set()
        return 0


def test_the_runner_passes_again_at_once_when_work_arrives() -> None:
    service, work_arrived = CountingService(), threading.Event()
    runner = Runner([service], interval_s=600, work_arrived=work_arrived)
    runner.start()
    try:
        assert service.passed.wait(10)  # the first pass
        service.passed.clear()
        assert not service.passed.wait(0.5)  # then it waits for its (long) interval
        work_arrived.set()
        assert service.passed.wait(10), "set work_arrived did not wake the runner"
        assert service.passes == 2
    finally:
        runner.stop()


def test_changes_set_work_arrived_and_reads_and_refusals_do_not(server: ServerProcess) -> None:
    from tests.conftest import InProcessServer

    assert isinstance(server, InProcessServer) and server.uvicorn is not None
    work_arrived: threading.Event = server.uvicorn.config.app.state.raysweep.work_arrived
    with server.client() as client:
        work_arrived.clear()
        assert client.get("/api/v1/experiments").status_code == 200
        refused = client.post("/api/v1/experiments", json={"name": "no fields"})
        assert refused.status_code == 422
        assert not work_arrived.is_set()
        created = client.post("/api/v1/experiments", json=minimal_spec())
        assert created.status_code == 201, created.text
        assert work_arrived.is_set()
