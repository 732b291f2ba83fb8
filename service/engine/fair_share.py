"""Fair share among the gate's leases (``service/engine/ledger.py`` keeps them over time):
what each project holds, what the leases leave free, which waiting run is granted next, and
which runs are asked to yield their workers to a project below its share. Free of Ray, like the
ledger."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from service.resources import Capacity, ProjectShare, ResourceRequest

# the resources whose fraction of the cluster is a project's share
SHARED = ("CPU", "GPU")


@dataclass
class Lease:
    """A Train run's lease on a worker group, or its request for one while it waits."""

    request: ResourceRequest
    since: float
    seen: float
    granted: bool = False
    message: str = ""  # why it waits, as last decided
    workers: int = 0  # granted: how many workers the lease holds
    granted_at: float = 0.0  # wall clock: when its segment began
    renewed_at: float = 0.0  # wall clock: its holder's last sign of life
    yield_to: str | None = None  # granted: the project it should yield its workers to
    yielding: bool = False  # its run took the hint and stops at its next checkpoint
    # the worker-group placement groups its Train run created: id -> that run's controller
    groups: dict[str, str] = field(default_factory=dict)


class FairShare:
    """The leases and requests, in arrival order, and the projects' shares: who holds what,
    and who is granted next."""

    def __init__(self, wall: Callable[[], float] = time.time) -> None:
        self.wall = wall
        self.entries: dict[str, Lease] = {}  # insertion order is arrival order
        self.projects: dict[str, ProjectShare] = {}

    def set_project(self, name: str, share: ProjectShare) -> None:
        self.projects[name] = share

    def share_of(self, project: str) -> ProjectShare:
        return self.projects.get(project, ProjectShare())

    def held(self, project: str) -> dict[str, float]:
        """What the project's granted leases hold: ``workers``, and each resource."""
        held: dict[str, float] = {"workers": 0.0}
        for entry in self.entries.values():
            if entry.granted and entry.request.project == project:
                held["workers"] += entry.workers
                for k, v in entry.request.asked(entry.workers).items():
                    held[k] = held.get(k, 0.0) + v
        return held

    def dominant_share(
        self, project: str, total: dict[str, float], held: dict[str, float]
    ) -> float:
        """The larger of the CPUs' and GPUs' fraction of the cluster that ``held`` (what the
        project holds) is, over the project's weight."""
        fractions = [held.get(k, 0.0) / total[k] for k in SHARED if total.get(k, 0.0) > 0]
        return max(fractions, default=0.0) / self.share_of(project).weight

    def free(self, capacity: Capacity) -> dict[str, float]:
        """What the leases leave of the cluster's total, and no more than Ray has free: work
        the gate did not admit (another job, a model replica) holds its share too. A group
        granted but not placed yet is in the first and not yet in the second; the smaller
        counts."""
        free = dict(capacity.total)
        for entry in self.entries.values():
            used = dict(entry.request.own)
            if entry.granted:
                for k, v in entry.request.running(entry.workers).items():
                    used[k] = used.get(k, 0.0) + v
            for k, v in used.items():
                free[k] = free.get(k, 0.0) - v
        if capacity.available is not None:
            free = {k: min(v, capacity.available.get(k, 0.0)) for k, v in free.items()}
        return free

    def grant(self, capacity: Capacity) -> None:
        """Grant waiting requests while they fit, the most deserving first: the project with
        the smallest share for its weight, then the higher priority, then the earlier arrival.
        One that does not fit now holds back everyone behind it (so a large run, or a project
        below its share, is not starved by small runs), except one the cluster can never place
        or its project's quota holds back, which waits on its own. An elastic run is granted
        as many workers as are free (and its quota allows), up to its maximum: its Train run is
        pinned to that size, so it never grows into resources granted to others."""
        free = self.free(capacity)
        total = capacity.total
        for entry in self.entries.values():  # hints are decided afresh; taken ones stand
            if not entry.yielding:
                entry.yield_to = None
        waiting = [
            e
            for e in self.entries.values()
            if not e.granted and e.request.unplaceable(capacity) is None
        ]
        while waiting:
            # per project once a round: what it holds, and its share of the cluster
            held = {p: self.held(p) for p in {e.request.project for e in waiting}}
            shares = {p: self.dominant_share(p, total, h) for p, h in held.items()}
            allowed = []
            for entry in waiting:
                request = entry.request
                room, why = self.share_of(request.project).room(held[request.project], request)
                if why is None:
                    allowed.append((entry, room))
            if not allowed:
                return
            entry, room = min(
                allowed,
                key=lambda pair: (
                    shares[pair[0].request.project],
                    -pair[0].request.priority,
                    pair[0].since,
                ),
            )
            workers = min(entry.request.fitting(free), room)
            if workers < entry.request.count:
                self._ask_to_yield(entry, free, total, held[entry.request.project])
                return
            entry.granted, entry.workers = True, workers
            entry.granted_at = entry.renewed_at = self.wall()
            for k, v in entry.request.running(workers).items():
                free[k] = free.get(k, 0.0) - v
            waiting.remove(entry)

    def _ask_to_yield(
        self,
        wanted: Lease,
        free: dict[str, float],
        total: dict[str, float],
        wanted_held: dict[str, float],
    ) -> None:
        """Ask yieldable leases of over-share projects to yield until ``wanted`` would fit: a
        lease qualifies if its project, without it, still holds at least the share ``wanted``'s
        project would hold with its run (so no two projects take turns preempting each other).
        The most over-share project first, its lowest rung, lowest priority, then the earliest
        grant: a run long granted checkpoints soonest, where one just granted would first spend
        its workers' start for nothing."""
        request = wanted.request
        freed = dict(free)  # what is free once the runs already yielding have stopped
        held: dict[str, dict[str, float]] = {}
        for entry in self.entries.values():
            if not entry.granted:
                continue
            project = entry.request.project
            if project not in held:
                held[project] = self.held(project)
            if entry.yield_to is not None:
                for k, v in entry.request.running(entry.workers).items():
                    freed[k] = freed.get(k, 0.0) + v
                for k, v in entry.request.asked(entry.workers).items():
                    held[project][k] = held[project].get(k, 0.0) - v
        gaining = dict(wanted_held)
        for k, v in request.asked(request.count).items():
            gaining[k] = gaining.get(k, 0.0) + v
        floor = self.dominant_share(request.project, total, gaining)
        candidates = [
            e
            for e in self.entries.values()
            if e.granted
            and e.yield_to is None
            and e.request.rung is not None
            and e.request.project != request.project
        ]

        def without(entry: Lease) -> dict[str, float]:
            """What the entry's project would hold without it."""
            left = dict(held[entry.request.project])
            for k, v in entry.request.asked(entry.workers).items():
                left[k] = left.get(k, 0.0) - v
            return left

        while request.fitting(freed) < request.count and candidates:
            fair = [
                e
                for e in candidates
                if self.dominant_share(e.request.project, total, without(e)) >= floor - 1e-9
            ]
            if not fair:
                return
            victim = min(
                fair,
                key=lambda e: (
                    -self.dominant_share(e.request.project, total, held[e.request.project]),
                    e.request.rung or 0,
                    e.request.priority,
                    e.granted_at,
                ),
            )
            victim.yield_to = request.project
            held[victim.request.project] = without(victim)
            for k, v in victim.request.running(victim.workers).items():
                freed[k] = freed.get(k, 0.0) + v
            candidates.remove(victim)
