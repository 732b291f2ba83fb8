"""What every Ray Train run raysweep starts (a trial's, a final run's) is built from: the
trainer without the helpers raysweep does not need, and the copy of its checkpoint snapshot that
lets a run whose node died mid-report resume (``service.train_snapshot``)."""

from __future__ import annotations

import logging
from typing import Any

from ray.train import BackendConfig

# Train V2's own class: ray.train re-exports it at runtime when V2 is on (it is in 2.60), but
# type checkers read the V1 name that module imports first
from ray.train.v2.api.data_parallel_trainer import DataParallelTrainer

from service.engine.ray_compat import (
    DatasetsCallback,
    PlacementGroupCleanerCallback,
    ReportCallback,
)
from service.engine.trial_plan import TrialPlan
from service.train_snapshot import copy_snapshot

log = logging.getLogger(__name__)


class LeanTrainer(DataParallelTrainer):
    """A Ray Train run without two helper processes every raysweep run would start for nothing.
    Given ``torch_backend(...)`` (as ``build_trainer`` does unless the code asks for no process
    group) it is Ray's TorchTrainer, which is a DataParallelTrainer with a ``TorchConfig``.

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


def torch_backend(
    use_gpu: bool, gpus_per_worker: float, workers: int | tuple[int, int]
) -> BackendConfig:
    """Ray's TorchConfig with the backend ``process_group_backend`` picks (TorchTrainer's own
    choice, NCCL for any GPU run, fails when fractional GPUs put two workers on one device),
    imported only for runs that set up torch.distributed: the module imports torch, seconds of
    CPU per process."""
    from ray.train.torch import TorchConfig

    from trainers.distributed import process_group_backend

    most = workers if isinstance(workers, int) else max(workers)
    return TorchConfig(backend=process_group_backend(use_gpu, gpus_per_worker, most))


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
