"""Admission of Train worker groups: no Train run asks Ray for workers the cluster cannot place.

Tune schedules a trial against its function's own share (0.01 CPU) only; the Train run inside
asks for its worker group afterwards. Left alone, Tune starts more trials than their groups fit,
and each extra Train controller waits for its group, times out and retries without end. Every
Train run raysweep starts (sweep trials and final runs, of every sweep on the cluster) therefore
first takes a lease for its worker group from one detached actor per cluster, the gate, which
grants leases while they fit the cluster's total resources less the other leases, and what Ray
has free (read from Ray, so nodes that join or leave, and work raysweep did not admit, count).
Ray's placement of the granted group then succeeds at once.

Where several projects wait, the next grant goes to the waiting run of the project holding the
smallest share of the cluster for its weight (its dominant share: the larger of its CPUs' and
GPUs' fraction of the cluster's, over its weight); within a project to the higher priority,
then the earlier arrival. A project's quota (most workers, CPUs, GPUs at once) holds its runs
back without holding back anyone else's. The gate learns projects' weights and quotas from the
drivers, which read them from the database (``set_project``).

Preemption: when the most deserving waiting run does not fit, and a project that would still hold
at least as large a share without it holds a lease that can yield (a promotion-ASHA segment, which
checkpoints every few epochs and resumes from its checkpoint), that lease is asked to yield: the
most over-share project's lowest rung first, as few leases as free enough. The run's workers ask
at every checkpoint (``yield_now``); once one says yes, its Train run ends there, its lease goes
and its trial asks again, keeping its place in its project's queue (its first arrival). A hint no
run took yet is taken back when the waiting run is served otherwise.

A lease is renewed by its holder while the run lasts and expires when renewals stop (the holder
died), so a killed trial never keeps its share. Every lease is also the compute ledger's unit:
from its grant to its end it is a ``HeldSegment``, which the owner's driver reads
(``usage``) and stores; ended segments are kept here a while for it.

A request the cluster cannot hold at all (more than its total, or a bundle no node can take)
waits up to the caller's ``wait_s`` (autoscaling clusters may grow) and is then refused with
what was asked and what the cluster has.

The bookkeeping behind all this is ``service/engine/ledger.py``'s ``Ledger``, free of Ray; this
module holds the actor around it and the calls runs make to it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import ray
from ray.util.placement_group import PlacementGroup

from service.engine import reservations
from service.engine.ledger import Decision, Ledger, Notice, holder_of
from service.engine.ray_compat import HEAD_NODE_RESOURCE
from service.resources import Capacity, HeldSegment, ProjectShare, ResourceRequest

log = logging.getLogger(__name__)

# v2: leases carry a project and priority, and the gate keeps the ledger (v1 gates knew neither);
# v3: it also holds each lease's worker-group reservations and reclaims those of dead owners;
# v4: notices carry ids and stay until the driver names them stored (take_notices' 2nd argument),
# and the gate lives on the head node (a v3 gate left on a cluster that outlived an upgrade
# would refuse every driver's notice poll)
GATE_NAME = "raysweep_resource_gate_v4"
GATE_NAMESPACE = "raysweep"
RENEW_INTERVAL_S = 5.0
POLL_INTERVAL_S = 1.0
CAPACITY_CACHE_S = 2.0
REAP_INTERVAL_S = 1.0
# the reaper looks at Ray while leases are held and this long after the last one ended (a run
# killed while its workers started leaves a group no lease names any more)
IDLE_AFTER_S = 120.0
ABANDONED_CHECK_EVERY = 2  # reaps: groups whose creator died are looked for less often


def cluster_capacity() -> Capacity:
    return Capacity(
        tuple(
            {k: float(v) for k, v in node["Resources"].items()}
            for node in ray.nodes()
            if node.get("Alive")
        )
    )


class ResourceGate:
    """The detached actor around a ``Ledger``; one per Ray cluster. A thread of its own reaps
    every ``REAP_INTERVAL_S``: it ends the leases of dead holders and removes the reservations
    of dead runs (``Ledger.reap``), reading only the GCS. Another finds what holds resources
    outside the leases while runs wait (``reservations.outside_holders``): that look goes
    through the dashboard's state API, which a loaded host answers in seconds, and a reaper
    waiting on it let a stopped trial's worker group outlive its sweep's end."""

    def __init__(self) -> None:
        self.ledger = Ledger()
        self._capacity: Capacity | None = None
        self._read_at = 0.0
        self._lock = threading.Lock()  # the actor's calls and its reaper share the ledger
        self._groups: dict[str, PlacementGroup] = {}
        self._address = ray.get_runtime_context().gcs_address
        self._ticks = 0
        self._busy_at = 0.0  # monotonic: when a lease or request was last held
        # Ray job id -> the owner whose runs it holds leases for (learned from the holders'
        # ids): whose placement groups the reaper may remove when their creator died
        self._owner_of_job: dict[str, str] = {}
        threading.Thread(target=self._reap_forever, name="raysweep-reaper", daemon=True).start()
        threading.Thread(
            target=self._explain_forever, name="raysweep-outside-holders", daemon=True
        ).start()

    def capacity(self) -> Capacity:
        """The nodes (read every few seconds) and what Ray has free (read at every decision: a
        group that just ended frees its share for the next run at once)."""
        now = time.monotonic()
        if self._capacity is None or now - self._read_at > CAPACITY_CACHE_S:
            self._capacity, self._read_at = cluster_capacity(), now
        available = {k: float(v) for k, v in ray.available_resources().items()}
        return replace(self._capacity, available=available)

    def request(self, key: str, request: ResourceRequest, wait_s: float) -> Decision:
        capacity = self.capacity()
        with self._lock:
            self._learn_owner(key, request)
            decision = self.ledger.request(key, request, capacity, wait_s)
        self._remove_ended()
        return decision

    def renew(self, key: str, request: ResourceRequest) -> None:
        with self._lock:
            self._learn_owner(key, request)
            self.ledger.renew(key, request)

    def _learn_owner(self, key: str, request: ResourceRequest) -> None:
        """The holder's job holds the owner's runs (a restarted gate learns it again from the
        renewals)."""
        if (holder := holder_of(key)) != "driver":
            self._owner_of_job[reservations.job_of(holder)] = request.owner

    def release(self, key: str) -> None:
        with self._lock:
            self.ledger.release(key)
        self._remove_ended()

    def handover(self, old: str, new: str, request: ResourceRequest) -> bool:
        with self._lock:
            self._learn_owner(new, request)
            return self.ledger.handover(old, new, request)

    def contended(self, key: str) -> bool:
        with self._lock:
            return self.ledger.contended(key)

    def release_holders(self, actor_ids: list[str]) -> int:
        with self._lock:
            released = self.ledger.release_holders(actor_ids)
        self._remove_ended()
        return released

    def register_group(self, key: str, group: PlacementGroup, controller: str) -> None:
        with self._lock:
            self._groups[group.id.hex()] = group
            self.ledger.register_group(key, group.id.hex(), controller)
        self._remove_ended()

    def notify(self, owner: str, label: str, kind: str, message: str, once: str = "") -> None:
        with self._lock:
            self.ledger.notify(owner, label, kind, message, once)

    def take_notices(self, owner: str, stored: Collection[str] = ()) -> list[Notice]:
        with self._lock:
            return self.ledger.take_notices(owner, stored)

    def yield_now(self, key: str) -> str | None:
        with self._lock:
            return self.ledger.yield_now(key)

    def waiting(self, owner: str) -> dict[str, str]:
        with self._lock:
            return self.ledger.waiting(owner)

    def usage(self, owner: str) -> list[HeldSegment]:
        with self._lock:
            return self.ledger.usage(owner)

    def end_owner(self, owner: str) -> None:
        with self._lock:
            self.ledger.end_owner(owner)
        self._remove_ended()

    def set_project(self, name: str, share: ProjectShare) -> None:
        with self._lock:
            self.ledger.set_project(name, share)

    def _reap_forever(self) -> None:
        while True:
            time.sleep(REAP_INTERVAL_S)
            try:
                self.reap()
            except Exception:  # the state API away for a moment: the next reap
                log.warning("could not reap dead runs' leases and reservations", exc_info=True)

    def reap(self) -> None:
        now = time.monotonic()
        with self._lock:
            if self.ledger.entries or self.ledger.unleased:
                self._busy_at = now
            watched = self.ledger.watched()
        if now - self._busy_at > IDLE_AFTER_S:  # idle a while: nothing to look at in Ray
            return
        alive = reservations.live_actors(watched)
        with self._lock:
            self.ledger.reap(alive)
        self._remove_ended()
        self._ticks += 1
        if self._ticks % ABANDONED_CHECK_EVERY == 0:
            self.remove_abandoned()

    def _explain_forever(self) -> None:
        while True:
            time.sleep(REAP_INTERVAL_S)
            try:
                self.explain_waits()
            except Exception:  # the dashboard away for a moment: the next look
                log.warning(
                    "could not look for what holds resources outside the leases", exc_info=True
                )

    def explain_waits(self) -> None:
        """While a run waits for what Ray has less of than the leases leave, name what holds it
        (the ledger adds it to the waiting runs' messages)."""
        capacity = self.capacity()
        with self._lock:
            unexplained = self.ledger.unexplained_waits(capacity)
            leased = set(self._groups)
        outside = reservations.outside_holders(self._address, leased) if unexplained else ""
        with self._lock:
            self.ledger.outside = outside

    def remove_abandoned(self) -> None:
        """A Train run whose trial was stopped while its workers started (a cancel, a spent
        budget) leaves a worker group no lease registered, and Ray keeps it while the sweep's
        job lives: the live groups of the owners' jobs whose creator (the Train controller) is
        dead are removed. A registered one is left to its lease's reap, which names its run."""
        with self._lock:
            owners = dict(self._owner_of_job)
            registered = set(self._groups)
        for group in reservations.abandoned_groups(owners):
            if group.group in registered:
                continue
            reservations.remove_by_id(group.group)
            log.warning("removed the abandoned worker group %s of job %s", group.group, group.job)
            self.notify(
                owners[group.job],
                "",
                "reclaimed",
                f"removed the worker-group reservation {group.group} {group.held}: its Train "
                "run died while its workers started, before a trial registered it",
            )

    def _remove_ended(self) -> None:
        """Remove the reservations the ledger found due, each that was still there with a
        notice for its owner's driver (one its own run removed needs none)."""
        with self._lock:
            due = self.ledger.take_removals()
            groups = [(r, self._groups.pop(r.group, None)) for r in due]
        for reservation, group in groups:
            removed = group is not None and reservations.remove_if_present(group)
            if removed:
                log.warning("removed %s of %s: %s", reservation.group, reservation.label, removed)
                self.notify(
                    reservation.owner,
                    reservation.label,
                    "reclaimed",
                    f"removed the worker-group reservation {reservation.group} {removed} of "
                    f"{reservation.label}: {reservation.why}",
                )


def gate() -> Any:
    """The cluster's gate actor, created by whichever run needs it first, on the head node: a
    worker node lost with the runs it held would take the gate's ledger and notices with it
    (a restarted gate relearns leases from their renewals, but a notice of the lost runs'
    restarts would be gone); the head outlives every worker node (Ray Train pins its own state
    actor there the same way)."""
    return (
        ray.remote(ResourceGate)
        .options(
            name=GATE_NAME,
            namespace=GATE_NAMESPACE,
            lifetime="detached",
            get_if_exists=True,
            num_cpus=0,
            resources={HEAD_NODE_RESOURCE: 0.001},
            max_restarts=-1,
        )
        .remote()
    )


class ResourcesUnavailable(RuntimeError):
    """The cluster cannot place a run's workers and did not grow within the wait."""


def lease_key(request: ResourceRequest) -> str:
    """The lease's name at the gate: its run, and the process holding it (so the leases of a
    killed actor can be found by its id)."""
    return f"{request.owner}/{request.label}/{ray.get_runtime_context().get_actor_id() or 'driver'}"


def yield_via(request: ResourceRequest) -> dict[str, str]:
    """What a yieldable run's workers need to ask the gate whether to yield (``YIELD_VIA_KEY``
    in their config)."""
    return {"actor": GATE_NAME, "namespace": GATE_NAMESPACE, "key": lease_key(request)}


class HeldLease:
    """A granted lease, renewed on a thread of its own until released. A warm worker group's
    passes from one trial of its owner to the next (``handover``)."""

    def __init__(self, handle: Any, key: str, held: ResourceRequest) -> None:
        self.handle, self.key, self.held = handle, key, held
        self._lock = threading.Lock()
        self._stop = threading.Event()
        threading.Thread(target=self._renew, name="raysweep-lease", daemon=True).start()

    @classmethod
    def acquire(cls, request: ResourceRequest, wait_s: float) -> HeldLease:
        """Wait for the gate to grant the request (``ResourcesUnavailable`` if it refuses)."""
        handle = gate()
        key = lease_key(request)
        last = ""
        while True:
            decision: Decision = ray.get(handle.request.remote(key, request, wait_s))
            if decision.state == "granted":
                return cls(handle, key, replace(request, count=decision.workers, max_count=None))
            if decision.state == "refused":
                raise ResourcesUnavailable(decision.message)
            if decision.message != last:  # the driver shows it on the trial; this is the log
                log.info("%s: %s", request.label, decision.message)
                last = decision.message
            time.sleep(POLL_INTERVAL_S)

    @property
    def count(self) -> int:
        """The granted worker group's size, which the run must not exceed."""
        return self.held.count

    def _renew(self) -> None:
        while not self._stop.wait(RENEW_INTERVAL_S):
            with self._lock:
                key, held = self.key, self.held
            try:
                ray.get(self.handle.renew.remote(key, held), timeout=RENEW_INTERVAL_S)
            except Exception:  # the gate restarts; the next renewal re-registers the lease
                log.warning("could not renew the resource lease %s", key, exc_info=True)

    def handover(self, request: ResourceRequest) -> bool:
        """Hold the lease for ``request`` (the owner's next run on the same worker group)
        instead; False when the gate refuses (``Ledger.handover``) or does not answer."""
        key = lease_key(request)
        held = replace(request, count=self.held.count, max_count=None)
        try:
            taken = bool(ray.get(self.handle.handover.remote(self.key, key, held), timeout=10))
        except Exception:
            log.warning("the gate did not answer a handover of %s", self.key, exc_info=True)
            return False
        if taken:
            with self._lock:
                self.key, self.held = key, held
        return taken

    def contended(self) -> bool:
        """Whether a run of another owner waits for resources (or the lease is gone)."""
        try:
            return bool(ray.get(self.handle.contended.remote(self.key), timeout=10))
        except Exception:
            return True

    def release(self) -> None:
        self._stop.set()
        try:
            ray.get(self.handle.release.remote(self.key), timeout=10)
        except Exception:  # it expires on its own once renewals stop
            log.warning("could not release the resource lease %s", self.key, exc_info=True)


@contextmanager
def admitted(request: ResourceRequest, wait_s: float) -> Iterator[int]:
    """Hold a lease for the request's worker group while the block runs; wait for it first.
    Yields the group's granted size, which the run must not exceed."""
    lease = HeldLease.acquire(request, wait_s)
    try:
        yield lease.count
    finally:
        lease.release()
