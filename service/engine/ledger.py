"""The gate's bookkeeping (``service/engine/gate.py`` holds the actor around it): leases granted
to Train runs by fairness and quota (who is granted next: ``fair_share.py``) over time, the
worker-group reservations each lease's runs registered and their reaping, the notices and held
segments the drivers read. Free of Ray, so its decisions are tested on their own
(tests/test_gate.py)."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace

from service.engine.fair_share import SHARED, FairShare, Lease
from service.resources import Capacity, HeldSegment, ResourceRequest, describe

log = logging.getLogger(__name__)

LEASE_TTL_S = 30.0  # a lease or waiting request not renewed for this long is dropped
ENDED_KEPT_S = 900.0  # ended segments (and notices) wait this long for their driver to store them
# a run waiting this long while something outside the leases holds what it needs is told what
WAIT_EXPLAINED_AFTER_S = 20.0
# a lease's holder or a reservation's Train controller missing from Ray's live actors this many
# reaps in a row is dead (one miss could be a listing taken before it registered)
MISSES_TO_DEAD = 2


@dataclass(frozen=True)
class Decision:
    state: str  # granted | waiting | refused
    message: str = ""
    workers: int = 0  # granted: the worker group's size (an elastic run's, between its bounds)


@dataclass(frozen=True)
class Notice:
    """Something that happened to one of an owner's runs, for its driver to store as an event:
    ``restarted`` (Ray Train restarted the run's worker group) or ``reclaimed`` (the gate removed
    a worker-group reservation whose holder had died)."""

    owner: str
    label: str
    kind: str
    message: str
    at: float  # wall clock
    id: str  # the driver acknowledges it by this id once stored


@dataclass(frozen=True)
class Reservation:
    """A worker-group placement group a lease's Train run created, due for removal: its run
    ended (its controller normally removed it already) or its holder died (nobody else will)."""

    owner: str
    label: str
    group: str  # the placement group's id
    why: str


class Ledger(FairShare):
    """The gate's bookkeeping, free of Ray so its decisions can be tested on their own."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(wall)
        self.clock = clock
        self.ended: list[HeldSegment] = []
        # lease key -> (first arrival, when it yielded): a run that yielded keeps its place
        self.yielded: dict[str, tuple[float, float]] = {}
        self.notices: list[Notice] = []
        self.notice_ids: dict[str, float] = {}  # ``notify(once=...)`` ids seen -> when
        self.removals: list[Reservation] = []
        # what holds resources that no lease accounts for, as the reaper last found it
        self.outside = ""
        # actor id -> how many reaps in a row found it missing from Ray's live actors
        self.missing: dict[str, int] = {}
        # groups registered under a lease the ledger does not hold: the gate restarted (its
        # node died) and the holder's next renewal brings the lease back, or the run ended just
        # before; lease key -> {group: (its controller, when registered)}
        self.unleased: dict[str, dict[str, tuple[str, float]]] = {}
        # warm groups' leases that passed to another key: old key -> (new key, when)
        self.handed: dict[str, tuple[str, float]] = {}

    def request(
        self, key: str, request: ResourceRequest, capacity: Capacity, wait_s: float
    ) -> Decision:
        now = self.clock()
        entry = self.entries.get(key)
        if entry is None:
            since = self.yielded.pop(key, (now, now))[0]
            entry = self.entries[key] = Lease(request, since=since, seen=now)
        entry.seen = now
        self._expire(now)
        self.grant(capacity)
        decision = self._decide(key, entry, capacity, wait_s, now)
        entry.message = decision.message
        return decision

    def _decide(
        self, key: str, entry: Lease, capacity: Capacity, wait_s: float, now: float
    ) -> Decision:
        request = entry.request
        if entry.granted:
            return Decision("granted", workers=entry.workers)
        reason = request.unplaceable(capacity)
        if reason is not None:
            message = (
                f"the cluster cannot place {request.describe()}: {reason}, and it has "
                f"{capacity.describe()}"
            )
            if now - entry.since >= wait_s:
                del self.entries[key]
                waited = f"; waited {wait_s:g}s (RAYSWEEP_TRIAL_RESOURCE_WAIT_S)" if wait_s else ""
                return Decision("refused", message + waited)
            return Decision("waiting", f"waiting for the cluster to grow: {message}")
        quota = self.share_of(request.project).room(self.held(request.project), request)[1]
        if quota is not None:
            return Decision("waiting", quota)
        ahead = [
            e
            for k, e in self.entries.items()
            if not e.granted and k != key and e.since <= entry.since
        ]
        # a waiting trial's function counts against the free share: never shown below nothing
        free = {k: max(v, 0.0) for k, v in self.free(capacity).items()}
        held_outside = (
            f"; held outside raysweep's leases: {self.outside}"
            if self.outside and now - entry.since >= WAIT_EXPLAINED_AFTER_S
            else ""
        )
        return Decision(
            "waiting",
            f"waiting for resources: needs {request.describe()}; free "
            f"{describe(free, like=capacity.total)} of "
            f"{describe(capacity.total)}"
            + (f"; {len(ahead)} run(s) ahead in the queue" if ahead else "")
            + held_outside,
        )

    def unexplained_waits(self, capacity: Capacity) -> bool:
        """Whether a run has waited ``WAIT_EXPLAINED_AFTER_S`` while Ray has less free than the
        leases leave: something raysweep did not admit holds what it waits for."""
        now = self.clock()
        if not any(
            not e.granted and now - e.since >= WAIT_EXPLAINED_AFTER_S for e in self.entries.values()
        ):
            return False
        by_leases = self.free(replace(capacity, available=None))
        available = capacity.available or {}
        return any(by_leases.get(k, 0.0) > available.get(k, 0.0) + 1e-6 for k in SHARED)

    def renew(self, key: str, request: ResourceRequest) -> None:
        """A holder's heartbeat (``request`` pinned to the granted size); a gate that lost its
        state (restarted) takes the lease back."""
        now, wall = self.clock(), self.wall()
        entry = self.entries.get(key)
        if entry is None:
            groups = {g: c for g, (c, _) in self.unleased.pop(key, {}).items()}
            self.entries[key] = self._held_from_now(request, request.count, groups)
        else:
            entry.seen, entry.renewed_at = now, wall

    def release(self, key: str) -> None:
        self._end(key, self.wall())

    def contended(self, key: str) -> bool:
        """Whether a run of another owner waits, or the lease is gone: a warm worker group
        (``service/engine/warm_group.py``) then gives its lease up instead of idling or taking
        its sweep's next trial."""
        entry = self.entries.get(key)
        if entry is None or not entry.granted:
            return True
        self._expire(self.clock())
        return any(
            not e.granted and e.request.owner != entry.request.owner for e in self.entries.values()
        )

    def handover(self, old: str, new: str, request: ResourceRequest) -> bool:
        """A warm worker group's lease passes from the trial it ran to its owner's next trial
        on the same group: the old segment ends, the new one begins now, and the group's
        reservations move with it. Refused (the group is then given up and the trial asks in
        the queue) when the lease is gone or yielding, a run of another owner waits (it goes
        first), or the next trial asks for another group."""
        entry = self.entries.get(old)
        if (
            entry is None
            or entry.yielding
            or self.contended(old)
            or request.max_count is not None  # an elastic run: not a warm group's
            or replace(request, label="", rung=None) != replace(entry.request, label="", rung=None)
        ):
            return False
        held = replace(request, count=entry.workers)
        now, wall = self.clock(), self.wall()
        self.ended.append(self._segment(old, entry, wall, False))
        del self.entries[old]
        # a registration still on its way under the old key finds the lease (register_group)
        self.handed = {k: v for k, v in self.handed.items() if now - v[1] <= LEASE_TTL_S}
        self.handed[old] = (new, now)
        self.entries[new] = self._held_from_now(held, entry.workers, entry.groups)
        return True

    def _held_from_now(
        self, request: ResourceRequest, workers: int, groups: dict[str, str]
    ) -> Lease:
        """A lease granted as of now without a wait (a renewal the gate lost, a handover)."""
        now, wall = self.clock(), self.wall()
        return Lease(
            request,
            since=now,
            seen=now,
            granted=True,
            workers=workers,
            granted_at=wall,
            renewed_at=wall,
            groups=groups,
        )

    def yield_now(self, key: str) -> str | None:
        """Asked by a yieldable run at a checkpoint: the project it should yield its workers to,
        or None to go on. A yes is final: the run stops there."""
        entry = self.entries.get(key)
        if entry is None or not entry.granted or entry.yield_to is None:
            return None
        entry.yielding = True
        return entry.yield_to

    def release_holders(self, actor_ids: list[str]) -> int:
        """Drop the leases and requests of killed actors (keys end with the holder's id); their
        segments end at the holders' last renewal."""
        gone = [k for k in self.entries if holder_of(k) in set(actor_ids)]
        for key in gone:
            self._end(key, self.entries[key].renewed_at, "its trial's process was killed")
        return len(gone)

    def end_owner(self, owner: str) -> None:
        """The owner (a driver whose runs are all over) holds nothing any more: its leases end
        at their holders' last renewal, its requests go."""
        for key in [k for k, e in self.entries.items() if e.request.owner == owner]:
            self._end(key, self.entries[key].renewed_at)

    def register_group(self, key: str, group: str, controller: str) -> bool:
        """The lease's Train run created a worker-group placement group (each restart makes a
        new one); it is removed when the lease ends or its controller dies. False: the ledger
        holds no such lease (a restarted gate, before the holder's next renewal brings it
        back): the group waits for it, and is removed if it does not come within the lease
        TTL or its controller dies."""
        seen = {key}
        while key in self.handed and key not in self.entries:  # the lease passed on since
            key = self.handed[key][0]
            if key in seen:  # a trial back on the group it left: the keys went round
                break
            seen.add(key)
        entry = self.entries.get(key)
        if entry is None:
            self.unleased.setdefault(key, {})[group] = (controller, self.clock())
            return False
        entry.groups[group] = controller
        return True

    def watched(self) -> set[str]:
        """The actors whose death ends something: the leases' holders and the registered
        groups' Train controllers."""
        watched = {holder_of(k) for k in self.entries} | {
            c for e in self.entries.values() for c in e.groups.values()
        }
        watched |= {c for groups in self.unleased.values() for c, _ in groups.values()}
        watched.discard("driver")  # a final run's lease: its driver process, ended with its job
        return watched

    def reap(self, alive: set[str]) -> None:
        """Given Ray's live actors: a lease whose holder (a Tune trial actor) died ends now, not
        when its renewals run out, and a placement group whose Train controller died is due for
        removal (a trial stopped by the scheduler loses its controller before it removes its
        group), as is a group waiting for its lease (``unleased``) whose controller died or
        whose lease did not come back within the TTL. Deaths count after ``MISSES_TO_DEAD``
        reaps."""
        self.missing = {
            actor: self.missing.get(actor, 0) + 1 for actor in self.watched() if actor not in alive
        }
        dead = {actor for actor, misses in self.missing.items() if misses >= MISSES_TO_DEAD}
        now = self.clock()
        for key, groups in list(self.unleased.items()):
            owner, label, _ = key.rsplit("/", 2)
            for group, (controller, since) in list(groups.items()):
                if controller in dead:
                    why = "its Train controller is gone"
                elif now - since > LEASE_TTL_S:
                    why = "its run had ended (its lease did not come back)"
                else:
                    continue
                del groups[group]
                self.removals.append(Reservation(owner, label, group, why))
            if not groups:
                del self.unleased[key]
        for key, entry in list(self.entries.items()):
            if holder_of(key) in dead:
                self._end(key, entry.renewed_at, "its trial's process is gone")
                continue
            for group, controller in list(entry.groups.items()):
                if controller in dead:
                    del entry.groups[group]
                    self.removals.append(
                        Reservation(
                            entry.request.owner,
                            entry.request.label,
                            group,
                            "its Train controller is gone",
                        )
                    )

    def take_removals(self) -> list[Reservation]:
        removals, self.removals = self.removals, []
        return removals

    def notify(self, owner: str, label: str, kind: str, message: str, once: str = "") -> None:
        """``once``: the sender's id for this notice; one sent again (a retried call that may
        have arrived) is taken once."""
        if once:
            if once in self.notice_ids:
                return
            self.notice_ids[once] = self.wall()
        notice_id = once or uuid.uuid4().hex
        self.notices.append(Notice(owner, label, kind, message, self.wall(), notice_id))

    def take_notices(self, owner: str, stored: Collection[str] = ()) -> list[Notice]:
        """The owner's notices not yet stored: its driver names those it has ``stored`` since
        it last asked, which go; the others come again until it does (an answer lost to a
        timeout loses no notice). Each waits ``ENDED_KEPT_S`` at most (for a restored driver)."""
        wall = self.wall()
        self.notice_ids = {k: at for k, at in self.notice_ids.items() if wall - at <= ENDED_KEPT_S}
        acknowledged = set(stored)
        self.notices = [
            n for n in self.notices if n.id not in acknowledged and wall - n.at <= ENDED_KEPT_S
        ]
        return [n for n in self.notices if n.owner == owner]

    def _end(self, key: str, at: float, why: str = "its run ended") -> None:
        entry = self.entries.pop(key, None)
        if entry is not None:
            self.removals += [
                Reservation(entry.request.owner, entry.request.label, group, why)
                for group in entry.groups
            ]
        if entry is not None and entry.granted:
            self.ended.append(self._segment(key, entry, max(at, entry.granted_at), False))
        if entry is not None and entry.yielding:
            self.yielded[key] = (entry.since, self.clock())
        if not any(not e.granted for e in self.entries.values()):
            for other in self.entries.values():  # nobody waits: no run need yield
                if not other.yielding:
                    other.yield_to = None

    def _segment(self, key: str, entry: Lease, until: float, holding: bool) -> HeldSegment:
        held = entry.request.asked(entry.workers)
        return HeldSegment(
            key=key,
            owner=entry.request.owner,
            label=entry.request.label,
            started=entry.granted_at,
            ended=until,
            holding=holding,
            workers=entry.workers,
            cpus=held.get("CPU", 0.0),
            gpus=held.get("GPU", 0.0),
        )

    def usage(self, owner: str) -> list[HeldSegment]:
        """The owner's leases: those ended in the last ``ENDED_KEPT_S``, and those held (to
        now)."""
        wall = self.wall()
        self.ended = [s for s in self.ended if wall - s.ended <= ENDED_KEPT_S]
        return [s for s in self.ended if s.owner == owner] + [
            self._segment(key, e, wall, True)
            for key, e in self.entries.items()
            if e.granted and e.request.owner == owner
        ]

    def waiting(self, owner: str) -> dict[str, str]:
        """The owner's waiting runs: label -> why each waits."""
        return {
            e.request.label: e.message
            for e in self.entries.values()
            if not e.granted and e.request.owner == owner
        }

    def _expire(self, now: float) -> None:
        self.yielded = {k: v for k, v in self.yielded.items() if now - v[1] <= ENDED_KEPT_S}
        for key in [k for k, e in self.entries.items() if now - e.seen > LEASE_TTL_S]:
            log.warning("dropping the lease of %s: its holder stopped renewing it", key)
            self._end(key, self.entries[key].renewed_at, "its holder stopped renewing its lease")


def holder_of(key: str) -> str:
    """The actor holding a lease (the last part of its key, ``lease_key``)."""
    return key.rsplit("/", 1)[-1]
