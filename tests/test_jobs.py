"""The controller's one dispatcher and one reconciler, for sweeps and final runs alike, on a real
database through the real use cases; Ray's Jobs API is a scripted launcher (what Ray answers is
the input here: the Ray paths themselves run in tests/engine)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from raysweep.spec import PromotionOverrides
from service.controller.jobs import JobDispatcher, JobReconciler
from service.db.models import EventRow, ExperimentRow, FinalRunRow
from service.engine.launcher import JobInfo, Launcher
from service.settings import ClusterConfig, Settings
from service.usecases.access import operator
from service.usecases.experiments import cancel_experiment, submit_experiment
from service.usecases.jobs import FinalRunJobs, SweepJobs
from service.usecases.promotion import promote_experiment
from tests.conftest import minimal_spec
from tests.factories import SPACES, completed_sweep


@dataclass
class ScriptedLauncher:
    """Ray's Jobs API as the controller sees it: submitted ids, and the state each job is in."""

    states: dict[str, str] = field(default_factory=dict)
    stopped: list[str] = field(default_factory=list)

    def submit(self, experiment_id: str, attempt: int) -> str:
        return self._started(f"raysweep-{experiment_id}-{attempt}")

    def submit_final_run(self, final_run_id: int, attempt: int) -> str:
        return self._started(f"final-{final_run_id}-{attempt}")

    def _started(self, job_id: str) -> str:
        self.states[job_id] = "RUNNING"
        return job_id

    def status(self, job_id: str) -> JobInfo:
        return JobInfo(self.states.get(job_id, "MISSING"), "Traceback...\nkilled")

    def stop(self, job_id: str) -> None:
        self.stopped.append(job_id)

    def capacity(self) -> list[dict[str, float]]:
        return []


def runs_of(db: sessionmaker[Session]) -> list[int]:
    with db.begin() as session:
        return list(session.scalars(select(FinalRunRow.id)))


def submit_driver(launcher: Launcher, experiment_id: str, attempt: int) -> str:
    return launcher.submit(experiment_id, attempt)


def submit_final_run(launcher: Launcher, final_run_id: int, attempt: int) -> str:
    return launcher.submit_final_run(final_run_id, attempt)


def test_a_lost_driver_is_resubmitted_up_to_the_limit_and_a_cancel_ends_with_its_job(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    settings = Settings(home=tmp_path, max_driver_restarts=1, cancel_grace_s=0.001)
    ray = ScriptedLauncher()
    sweeps = SweepJobs(db, settings)
    dispatcher = JobDispatcher("dispatcher", sweeps, {"local": ray}, submit_driver)
    reconciler = JobReconciler("reconciler", sweeps, {"local": ray}, submit_driver)
    lost = submit_experiment(db, minimal_spec(name="lost"), SPACES, operator("t")).id
    cancelled = submit_experiment(db, minimal_spec(name="cancelled"), SPACES, operator("t")).id
    assert dispatcher.run_once() == 2 and dispatcher.run_once() == 0  # 2 = the sweep limit
    ray.states[f"raysweep-{lost}-0"] = "FAILED"
    assert reconciler.run_once() == 1  # resubmitted as attempt 1
    ray.states[f"raysweep-{lost}-1"] = "FAILED"
    cancel_experiment(db, cancelled)
    time.sleep(0.01)  # past its (tiny) grace: the driver did not stop by itself
    assert reconciler.run_once() == 2  # the lost one fails; the cancelled one's job is stopped
    assert ray.stopped == [f"raysweep-{cancelled}-0"]
    ray.states[f"raysweep-{cancelled}-0"] = "STOPPED"
    assert reconciler.run_once() == 1 and reconciler.run_once() == 0
    with db.begin() as session:
        rows = {r.id: r for r in session.scalars(select(ExperimentRow))}
    assert (rows[lost].state, rows[lost].driver_restarts) == ("failed", 1)
    assert "driver job raysweep-" in (rows[lost].error or "")
    assert "RAYSWEEP_MAX_DRIVER_RESTARTS=1" in (rows[lost].error or "")
    assert rows[cancelled].state == "cancelled"


def test_a_final_run_on_a_cluster_no_longer_configured_fails_naming_it(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    clusters = [ClusterConfig(name="local", role="both"), ClusterConfig(name="big", role="final")]
    settings = Settings(home=tmp_path, clusters=clusters)
    ray, big = ScriptedLauncher(), ScriptedLauncher()
    runs = FinalRunJobs(db, settings)
    sweep = completed_sweep(db, [({"lr": 0.1}, 0.5), ({"lr": 0.2}, 0.4)])
    promote_experiment(db, sweep, PromotionOverrides(top_k=2, cluster="big"), "t", ["big"])
    launchers: dict[str, Launcher] = {"local": ray, "big": big}
    dispatcher = JobDispatcher("final-run-dispatcher", runs, launchers, submit_final_run)
    assert dispatcher.run_once() == 1  # one at a time: max_concurrent_jobs 1
    assert list(big.states) == [f"final-{min(runs_of(db))}-0"] and ray.states == {}
    with db.begin() as session:  # "big" is dropped from the settings while the run goes on
        session.execute(update(FinalRunRow).values(cluster="gone"))
    reconciler = JobReconciler("final-run-reconciler", runs, {"local": ray}, submit_final_run)
    assert reconciler.run_once() == 1
    with db.begin() as session:
        states = sorted(session.scalars(select(FinalRunRow.state)))
        failed = session.scalars(
            select(EventRow.message).where(EventRow.kind == "final_run_failed")
        ).one()
    assert states == ["failed", "queued"]
    assert "cluster gone is no longer configured; not resubmitted" in failed
