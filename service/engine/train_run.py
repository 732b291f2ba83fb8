"""What every Ray Train run raysweep starts (a trial's, a final run's) is built from: the
trainer without the helpers raysweep does not need, and the copy of its checkpoint snapshot that
lets a run whose node died mid-report resume (``service.train_snapshot``)."""

from __future__ import annotations

import importlib
import logging
import os
from typing import Any

import ray
from ray.exceptions import GetTimeoutError
from ray.train import BackendConfig
from ray.train.backend import Backend

# Train V2's own class: ray.train re-exports it at runtime when V2 is on (it is in 2.60), but
# type checkers read the V1 name that module imports first
from ray.train.v2.api.data_parallel_trainer import DataParallelTrainer

from service.engine.ray_compat import (
    DEFAULT_TORCH_PROCESS_GROUP_SHUTDOWN_TIMEOUT_S,
    TORCH_CONFIG_MODULE,
    TORCH_PROCESS_GROUP_SHUTDOWN_TIMEOUT_S,
    DatasetsCallback,
    PlacementGroupCleanerCallback,
    ReportCallback,
    TrainingFramework,
    get_address_and_port,
)
from service.engine.trial_plan import TrialPlan
from service.train_snapshot import copy_snapshot
from trainers.process_group import process_group_backend

log = logging.getLogger(__name__)


class LeanTrainer(DataParallelTrainer):
    """A Ray Train run without two helper processes every raysweep run would start for nothing.
    Given ``torch_backend(...)`` (as ``build_trainer`` does unless the code asks for no process
    group) it is Ray's TorchTrainer, a DataParallelTrainer with a ``TorchConfig``, whose
    backend here is ``TorchProcessGroup``.

    - Ray Train starts a DatasetManager actor for each worker group even when it is given no
      Ray Datasets (raysweep's training functions load their own data): a process that imports
      Ray Train and torch, about 2 s of CPU per trial and per restart. Without datasets its
      callback has nothing to shard, so it is left out.
    - Ray Train starts a detached PlacementGroupCleaner actor per run, which polls the state
      API (the dashboard) every second until its controller dies, and then removes the run's
      worker group. The gate does that job for every run raysweep starts (``WorkerGroupWatch``
      registers the group; the gate's reaper removes the groups of dead controllers and those
      whose creator died before registering them), without a process per run and without the
      cleaner's failures (it dies on a host running two Ray instances, ray-project/ray#61689,
      and can miss its controller's death, #62753). A final run's controller lives and dies
      with its driver job, whose end removes its groups.

    This overrides a private method, and the two classes come from ``ray_compat``: if Ray renames
    any of them, the override is not called or drops nothing, and the helpers come back, which
    costs time but changes no result."""

    def _create_default_callbacks(self) -> list[Any]:
        callbacks = super()._create_default_callbacks()
        unneeded: list[type | None] = [PlacementGroupCleanerCallback]
        if not self.datasets:
            unneeded.append(DatasetsCallback)
        dropped = tuple(kind for kind in unneeded if kind is not None)
        return [c for c in callbacks if not isinstance(c, dropped)]


class TorchProcessGroup(BackendConfig):
    """Ray's ``TorchConfig`` (what TorchTrainer sets torch.distributed up with) for raysweep's
    runs, without importing torch where no tensor is used. TorchConfig's module imports torch,
    and a run's backend config is built in its trial actor and unpickled in its Train
    controller, processes that only send calls to the workers: 1.6 s of CPU more in each, on
    every trial start (on a 2-core machine). The controller's side below is TorchConfig's, step
    for step (the workers' address, their environment, the process group on every rank, its
    end); what runs on the workers are Ray's own functions, called there by name
    (``ray_compat.TORCH_CONFIG_NAMES``). TPU slices, which TorchConfig also sets up, are not
    among the resources a raysweep run asks for."""

    def __init__(self, backend: str, timeout_s: int = 1800) -> None:
        self.backend = backend
        self.timeout_s = timeout_s

    @property
    def backend_cls(self) -> type[Backend]:
        return TorchProcessGroupBackend

    @property
    def train_func_context(self) -> type[TorchDevice]:
        return TorchDevice

    @property
    def framework(self) -> TrainingFramework:
        return TrainingFramework.TORCH

    def to_dict(self) -> dict[str, Any]:
        return {"backend": self.backend, "init_method": "env", "timeout_s": self.timeout_s}


class TorchProcessGroupBackend(Backend):
    """``TorchConfig``'s backend: runs in the Train controller."""

    share_cuda_visible_devices: bool = True

    def on_start(self, worker_group: Any, backend_config: BackendConfig) -> None:
        assert isinstance(backend_config, TorchProcessGroup)
        address, port = worker_group.execute_single(0, get_address_and_port)
        worker_group.execute(_set_master, address=address, port=port)
        worker_group.execute(_torch_config_call, "_set_torch_distributed_env_vars")
        size = len(worker_group)
        ray.get(
            [
                worker_group.execute_single_async(
                    rank,
                    _torch_config_call,
                    "_setup_torch_process_group",
                    backend=backend_config.backend,
                    world_rank=rank,
                    world_size=size,
                    init_method="env://",
                    timeout_s=backend_config.timeout_s,
                )
                for rank in range(size)
            ]
        )

    def on_shutdown(self, worker_group: Any, backend_config: BackendConfig) -> None:
        ended = worker_group.execute_async(
            _torch_config_call, "_shutdown_torch", destroy_process_group=len(worker_group) > 1
        )
        timeout_s = int(
            os.environ.get(
                TORCH_PROCESS_GROUP_SHUTDOWN_TIMEOUT_S,
                DEFAULT_TORCH_PROCESS_GROUP_SHUTDOWN_TIMEOUT_S,
            )
        )
        try:
            ray.get(ended, timeout=timeout_s)
        except GetTimeoutError:
            log.warning("torch process group shutdown timed out after %s seconds", timeout_s)


class TorchDevice:
    """``TorchConfig``'s context around the training function on each worker (it makes the
    worker's GPU torch's current device)."""

    def __enter__(self) -> None:
        self.inner = _torch_config_call("TorchConfigContextManager")
        self.inner.__enter__()

    def __exit__(self, *exc: object) -> bool:
        return bool(self.inner.__exit__(*exc))


def _torch_config_call(name: str, /, **kwargs: Any) -> Any:
    """On a worker: calls ``name`` of TorchConfig's module (torch is imported there anyway)."""
    return getattr(importlib.import_module(TORCH_CONFIG_MODULE), name)(**kwargs)


def _set_master(address: str, port: int) -> None:
    os.environ["MASTER_ADDR"] = address
    os.environ["MASTER_PORT"] = str(port)


def torch_backend(
    use_gpu: bool, gpus_per_worker: float, workers: int | tuple[int, int]
) -> BackendConfig:
    """``TorchProcessGroup`` with the backend ``process_group_backend`` picks (TorchTrainer's
    own choice, NCCL for any GPU run, fails when fractional GPUs put two workers on one
    device)."""
    most = workers if isinstance(workers, int) else max(workers)
    return TorchProcessGroup(backend=process_group_backend(use_gpu, gpus_per_worker, most))


def backend_config(plan: TrialPlan) -> BackendConfig:
    """A trial's or warm group's backend: ``torch_backend`` for its resources, or none where its
    code sets up no process group."""
    if not plan.torch_process_group:
        return BackendConfig()
    return torch_backend(plan.use_gpu, plan.gpus_per_worker, plan.num_workers)


class SnapshotCopy(ReportCallback):
    """Runs in the Train controller after its checkpoint manager has written a report's
    snapshot, and copies it whole beside it (``service.train_snapshot``)."""

    def __init__(self, run_uri: str) -> None:
        self.run_uri = run_uri

    def after_report(self, training_report: Any, metrics: list[dict[str, Any]]) -> None:
        if training_report.checkpoint is None:
            return  # no checkpoint, no new snapshot
        try:
            copy_snapshot(self.run_uri)
        except Exception:  # a missing copy costs a resume only if the node also dies mid-write
            log.warning("could not copy the checkpoint snapshot of %s", self.run_uri, exc_info=True)
