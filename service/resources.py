"""Resource arithmetic shared by the submit check and the gate: what one Train run needs,
what a cluster has, and whether the one can ever hold the other. Free of Ray."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from raysweep.spec import ExperimentSpec

# a Tune function trial cannot ask for zero resources; its Train workers get their own group,
# each worker's bundle carved by its share of this (``carved_bundle``)
TRIAL_FUNCTION_RESOURCES = {"CPU": 0.01}
# the smallest amount of a resource Ray tells apart (it counts in fixed point, 1e-4)
RAY_RESOURCE_UNIT = 1e-4
# kept free beside a run given Ray Data datasets (code.datasets) while it runs: Ray Data's read
# and transform tasks run outside the worker group, a read task on a whole CPU, and a cluster
# whose every CPU the leases hold would leave them waiting, and the run with them
RAY_DATA_HEADROOM = {"CPU": 1.0}
EPSILON = 1e-9
Resources = Mapping[str, float]


def kept_free_beside(has_datasets: bool) -> dict[str, float]:
    """What a run keeps free beside its worker group while it runs (``ResourceRequest.beside``):
    Ray Data's headroom when it is given datasets, else nothing."""
    return dict(RAY_DATA_HEADROOM) if has_datasets else {}


def describe(resources: Resources, like: Resources | None = None) -> str:
    """``{CPU: 0.5, GPU: 1}``: resources as people read them (Ray's own keys, no memory noise).
    ``like``: the kinds it names even at 0 (what is free of a cluster's CPUs reads ``{CPU: 0}``,
    not ``{}``)."""
    kept = {k: resources.get(k, 0.0) for k in like or {}} | dict(resources)
    shown = {
        k: v
        for k, v in sorted(kept.items())
        if (v > EPSILON or k in (like or {}))
        and "memory" not in k
        and not k.startswith(("node:", "accelerator_type"))
    }
    return "{" + ", ".join(f"{k}: {round(v, 4):g}" for k, v in shown.items()) + "}"


@dataclass(frozen=True)
class Capacity:
    """What the cluster has: every alive node's total resources, and (when read from Ray) what
    is free in it right now, which is less where other work holds resources (other Ray jobs,
    model replicas)."""

    nodes: tuple[dict[str, float], ...]
    available: dict[str, float] | None = None

    @property
    def total(self) -> dict[str, float]:
        total: dict[str, float] = {}
        for node in self.nodes:
            for key, value in node.items():
                total[key] = total.get(key, 0.0) + value
        return total

    def describe(self) -> str:
        largest = max(self.nodes, key=lambda n: n.get("CPU", 0.0), default={})
        return f"{describe(self.total)} on {len(self.nodes)} node(s), largest {describe(largest)}"


@dataclass(frozen=True)
class ResourceRequest:
    """One Train run's need: ``count`` worker bundles (an elastic run: at least ``count``, at
    most ``max_count``), and the share of the process that starts it (a Tune trial's function,
    ``own``), which is already placed while it waits. ``bundle`` is a worker's as the spec
    asks; Ray places each worker with ``placed_bundle``: ``own`` carved out of it where
    ``carved`` (see ``carves``), else ``bundle``, ``own`` on top."""

    owner: str  # the experiment id, or ``final-<id>``
    label: str  # the Tune trial id, or the final run's name
    bundle: dict[str, float]
    count: int
    own: dict[str, float] = field(default_factory=dict)
    max_count: int | None = None
    project: str = "default"  # whose share and quota it counts against
    priority: int = 0  # within its project, a higher one is granted first
    # a promotion-ASHA segment's rung (the epoch it trains to): the run can yield its workers at
    # its next checkpoint when another project is below its share, lower rungs first; None: it
    # cannot (it runs to its end)
    rung: int | None = None
    # what the run needs free beside its group while it runs, held by nothing in Ray (Ray Data's
    # tasks: RAY_DATA_HEADROOM); leases leave it free, quotas and the compute ledger do not count it
    beside: dict[str, float] = field(default_factory=dict)
    carved: bool = False

    @property
    def placed_bundle(self) -> dict[str, float]:
        """One worker's bundle as Ray places it: ``bundle``, less its share of ``own`` where
        ``carved``."""
        return (
            carved_bundle(self.bundle, self.count, self.own) if self.carved else dict(self.bundle)
        )

    def workers(self, count: int) -> dict[str, float]:
        """What ``count`` workers take in Ray (placed, ``own`` carved out)."""
        return {k: v * count for k, v in self.placed_bundle.items()}

    def asked(self, count: int) -> dict[str, float]:
        """What ``count`` workers hold as the spec asks (their function's share in it): what
        shares, quotas and the compute ledger count."""
        return {k: v * count for k, v in self.bundle.items()}

    def fitting(self, free: Resources) -> int:
        """How many workers, up to ``max_count``, the ``free`` resources hold beside what the
        run needs free beside them (may be fewer than ``count``)."""
        room = {k: free.get(k, 0.0) - self.beside.get(k, 0.0) for k in {*free, *self.beside}}
        if any(v < -EPSILON for v in room.values()):
            return 0
        most = self.max_count or self.count
        for key, value in self.placed_bundle.items():
            if value > EPSILON:
                most = min(most, int((room.get(key, 0.0) + EPSILON) // value))
        return max(most, 0)

    def running(self, count: int) -> dict[str, float]:
        """What the run takes from the cluster with ``count`` workers: their bundles and what
        it needs free beside them."""
        taken = self.workers(count)
        for key, value in self.beside.items():
            taken[key] = taken.get(key, 0.0) + value
        return taken

    @property
    def whole(self) -> dict[str, float]:
        """All the run holds at its smallest, as the spec asks: its workers (``own`` in them
        where carved out of them, on top where not) and what it keeps free beside them. What
        Ray places is never more (the carve rounds the share up)."""
        need = self.asked(self.count)
        placed = self.placed_bundle
        for key, value in self.own.items():
            if placed.get(key, 0.0) >= self.bundle.get(key, 0.0):  # not carved
                need[key] = need.get(key, 0.0) + value
        for key, value in self.beside.items():
            need[key] = need.get(key, 0.0) + value
        return need

    def describe(self) -> str:
        counted = f"{self.count}-{self.max_count}" if self.max_count else str(self.count)
        beside = f" and {describe(self.beside)} free beside them" if self.beside else ""
        return f"{counted} worker(s) x {describe(self.bundle)}{beside}"

    def unplaceable(self, capacity: Capacity) -> str | None:
        """Why the cluster as it is can never place this request, or None."""
        total = capacity.total
        short = {k: v for k, v in self.whole.items() if v > total.get(k, 0.0) + EPSILON}
        if short:
            return f"it needs {describe(short)} in all"
        if not any(
            all(node.get(k, 0.0) + EPSILON >= v for k, v in self.placed_bundle.items())
            for node in capacity.nodes
        ):
            return f"no node can take one worker's {describe(self.bundle)}"
        return None


def min_workers(num_workers: int | tuple[int, int]) -> int:
    """The worker group a run is admitted (and checked) at: an elastic run's minimum."""
    return num_workers if isinstance(num_workers, int) else num_workers[0]


def worker_bundle(
    cpus_per_worker: float, gpus_per_worker: float, use_gpu: bool
) -> dict[str, float]:
    """One Train worker's resources as the spec's ``resources`` block asks for them."""
    bundle = {"CPU": cpus_per_worker}
    if use_gpu:
        bundle["GPU"] = gpus_per_worker or 1.0
    return bundle


def carved_bundle(
    bundle: Mapping[str, float], count: int, function: Mapping[str, float]
) -> dict[str, float]:
    """A Train worker's bundle with its share of the process that starts the run (a Tune
    trial's function, which Tune places beside the group) taken out, so that function and group
    together hold what the spec's workers ask. Without it a trial holds 0.01 CPU more than its
    workers', and on 2 CPUs two trials of 2 x 0.5 CPU never run at once (the second group
    misses 0.02 CPU and waits for the first trial to end). A resource the workers ask too
    little of to give a share (under twice it) is left whole, the function's share on top."""
    carved = dict(bundle)
    for key, amount in function.items():
        # rounded up to Ray's unit, so that what Ray places never exceeds what the spec asks
        share = math.ceil(amount / count / RAY_RESOURCE_UNIT - 1e-6) * RAY_RESOURCE_UNIT
        if carved.get(key, 0.0) >= 2 * share:
            carved[key] = round(carved[key] - share, 4)
    return carved


def carves(nodes: Sequence[Mapping[str, float]]) -> bool:
    """Whether a trial's function share is carved out of its workers' bundles on a cluster of
    these nodes: only where one node has CPUs. There a trial's function and workers share the
    node and the carve is exact; across nodes the function sits on one node and each worker's
    slack on its own, so a group the totals admit could have a worker no node can take (nodes
    filled by whole-node workers: the function's 0.01 CPU is on one of them), and the
    function's share stays on top, as the totals then say."""
    return sum(1 for node in nodes if node.get("CPU", 0.0) > EPSILON) == 1


def trial_request(spec: ExperimentSpec, carved: bool) -> ResourceRequest:
    """One trial's need: its smallest worker group, and its function's share (carved out of
    the group's workers where ``carved``)."""
    resources = spec.resources
    return ResourceRequest(
        owner="",
        label="",
        bundle=worker_bundle(
            resources.cpus_per_worker, resources.gpus_per_worker, resources.use_gpu
        ),
        count=min_workers(resources.num_workers),
        own=dict(TRIAL_FUNCTION_RESOURCES),
        beside=kept_free_beside(spec.code is not None and bool(spec.code.datasets)),
        carved=carved,
    )


PRIORITIES = {"high": 1, "normal": 0, "low": -1}


@dataclass(frozen=True)
class ProjectShare:
    """A project's weight in fair share and its quotas (None: no limit), as the gate applies
    them to the worker groups it grants."""

    weight: float = 1.0
    max_workers: int | None = None
    max_cpus: float | None = None
    max_gpus: float | None = None

    def room(self, held: Mapping[str, float], request: ResourceRequest) -> tuple[int, str | None]:
        """How many of the request's workers the quota leaves room for (up to its maximum),
        and, when fewer than its minimum, why it must wait."""
        most = request.max_count or request.count
        for limit, key, label in (
            (self.max_workers, "workers", "max_workers"),
            (self.max_cpus, "CPU", "max_cpus"),
            (self.max_gpus, "GPU", "max_gpus"),
        ):
            if limit is None:
                continue
            per_worker = 1.0 if key == "workers" else request.bundle.get(key, 0.0)
            if per_worker <= EPSILON:
                continue
            fits = int((limit - held.get(key, 0.0) + EPSILON) // per_worker)
            if fits < request.count:
                return fits, (
                    f"waiting for project {request.project!r}'s quota: it holds "
                    f"{round(held.get(key, 0.0), 4):g} of {label} {limit:g}"
                )
            most = min(most, fits)
        return most, None


@dataclass(frozen=True)
class HeldSegment:
    """One worker group's lease from its grant to its end (``holding``: not ended yet, counted
    to now), with what it held: workers, and their CPUs and GPUs in all. Times are seconds
    since the epoch."""

    key: str  # the lease's key: owner/label/holder
    owner: str
    label: str
    started: float
    ended: float
    holding: bool
    workers: int
    cpus: float
    gpus: float

    @property
    def seconds(self) -> float:
        return max(0.0, self.ended - self.started)
