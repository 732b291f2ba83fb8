"""The gate's own removal of dead runs' reservations, on the real session cluster (which runs
beside another Ray instance: tests/conftest.py), without Ray Train's cleaner: an actor takes a
lease, creates and registers a placement group as a Train controller does, and dies.

A placement group whose creator actor dies stays while the creator's job lives (Ray removes it
only when both are gone), which is how a trial stopped by the scheduler left its worker group
reserved while its sweep went on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import ray
from ray._raylet import PlacementGroupID
from ray.util.placement_group import PlacementGroup, placement_group, placement_group_table

from devkit.harness import wait_for
from service.engine.cluster import RayConnection
from service.engine.gate import gate, lease_key
from service.engine.ledger import Notice
from service.resources import HeldSegment, ResourceRequest
from tests.conftest import RAY_TESTS

pytestmark = RAY_TESTS


@pytest.fixture(scope="module")
def ray_driver(ray_cluster: RayConnection) -> Iterator[None]:
    ray.init(address=ray_cluster.gcs_address)
    yield
    ray.shutdown()


@ray.remote(num_cpus=0.01)
class Run:
    """A stand-in for a Tune trial (the lease's holder) whose Train controller is ``controller``
    (itself unless another actor's id is given)."""

    def hold(self, owner: str, controller: str | None) -> tuple[str, PlacementGroup]:
        request = ResourceRequest(owner, "t1", {"CPU": 0.5}, 1, {"CPU": 0.01})
        key = lease_key(request)
        decision = ray.get(gate().request.remote(key, request, 0))
        if decision.state != "granted":
            raise RuntimeError(decision.message)
        group = placement_group([{"CPU": 0.5}])
        ray.get(group.ready(), timeout=60)
        me = ray.get_runtime_context().get_actor_id()
        ray.get(gate().register_group.remote(key, group, controller or me))
        return key, group


@ray.remote(num_cpus=0)
class Controller:
    def id(self) -> str:
        return str(ray.get_runtime_context().get_actor_id())


def state_of(group: PlacementGroup) -> str:
    return str(placement_group_table(group).get("state", "REMOVED"))


def reclaimed(owner: str, seen: list[Notice]) -> list[Notice] | None:
    seen += ray.get(gate().take_notices.remote(owner, [n.id for n in seen]))
    return [n for n in seen if n.kind == "reclaimed"] or None


def test_a_dead_trials_lease_ends_and_its_group_is_removed_within_seconds(
    ray_driver: None,
) -> None:
    run = Run.remote()  # type: ignore[attr-defined]
    key, group = ray.get(run.hold.remote("reap-trial", None))
    assert state_of(group) == "CREATED"
    ray.kill(run)
    seen: list[Notice] = []
    (notice,) = wait_for(lambda: reclaimed("reap-trial", seen), 15, "the gate to reclaim")
    assert state_of(group) == "REMOVED"
    assert group.id.hex() in notice.message and "{CPU: 0.5}" in notice.message
    assert "trial's process is gone" in notice.message and notice.label == "t1"
    # the lease ended with its holder, not 30 s later when its renewals would have run out
    segments: list[HeldSegment] = ray.get(gate().usage.remote("reap-trial"))
    assert [s.holding for s in segments] == [False]
    assert ray.get(gate().waiting.remote("reap-trial")) == {}
    assert key.endswith(run._actor_id.hex())


def test_a_dead_controllers_group_goes_while_its_trial_keeps_its_lease(ray_driver: None) -> None:
    controller: Any = Controller.remote()  # type: ignore[attr-defined]
    run = Run.remote()  # type: ignore[attr-defined]
    _, group = ray.get(run.hold.remote("reap-controller", ray.get(controller.id.remote())))
    ray.kill(controller)
    seen: list[Notice] = []
    (notice,) = wait_for(lambda: reclaimed("reap-controller", seen), 15, "the gate to reclaim")
    assert state_of(group) == "REMOVED" and "Train controller is gone" in notice.message
    segments: list[HeldSegment] = ray.get(gate().usage.remote("reap-controller"))
    assert [s.holding for s in segments] == [True]  # the trial lives: its lease stands
    ray.kill(run)
    wait_for(
        lambda: [s for s in ray.get(gate().usage.remote("reap-controller")) if not s.holding],
        15,
        "the lease to end with its holder",
    )


ORPHAN_JOB = """
import time
import ray
from ray.util.placement_group import placement_group
from service.engine.gate import gate, lease_key
from service.resources import ResourceRequest

ray.init()


@ray.remote(num_cpus=0.01)
class Starting:
    # a Tune trial whose Train run created its worker group and died before registering it
    def hold(self):
        request = ResourceRequest("{owner}", "t1", {{"CPU": 0.5}}, 1, {{"CPU": 0.01}})
        key = lease_key(request)
        assert ray.get(gate().request.remote(key, request, 0)).state == "granted"
        group = placement_group([{{"CPU": 0.5}}])
        ray.get(group.ready(), timeout=60)
        return group.id.hex()


run = Starting.remote()
print("GROUP", ray.get(run.hold.remote()), flush=True)
ray.kill(run)
time.sleep(120)
"""


def test_a_worker_group_whose_run_died_before_registering_it_is_removed_as_an_orphan(
    ray_cluster: RayConnection, ray_driver: None
) -> None:
    owner = "0a1b2c3d4e5f"
    job = ray_cluster.jobs.submit_job(
        entrypoint=f"python -c '{ORPHAN_JOB.format(owner=owner)}'",
        submission_id=f"raysweep-{owner}-0",  # a sweep's driver job, as the launcher names it
        runtime_env={"env_vars": {"RAY_AUTH_MODE": "token"}},
    )
    try:
        printed = wait_for(
            lambda: re.search(r"GROUP ([0-9a-f]{36})", ray_cluster.jobs.get_job_logs(job)),
            120,
            "the job's worker group",
        )
        group_id = printed.group(1)
        seen: list[Notice] = []
        (notice,) = wait_for(lambda: reclaimed(owner, seen), 30, "the gate to remove the orphan")
        assert notice.label == "" and group_id in notice.message
        assert "died while its workers started" in notice.message
        group = PlacementGroup(PlacementGroupID.from_hex(group_id))
        assert state_of(group) == "REMOVED"
    finally:
        ray_cluster.jobs.stop_job(job)
