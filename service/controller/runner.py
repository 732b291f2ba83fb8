"""One thread looping the reconcilers; survives their errors, stops cleanly."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Protocol

from sqlalchemy.orm import Session, sessionmaker

from service.clock import Clock, SystemClock
from service.controller.capacity import CapacityObserver
from service.controller.deployer import Deployer
from service.controller.jobs import JobDispatcher, JobReconciler
from service.controller.promoter import Promoter
from service.controller.schedules import ScheduleFirer
from service.controller.webhooks import DeliveryPruner, WebhookSender
from service.engine.cluster import RayConnection
from service.engine.launcher import Launcher, RayJobsLauncher
from service.metrics import Metrics
from service.settings import Settings
from service.usecases.job_tokens import job_token_key
from service.usecases.jobs import FinalRunJobs, SweepJobs

log = logging.getLogger("raysweep.controller")


class LoopService(Protocol):
    name: str

    def run_once(self) -> int: ...


# the shortest time between two passes, however often requests wake the runner
MIN_GAP_S = 0.2


class Runner:
    def __init__(
        self,
        services: Sequence[LoopService],
        interval_s: float,
        metrics: Metrics | None = None,
        work_arrived: threading.Event | None = None,
    ):
        """A pass every ``interval_s``, and at once when ``work_arrived`` is set (by the API,
        after a request that changed something)."""
        self.services, self.interval_s, self.metrics = services, interval_s, metrics
        self.work_arrived = work_arrived or threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="raysweep-controller", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.work_arrived.set()
        self._thread.join(timeout=30)

    def run_once(self) -> None:
        for service in self.services:
            started, failed = time.monotonic(), False
            try:
                acted = service.run_once()
                if acted:
                    log.info("%s acted on %d item(s)", service.name, acted)
            except Exception:  # one bad pass must not kill the loop
                failed = True
                log.exception("%s failed; will retry", service.name)
            if self.metrics is not None:
                self.metrics.controller_pass(service.name, time.monotonic() - started, failed)

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.run_once()
            # set while that pass ran: the next pass starts at once, but no sooner than
            # MIN_GAP_S after this one (a script's stream of requests must not spin the loop)
            self._stop.wait(min(MIN_GAP_S, self.interval_s))
            self.work_arrived.wait(max(0.0, self.interval_s - MIN_GAP_S))
            self.work_arrived.clear()


@contextmanager
def build_controller(
    settings: Settings,
    db: sessionmaker[Session],
    ray: RayConnection,
    metrics: Metrics | None = None,
    work_arrived: threading.Event | None = None,
    clock: Clock | None = None,
) -> Iterator[Runner]:
    connections = {
        record.name: ray
        if record.address is None
        else RayConnection(
            settings,
            record.address,
            record.token.get_secret_value() if record.token is not None else None,
        )
        for record in settings.cluster_records
    }
    key = job_token_key(db)
    launchers: dict[str, Launcher] = {
        record.name: RayJobsLauncher(settings, connections[record.name], key, record.autoscaling)
        for record in settings.cluster_records
    }
    sweeps, final_runs = SweepJobs(db, settings), FinalRunJobs(db, settings)

    def submit_driver(launcher: Launcher, experiment_id: str, attempt: int) -> str:
        return launcher.submit(experiment_id, attempt)

    def submit_final_run(launcher: Launcher, final_run_id: int, attempt: int) -> str:
        return launcher.submit_final_run(final_run_id, attempt)

    runner = Runner(
        [
            CapacityObserver(db, launchers, settings),
            JobReconciler("reconciler", sweeps, launchers, submit_driver),
            JobDispatcher("dispatcher", sweeps, launchers, submit_driver),
            Promoter(db, settings),
            JobReconciler("final-run-reconciler", final_runs, launchers, submit_final_run),
            JobDispatcher("final-run-dispatcher", final_runs, launchers, submit_final_run),
            Deployer(db, connections, settings),
            ScheduleFirer(db, settings, clock or SystemClock()),
        ],
        settings.controller_interval_s,
        metrics,
        work_arrived,
    )
    # webhooks on a runner of their own: a receiver that never answers delays no controller pass
    # (the delivery log's pruning goes there too, between the sender's passes)
    sender = WebhookSender(db, settings)
    webhooks = Runner([sender, DeliveryPruner(db, settings)], settings.webhook_interval_s, metrics)
    runner.start()
    webhooks.start()
    try:
        yield runner
    finally:
        webhooks.stop()
        sender.close()
        runner.stop()
