"""One dispatcher and one reconciler for everything the controller runs as a Ray Job (sweeps'
drivers and final runs), over the ``JobRecords`` use cases of each kind.

- the dispatcher submits the oldest queued records into each pool's free slots: intent, Ray
  call, outcome, with no transaction held across the call; a job id derives from (record,
  attempt), so a repeated submit cannot start a second job;
- the reconciler asks Ray about each active record's job: one that is gone is resubmitted (a
  sweep's driver restores the Tune state, a final run continues from its latest checkpoint) up
  to ``max_driver_restarts``, or ends the record with the reason; one asked to stop that has not
  within its grace has its job stopped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Mapping
from typing import Generic, TypeVar

from service.engine.launcher import Launcher
from service.usecases.jobs import JobRecords, first_line

log = logging.getLogger("raysweep.jobs")
Id = TypeVar("Id", bound=Hashable)


class JobLoop(Generic[Id]):
    """A controller loop over one kind of job: its records, each cluster's launcher, and how a
    record becomes a Ray Job on a launcher (record id, attempt -> job id)."""

    def __init__(
        self,
        name: str,
        records: JobRecords[Id],
        launchers: Mapping[str, Launcher],
        submit: Callable[[Launcher, Id, int], str],
    ):
        self.name, self.records, self.launchers, self.submit = name, records, launchers, submit


class JobDispatcher(JobLoop[Id]):
    def run_once(self) -> int:
        submitted = 0
        for pool in self.records.pools():
            launcher = self.launchers[pool.cluster]
            for queued in self.records.queued(pool):
                job_id = self.submit(launcher, queued.id, queued.attempt)
                self.records.job_submitted(queued.id, job_id, queued.attempt)
                submitted += 1
        return submitted


class JobReconciler(JobLoop[Id]):
    def run_once(self) -> int:
        acted = 0
        for active in self.records.active():
            launcher = self.launchers.get(active.cluster)
            if launcher is None:
                reason = f"cluster {active.cluster} is no longer configured"
                acted += self.records.job_lost(active.id, active.job_id, reason, False).acted
                continue
            job = launcher.status(active.job_id)
            if not job.alive:
                summary = first_line(job.message)
                reason = f"job {active.job_id} is {job.state}" + (f": {summary}" if summary else "")
                lost = self.records.job_lost(active.id, active.job_id, reason, True)
                if lost.resubmit_attempt is not None:
                    new_job = self.submit(launcher, active.id, lost.resubmit_attempt)
                    self.records.job_resubmitted(active.id, new_job, lost.resubmit_attempt)
                acted += lost.acted
            elif active.stop_overdue:
                log.warning(
                    "%s %s: stopping job %s, asked to stop", self.records.kind, active.id,
                    active.job_id,
                )  # fmt: skip
                launcher.stop(active.job_id)
                acted += 1
        return acted
