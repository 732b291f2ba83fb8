"""What the gate reads from and does to Ray's reservations: the live actors (to tell a dead run
from a live one), what holds resources outside the gate's leases, and the removal of a dead
run's worker-group placement group.

Every state API call names the cluster's address: with no address Ray looks the cluster up on
the host and, on a host running more than one Ray instance, fails with "Found multiple active
Ray instances" (what ends Ray Train's own ``PlacementGroupCleaner`` there, ray-project/ray#61689).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import ray
from ray._raylet import PlacementGroupID
from ray.util.placement_group import PlacementGroup, remove_placement_group
from ray.util.state import list_actors, list_jobs, list_placement_groups

from service.resources import describe

log = logging.getLogger(__name__)

STATE_LIMIT = 10_000
# a sweep's driver job: raysweep-<experiment id>-<attempt> (launcher.driver_job_id); final runs'
# are raysweep-final-<id>-<attempt>
SWEEP_JOB = re.compile(r"^raysweep-(?!final-)([0-9a-f]+)-\d+$")
SHOWN_HOLDERS = 5
HELD = ("CPU", "GPU")


def alive_actors(address: str) -> dict[str, str] | None:
    """Every actor of the cluster that is not dead, with its job's id; None when the listing
    reached its limit (an actor left out of it is not known to be dead)."""
    actors = list_actors(
        address=address,
        filters=[("state", "!=", "DEAD")],
        limit=STATE_LIMIT,
        raise_on_missing_output=False,
    )
    if len(actors) >= STATE_LIMIT:
        log.warning("over %d live actors: dead runs are not reaped until fewer", STATE_LIMIT)
        return None
    return {actor.actor_id: actor.job_id for actor in actors}


@dataclass(frozen=True)
class Unregistered:
    """A live placement group of a sweep's driver job that no lease registered: a worker group
    still starting (its run registers it once its workers are up), or one whose run died while
    it started."""

    group: str
    job: str
    owner: str  # the experiment whose driver job created it
    held: str
    # each bundle's CPUs and GPUs: a Train worker group's are its worker bundle (a Tune
    # trial's own placement group holds the trial function's share)
    shape: frozenset[tuple[tuple[str, float], ...]]


def unregistered_groups(address: str, registered: set[str]) -> tuple[set[str], list[Unregistered]]:
    """The ids of the cluster's live placement groups, and those of raysweep's sweep driver
    jobs (``driver_job_id``) that no lease registered."""
    owners = {
        job.job_id: match.group(1)
        for job in list_jobs(address=address, limit=STATE_LIMIT)
        if job.job_id and (match := SWEEP_JOB.match(job.submission_id or ""))
    }
    groups = live_groups(address)
    return {g.placement_group_id for g in groups}, [
        Unregistered(
            g.placement_group_id,
            g.creator_job_id,
            owners[g.creator_job_id],
            held,
            frozenset(bundle_shape(b) for b in g.bundles or []),
        )
        for g in groups
        if g.creator_job_id in owners
        and g.placement_group_id not in registered
        and (held := bundle_total(g.bundles or []))
    ]


def bundle_shape(bundle: Mapping[str, object]) -> tuple[tuple[str, float], ...]:
    """A bundle's CPUs and GPUs, comparable with a lease's worker bundle."""
    resources = bundle.get("unit_resources", bundle)
    if not isinstance(resources, Mapping):
        return ()
    return tuple(
        sorted(
            (key, round(float(value), 6))
            for key, value in resources.items()
            if key in HELD and isinstance(value, int | float) and value > 0
        )
    )


def live_groups(address: str) -> list[Any]:
    """The cluster's placement groups that are not removed, with their bundles."""
    return list_placement_groups(
        address=address,
        filters=[("state", "!=", "REMOVED")],
        detail=True,
        limit=STATE_LIMIT,
        raise_on_missing_output=False,
    )


def remove_by_id(group: str) -> None:
    remove_placement_group(PlacementGroup(PlacementGroupID.from_hex(group)))


def remove_if_present(group: PlacementGroup) -> str:
    """Remove the placement group unless it is gone already; what it held (empty when gone)."""
    table = ray.util.placement_group_table(group)
    if table.get("state", "REMOVED") == "REMOVED":
        return ""
    remove_placement_group(group)
    held: dict[str, float] = {}
    for bundle in (table.get("bundles") or {}).values():
        for key, value in bundle.items():
            held[key] = held.get(key, 0.0) + float(value)
    return describe(held)


def outside_holders(address: str, leased_groups: set[str]) -> str:
    """What holds CPUs or GPUs that no lease of the gate accounts for: placement groups not
    registered with a lease, and actors outside any group, each with its job and whether that
    job is alive. Empty when nothing is found."""
    jobs = {job.job_id: job.status for job in list_jobs(address=address, limit=STATE_LIMIT)}
    groups = live_groups(address)
    found = []
    for group in groups:
        if group.placement_group_id in leased_groups:
            continue
        held = bundle_total(group.bundles or [])
        if held:
            found.append(
                f"placement group {group.placement_group_id} {held} {str(group.state).lower()}, "
                f"of job {job_status(jobs, group.creator_job_id)}"
            )
    actors = list_actors(
        address=address,
        filters=[("state", "=", "ALIVE")],
        detail=True,
        limit=STATE_LIMIT,
        raise_on_missing_output=False,
    )
    for actor in actors:
        held = describe({k: v for k, v in (actor.required_resources or {}).items() if k in HELD})
        if not actor.placement_group_id and held != "{}":
            job = job_status(jobs, actor.job_id)
            found.append(f"actor {actor.class_name} {held}, of job {job}")
    more = f" and {len(found) - SHOWN_HOLDERS} more" if len(found) > SHOWN_HOLDERS else ""
    return "; ".join(found[:SHOWN_HOLDERS]) + more


def bundle_total(bundles: list[dict[str, object]]) -> str:
    held: dict[str, float] = {}
    for bundle in bundles:
        resources = bundle.get("unit_resources", bundle)
        if isinstance(resources, dict):
            for key, value in resources.items():
                if key in HELD and isinstance(value, int | float):
                    held[key] = held.get(key, 0.0) + float(value)
    return describe(held) if held else ""


def job_status(jobs: dict[str | None, object], job_id: str | None) -> str:
    status = jobs.get(job_id)
    return f"{job_id} ({str(status).rsplit('.', 1)[-1].lower() if status else 'gone'})"
