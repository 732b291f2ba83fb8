"""What a trial or final run will train, decided before any Ray process starts: the plan the
driver builds from the spec (trainer or code, budget, workers, fault tolerance, where the run
lives, whose share it counts against), the worker group it asks the gate for, and the config its
workers get. Free of Ray, so the server and its tests read it without importing Ray Train."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from raysweep.code_ref import DatasetSource
from raysweep.spec import ExperimentSpec
from service.resources import (
    PRIORITIES,
    ResourceRequest,
    kept_free_beside,
    min_workers,
    worker_bundle,
)
from service.settings import TRIAL_LOG_MAX_BYTES
from trainers.registry import KIT_LOOP, TASK_KEY, get_trainer


@dataclass(frozen=True)
class WarmPolicy:
    """How a sweep's trials share warm worker groups (``service/engine/warm_group.py``): a
    group runs at most ``trials`` trials, ends after a trial that left a worker above
    ``max_rss_mb``, and is given up after ``idle_s`` without a trial."""

    trials: int = 20
    max_rss_mb: int = 4096
    idle_s: float = 30.0


@dataclass(frozen=True)
class TrialPlan:
    """Everything a trial needs besides its sampled config; built by the driver from the spec."""

    trainer: str | None  # a bundled trainer; None for user code
    entrypoint: str  # "module:function" Ray Train runs on every worker
    epochs: int
    checkpoint_frequency: int
    max_failures: int
    num_workers: int | tuple[int, int]
    use_gpu: bool
    cpus_per_worker: float
    gpus_per_worker: float
    storage_path: str
    seed: int
    # trials the database already holds as final: a restored sweep must not run them again
    finished_trials: frozenset[str] = frozenset()
    # who the worker group's lease is for (an experiment id, ``final-<id>``), and how long to
    # wait for resources the cluster does not have (0: refuse at once)
    owner: str = ""
    resource_wait_s: float = 0.0
    # whose share and quota the worker group counts against, and its place in that project
    project: str = "default"
    priority: int = 0
    # what each worker's output keeps in its run's logs/ (service.engine.trial_logs)
    log_max_bytes: int = TRIAL_LOG_MAX_BYTES
    # Ray Train sets up torch.distributed on the workers (code.process_group: torch)
    torch_process_group: bool = True
    # the Ray Data datasets Ray Train gives the workers (code.datasets), by name
    datasets: tuple[tuple[str, DatasetSource], ...] = ()
    # the sweep's trials run on warm worker groups (None: each trial starts its own)
    warm: WarmPolicy | None = None
    # what the process that starts each run holds beside its group (a trial's Tune function:
    # TRIAL_FUNCTION_RESOURCES; a final run's job driver: nothing), and whether it is carved out
    # of the workers' bundles (service.resources.carves: on a single-node cluster)
    function_share: dict[str, float] = field(default_factory=dict)
    carve_function: bool = False

    @classmethod
    def from_spec(
        cls,
        spec: ExperimentSpec,
        *,
        epochs: int,
        num_workers: int | tuple[int, int],
        storage_path: str,
        owner: str,
        resource_wait_s: float,
        finished_trials: frozenset[str] = frozenset(),
        log_max_bytes: int = TRIAL_LOG_MAX_BYTES,
    ) -> TrialPlan:
        """The spec's trainer or code, fault tolerance, resources and seed; the sweep's trials
        and the final runs differ only in budget, workers and where their runs live."""
        resources, faults = spec.resources, spec.fault_tolerance
        return cls(
            trainer=spec.trainer,
            entrypoint=spec.code.entrypoint if spec.code is not None else KIT_LOOP,
            epochs=epochs,
            checkpoint_frequency=faults.checkpoint_frequency,
            max_failures=faults.max_failures,
            num_workers=num_workers,
            use_gpu=resources.use_gpu,
            cpus_per_worker=resources.cpus_per_worker,
            gpus_per_worker=resources.gpus_per_worker,
            storage_path=storage_path,
            seed=spec.search.seed or 0,
            finished_trials=finished_trials,
            owner=owner,
            resource_wait_s=resource_wait_s,
            project=spec.project,
            priority=PRIORITIES[spec.priority],
            log_max_bytes=log_max_bytes,
            torch_process_group=spec.code is None or spec.code.process_group == "torch",
            datasets=tuple(spec.code.datasets.items()) if spec.code is not None else (),
        )

    def resources_per_worker(self) -> dict[str, float]:
        """One worker's bundle as Ray places it: its lease request's, so the Train run and the
        gate's arithmetic never differ."""
        return self.lease_request("").placed_bundle

    def lease_request(self, label: str, rung: int | None = None) -> ResourceRequest:
        """The worker group the gate must admit before this run starts; an elastic run at
        least at its minimum size, at most at its maximum. ``rung``: it may yield its workers
        at a checkpoint (see ``ResourceRequest.rung``)."""
        elastic = self.num_workers if isinstance(self.num_workers, tuple) else None
        return ResourceRequest(
            self.owner,
            label,
            worker_bundle(self.cpus_per_worker, self.gpus_per_worker, self.use_gpu),
            min_workers(self.num_workers),
            dict(self.function_share),
            max_count=elastic[1] if elastic else None,
            project=self.project,
            priority=self.priority,
            rung=rung,
            beside=kept_free_beside(bool(self.datasets)),
            carved=self.carve_function,
        )

    def with_workers(self, granted: int) -> TrialPlan:
        """The plan pinned to the lease the gate granted: an elastic run may shrink to its
        minimum on failures and grow back, but never past ``granted``."""
        if not isinstance(self.num_workers, tuple):
            return self
        low = self.num_workers[0]
        return replace(self, num_workers=(low, granted) if granted > low else low)


def train_config(plan: TrialPlan, config: dict[str, Any]) -> dict[str, Any]:
    """What the workers get: a bundled trainer's defaults and task, the sampled config, and the
    run's epochs, checkpoint frequency and seed."""
    bundled: dict[str, Any] = {}
    if plan.trainer is not None:
        info = get_trainer(plan.trainer)
        bundled = {**info.defaults, TASK_KEY: info.task}
    return {
        **bundled,
        "seed": plan.seed,
        **config,
        "epochs": plan.epochs,
        "checkpoint_frequency": plan.checkpoint_frequency,
    }
