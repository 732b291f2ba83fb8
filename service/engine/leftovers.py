"""What a driver job leaves in Ray, found with the state API and removed.

A driver killed with SIGKILL does not take its trials with it: its Tune trial actors, their Train
controllers and worker-group reservations stay alive under the dead job's id, hold their
resources and keep writing to the trials' storage. A resubmitted driver removes all of that
before it restores the sweep (``remove_dead_attempts``), and every driver checks its own job once
the sweep has ended (``remove_own_leftovers``).

Removing a placement group kills every actor placed in it (trial actors, Train workers); the
actors those owned die with their owners. Actors placed outside any group are killed by id.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

import ray
from ray.util.placement_group import PlacementGroup, remove_placement_group
from ray.util.state import list_actors, list_jobs, list_placement_groups

from service.engine.gate import gate
from service.engine.ray_compat import ActorID, PlacementGroupID, core_worker
from service.usecases.job_tokens import driver_job_id

log = logging.getLogger(__name__)

# detached actors that serve the whole cluster, whichever job created them (Ray Data's stats
# actor: the first job on the cluster to run a dataset makes it, and it stays for every later one)
CLUSTER_SINGLETONS = frozenset({"ResourceGate", "_AutoscalingCoordinatorActor", "_StatsActor"})
STATE_LIMIT = 10_000
GONE_TIMEOUT_S = 60.0


@dataclass
class Leftovers:
    placement_groups: list[str] = field(default_factory=list)
    actors: list[str] = field(default_factory=list)  # "ClassName actor_id"

    def __bool__(self) -> bool:
        return bool(self.placement_groups or self.actors)

    def describe(self) -> str:
        return "; ".join(
            part
            for part in (
                f"placement groups {', '.join(self.placement_groups)}"
                if self.placement_groups
                else "",
                f"actors {', '.join(self.actors)}" if self.actors else "",
            )
            if part
        )


def find(job_ids: set[str]) -> Leftovers:
    """The live placement groups and (non-detached) actors the jobs created."""
    if not job_ids:
        return Leftovers()
    groups = list_placement_groups(
        filters=[("state", "!=", "REMOVED")], limit=STATE_LIMIT, raise_on_missing_output=False
    )
    actors = list_actors(
        filters=[("state", "!=", "DEAD")],
        limit=STATE_LIMIT,
        detail=True,
        raise_on_missing_output=False,
    )
    return Leftovers(
        [g.placement_group_id for g in groups if g.creator_job_id in job_ids],
        [
            f"{a.class_name} {a.actor_id}"
            for a in actors
            if a.job_id in job_ids and not a.is_detached and a.class_name not in CLUSTER_SINGLETONS
        ],
    )


def remove(job_ids: set[str]) -> Leftovers:
    """Remove what the jobs left; return what was found (empty when nothing was left)."""
    found = find(job_ids)
    if not found:
        return found
    for group_id in found.placement_groups:
        remove_placement_group(PlacementGroup(PlacementGroupID.from_hex(group_id)))
    deadline = time.monotonic() + GONE_TIMEOUT_S
    while (remaining := find(job_ids)) and time.monotonic() < deadline:
        for actor in remaining.actors:
            try:  # outside any group, or its owner is gone too: kill it by id (no public API
                # kills an unnamed actor we hold no handle to; core_worker is set at ray.init)
                core_worker().kill_actor(ActorID.from_hex(actor.split()[-1]), True)
            except Exception:
                log.debug("could not kill %s", actor, exc_info=True)
        time.sleep(1)
    if remaining:
        log.error("still alive in Ray after %ss: %s", GONE_TIMEOUT_S, remaining.describe())
    # the dead trials' worker-group leases expire when their renewals stop; release them now
    dead = [actor.split()[-1] for actor in found.actors]
    ray.get(gate().release_holders.remote(dead), timeout=30)
    return found


def driver_jobs(experiment_id: str) -> dict[str, str]:
    """Ray job id -> submission id of every driver job of the experiment Ray remembers (their
    submission ids are derived from the experiment: ``driver_job_id``)."""
    prefix = driver_job_id(experiment_id, 0).rsplit("-", 1)[0] + "-"
    jobs = list_jobs(limit=STATE_LIMIT, raise_on_missing_output=False)
    return {
        job.job_id: job.submission_id
        for job in jobs
        if job.job_id
        and job.submission_id
        and job.submission_id.startswith(prefix)
        and job.submission_id[len(prefix) :].isdigit()
    }


def remove_dead_attempts(experiment_id: str) -> Leftovers:
    """Remove what the experiment's earlier driver jobs left alive (this driver's job aside)."""
    own = ray.get_runtime_context().get_job_id()
    earlier = set(driver_jobs(experiment_id)) - {own}
    return remove(earlier)


def remove_own_leftovers(grace_s: float = 30.0) -> Leftovers:
    """After ``fit()``: what this job still holds in Ray once a grace for Ray's own asynchronous
    removals and the gate's reaper has passed, removed. A trial stopped while its workers
    started leaves a worker group whose controller died before it registered the group: the
    gate removes it (with a ``reclaimed`` notice) once its creator reads dead, asked here every
    second of the grace rather than left to the reaper's next look (two reaps to call an actor
    dead, ``ledger.MISSES_TO_DEAD``, and a look every ``gate.ABANDONED_CHECK_EVERY``); a loaded
    host stretches each of those seconds."""
    own = {ray.get_runtime_context().get_job_id()}
    deadline = time.monotonic() + grace_s
    while find(own) and time.monotonic() < deadline:
        try:
            ray.get(gate().remove_abandoned.remote(), timeout=10)
        except Exception:  # the reaper does it too: only the wait is longer
            log.debug("could not ask the gate for abandoned groups", exc_info=True)
        time.sleep(1)
    return remove(own)
