"""What the gate reads from and does to Ray's reservations: whether actors live (to tell a dead
run from a live one), the placement groups whose creator died, what holds resources outside the
gate's leases, and the removal of a dead run's worker-group placement group.

The reaper's reads, every second, go to the GCS directly, by id; only the rare look for what
holds resources outside the leases uses the state API (the dashboard). Every state API call
names the cluster's address: with no address Ray looks the cluster up on the host and, on a
host running more than one Ray instance, fails with "Found multiple active Ray instances" (what
ends Ray Train's own ``PlacementGroupCleaner`` there, ray-project/ray#61689).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import ray
from ray.core.generated import gcs_pb2
from ray.util.placement_group import PlacementGroup, remove_placement_group
from ray.util.state import list_actors, list_jobs, list_placement_groups

from service.engine.ray_compat import PlacementGroupID, gcs_placement_group_table, ray_state
from service.resources import describe

log = logging.getLogger(__name__)

# the GCS's placement-group record (generated protobuf code, without type stubs)
GroupRecord: Any = gcs_pb2.PlacementGroupTableData  # type: ignore[attr-defined]

STATE_LIMIT = 10_000
SHOWN_HOLDERS = 5
HELD = ("CPU", "GPU")


def job_of(ray_id: str) -> str:
    """The job an actor or placement group belongs to: Ray ends both ids with their job's."""
    return ray_id[-8:]


def live_actors(actor_ids: Iterable[str]) -> set[str]:
    """Of these actors, those not dead, each asked of the GCS by its id (the state API's
    listings go through the dashboard, which a loaded host answers slowly, and which Ray
    Train's own cleaners poll too)."""
    return {
        actor_id
        for actor_id in actor_ids
        if (ray_state.actors(actor_id=actor_id) or {}).get("State", "DEAD") != "DEAD"
    }


@dataclass(frozen=True)
class Abandoned:
    """A live placement group whose creator (an actor: a Train controller) is dead. Ray keeps
    it while the creator's job lives, so a Train run stopped before its controller removed its
    worker group (a trial stopped while its workers started, before it registered the group)
    holds it until the sweep's end."""

    group: str
    job: str
    held: str


def abandoned_groups(jobs: Iterable[str]) -> list[Abandoned]:
    """The live placement groups of these jobs whose creator actor died, from the GCS's table
    (``placement_group_table`` leaves the creator out). The table's ``creator_actor_dead`` is
    not relied on alone: a clean clone once saw such a group (a trial stopped by a spent budget
    while its workers started) outlive the driver's grace at the sweep's end, cause unproven,
    so where the flag is unset the creator's own state is asked of the GCS too."""
    wanted = set(jobs)
    if not wanted:
        return []
    found = []
    for raw in gcs_placement_group_table():
        row = GroupRecord.FromString(raw)
        group = row.placement_group_id.hex()
        creator = ray.ActorID(row.creator_actor_id)
        if (
            row.state != GroupRecord.REMOVED
            # one a driver created (Tune's trial groups) has no creator actor, and reads dead
            and not creator.is_nil()
            and job_of(group) in wanted
            and (held := bundle_total([dict(b.unit_resources) for b in row.bundles]))
            and (row.creator_actor_dead or not live_actors([creator.hex()]))
        ):
            found.append(Abandoned(group, job_of(group), held))
    return found


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
