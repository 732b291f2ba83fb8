"""Ray Train glue for the bundled trainers: one training loop for every ``Task``, checkpoints that
carry model, optimizer, LR schedule, grad scaler and every rank's RNG state, and per-epoch
metrics (validation, throughput, all-reduce share) reported to Ray Train and written as TensorBoard
scalars beside the run's checkpoints (``trainers.tensorboard``).

A bundled trainer is a module with ``build_task(config) -> Task`` (plain torch, see
``trainers.practices``); the registry names it, and ``train_loop_per_worker`` runs it.
"""

from __future__ import annotations

import json
import logging
import math
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

import ray.train
import ray.train.torch
import torch

from trainers import distributed, performance, practices, tensorboard
from trainers.distributed import world
from trainers.practices import Task, TrainSettings
from trainers.registry import (
    REPORTS_FILE,
    TASK_KEY,
    YIELD_VIA_KEY,
    YIELDED_KEY,
    load_reference,
)

log = logging.getLogger(__name__)

STATE_FILE = "state.pt"


class Runtime(Protocol):
    """What the training loop needs from the system that runs its workers: the run's latest
    checkpoint, a report per epoch, DDP wrapping and the device."""

    def latest_checkpoint(self) -> ray.train.Checkpoint | None: ...

    def report(self, metrics: dict[str, float], checkpoint: ray.train.Checkpoint | None) -> None:
        """Every rank calls it each epoch; ``checkpoint``'s directory is gone once it returns."""

    def prepare_model(self, model: torch.nn.Module, ddp: dict[str, Any]) -> torch.nn.Module: ...

    def device(self) -> torch.device: ...


class RayTrain:
    """Ray Train's worker session: where every trial and final run trains."""

    def latest_checkpoint(self) -> ray.train.Checkpoint | None:
        return ray.train.get_checkpoint()

    def report(self, metrics: dict[str, float], checkpoint: ray.train.Checkpoint | None) -> None:
        # TensorBoard scalars beside the run's checkpoints (rank 0; never fails the run), before
        # the report, so a result the sweep has seen is already on TensorBoard
        tensorboard.scalar_writer().write(metrics, step=int(metrics.get("epoch", 0)))
        ray.train.report(metrics, checkpoint=checkpoint)

    def prepare_model(self, model: torch.nn.Module, ddp: dict[str, Any]) -> torch.nn.Module:
        return ray.train.torch.prepare_model(model, parallel_strategy_kwargs=ddp)

    def device(self) -> torch.device:
        return ray.train.torch.get_device()


def describe_device(device: torch.device, world_size: int) -> str:
    """Where this worker trains, for its log: "cuda:0 (NVIDIA H200), process group gloo"."""
    name = f" ({torch.cuda.get_device_name(device)})" if device.type == "cuda" else ""
    group = f", process group {torch.distributed.get_backend()}" if world_size > 1 else ""
    return f"{device}{name}{group}"


def all_gather(obj: Any) -> list[Any]:
    if world()[1] == 1:
        return [obj]
    gathered: list[Any] = [None] * world()[1]
    torch.distributed.all_gather_object(gathered, obj)
    return gathered


def unwrap(model: torch.nn.Module) -> torch.nn.Module:
    return model.module if isinstance(model, torch.nn.parallel.DistributedDataParallel) else model


def load_checkpoint(config: Mapping[str, Any], runtime: Runtime) -> dict[str, Any] | None:
    """The state saved by ``report`` in the run's latest checkpoint; else the checkpoint named by
    ``config["resume_from"]`` (a warm start, Train V2's replacement for resume_from_checkpoint);
    else None. Restores this rank's RNG state."""
    checkpoint = runtime.latest_checkpoint()
    if checkpoint is None and config.get("resume_from"):
        checkpoint = ray.train.Checkpoint(str(config["resume_from"]))
    if checkpoint is None:
        return None
    state = read_state(checkpoint)
    rank, _ = world()
    rng_states = state.get("rng_states", [])
    if rank < len(rng_states):
        distributed.set_rng_state(rng_states[rank])
    return state


def read_state(checkpoint: ray.train.Checkpoint) -> dict[str, Any]:
    """A kit checkpoint's saved state (model, optimizer, ..., epoch), on the CPU."""
    with checkpoint.as_directory() as directory:
        state: dict[str, Any] = torch.load(
            Path(directory) / STATE_FILE, weights_only=False, map_location="cpu"
        )
    return state


def checkpoint_due(epoch: int, settings: TrainSettings) -> bool:
    return epoch % settings.checkpoint_frequency == 0 or epoch == settings.epochs


def yield_asked(config: Mapping[str, Any]) -> bool:
    """In a run that may yield its workers (``YIELD_VIA_KEY``), at a checkpoint: rank 0 asks
    the gate whether another project needs them now, and every rank gets its answer, so all
    stop after the same epoch. A gate that cannot be asked means go on."""
    via = config.get(YIELD_VIA_KEY)
    if not via:
        return False
    answer: str | None = None
    if world()[0] == 0:
        try:
            gate = ray.get_actor(via["actor"], namespace=via["namespace"])
            asked: Any = ray.get(gate.yield_now.remote(via["key"]), timeout=10)
            answer = asked
        except Exception:
            log.warning("could not ask the resource gate whether to yield", exc_info=True)
    return bool(all_gather(answer)[0])


def report(
    metrics: dict[str, float],
    *,
    epoch: int,
    settings: TrainSettings,
    state: dict[str, Any],
    runtime: Runtime,
    unsaved: list[dict[str, float]],
) -> None:
    """Report one epoch's metrics; every ``checkpoint_frequency`` epochs (and at the last epoch)
    attach a checkpoint with ``state`` plus every rank's RNG state, and with ``unsaved`` (the
    reports since the previous checkpoint, which this call empties) as ``REPORTS_FILE``.

    Every rank must call this (Train V2 collects a report from each worker).
    """
    due = checkpoint_due(epoch, settings)
    rng_states = all_gather(distributed.rng_state()) if due else []
    rank, _ = world()
    if not due or rank != 0:
        runtime.report(metrics, None)
        if due:
            unsaved.clear()
        else:
            unsaved.append(metrics)
        return
    with tempfile.TemporaryDirectory() as directory:
        torch.save(
            {**state, "epoch": epoch, "rng_states": rng_states}, Path(directory) / STATE_FILE
        )
        (Path(directory) / REPORTS_FILE).write_text(json.dumps(unsaved))
        runtime.report(metrics, ray.train.Checkpoint.from_directory(directory))
    unsaved.clear()


def prepare(task: Task, settings: TrainSettings, runtime: Runtime) -> torch.nn.Module:
    """DDP (with ≥ 2 workers) with the configured bucket size and gradient views."""
    return runtime.prepare_model(
        task.model,
        {
            "bucket_cap_mb": settings.ddp_bucket_cap_mb,
            "gradient_as_bucket_view": settings.gradient_as_bucket_view,
        },
    )


def epoch_metrics(
    stats: practices.EpochStats,
    validation: dict[str, float],
    epoch: int,
    lr: float,
    model_params: int,
) -> dict[str, float]:
    _, world_size = world()
    # one all-reduce for every per-rank figure of the epoch
    loss_sum, seconds_sum, wait_sum = distributed.all_reduce_sum(
        [stats.mean_loss, stats.seconds, stats.allreduce_wait_s]
    )
    train_loss = loss_sum / world_size
    if not math.isfinite(train_loss):
        raise FloatingPointError(f"training diverged: train_loss is {train_loss} at epoch {epoch}")
    # every rank steps in lockstep (DDP), so the mean epoch time over ranks is the epoch's
    total = stats.samples / max(seconds_sum / world_size, 1e-9)
    metrics = {
        "epoch": epoch,
        "train_loss": train_loss,
        **{f"val_{name}": value for name, value in validation.items()},
        "samples_per_second": total,
        "samples_per_second_per_worker": total / world_size,
        "lr": lr,
        # the model's size: what a sweep constrains or trades off against its accuracy
        "model_params": float(model_params),
    }
    if world_size > 1:
        metrics["allreduce_share"] = wait_sum / max(seconds_sum, 1e-9)
    return metrics


def resume_optimizer(
    optimizer: torch.optim.Optimizer,
    scheduler: torch.optim.lr_scheduler.LambdaLR,
    state: dict[str, Any],
) -> None:
    """The optimizer's state (its moments) and the schedule's step count from the checkpoint,
    under this run's hyperparameters (its learning rate, weight decay): a trial population-based
    training gave another config trains with that config from the state it copied, and a
    replayed schedule changes them at its epochs. Unchanged hyperparameters resume as saved."""
    fresh = [{k: v for k, v in group.items() if k != "params"} for group in optimizer.param_groups]
    optimizer.load_state_dict(state["optimizer"])
    scheduler.load_state_dict(state["scheduler"])
    for group, settings in zip(optimizer.param_groups, fresh, strict=True):
        group.update(settings)
    scheduler.base_lrs = [float(group["initial_lr"]) for group in optimizer.param_groups]
    step = scheduler.last_epoch
    for group, base, factor in zip(
        optimizer.param_groups, scheduler.base_lrs, scheduler.lr_lambdas, strict=True
    ):
        group["lr"] = base * factor(step)


def train_task(task: Task, config: Mapping[str, Any], runtime: Runtime) -> None:
    """Train ``task`` for ``config["epochs"]`` epochs on this worker, resuming from the latest
    checkpoint, validating and reporting every epoch."""
    settings = TrainSettings.from_config(config)
    device = runtime.device()
    # on the device before the optimizer and its resumed state: Optimizer.load_state_dict puts
    # the moments where the parameters are then, and moments left on the CPU fail the first GPU
    # step of a resumed run (prepare_model's own move comes too late for them)
    task.model.to(device)
    rank, world_size = world()
    amp = performance.MixedPrecision.for_device(settings.precision, device)
    print(f"rank {rank}: {describe_device(device, world_size)}, {world_size} worker(s), precision "
          f"{settings.precision if amp.enabled else 'fp32'}", flush=True)  # fmt: skip
    train = task.splits["train"].to(device, settings.pin_memory)
    steps_per_epoch = (len(train) // settings.micro_batch(world_size)) // settings.grad_accum_steps
    if steps_per_epoch < 1:
        raise ValueError(
            f"the global batch ({settings.global_batch(world_size)} samples) is larger than the "
            f"training split ({len(train)} samples)"
        )
    lr = settings.lr(task.base_lr, world_size)
    optimizer = task.make_optimizer(task.model.parameters(), lr)
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, practices.lr_factor(settings, steps_per_epoch)
    )
    start_epoch = 1
    state = load_checkpoint(config, runtime)
    if state is not None:
        task.model.load_state_dict(state["model"])
        resume_optimizer(optimizer, scheduler, state)
        amp.load_state_dict(state.get("grad_scaler", {}))
        start_epoch = int(state["epoch"]) + 1
    elif config.get("warm_start_from"):
        # a final run starting from a trial's weights: a new optimizer, schedule and epoch count
        warm = ray.train.Checkpoint(str(config["warm_start_from"]))
        task.model.load_state_dict(read_state(warm)["model"])
    model = prepare(task, settings, runtime)
    timer = performance.AllReduceTimer()
    timed = timer.attach(model)
    unsaved: list[dict[str, float]] = []  # a resumed run starts at a checkpoint: nothing unsaved
    model_params = sum(p.numel() for p in task.model.parameters())
    for epoch in range(start_epoch, settings.epochs + 1):
        stats = practices.train_epoch(
            model,
            task,
            train,
            optimizer,
            scheduler,
            settings,
            amp,
            epoch,
            timer if timed else None,
        )
        validation = practices.evaluate(model, task, task.splits["val"], device)
        metrics = epoch_metrics(
            stats, validation, epoch, float(scheduler.get_last_lr()[0]), model_params
        )
        # another project needs the workers: stop at this checkpoint (the run resumes from it)
        yielding = epoch < settings.epochs and checkpoint_due(epoch, settings)
        yielding = yielding and yield_asked(config)
        if yielding:
            metrics[YIELDED_KEY] = 1.0
        report(
            metrics,
            epoch=epoch,
            settings=settings,
            state={
                "model": unwrap(model).state_dict(),
                "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(),
                "grad_scaler": amp.state_dict(),
                "config": dict(config),
            },
            runtime=runtime,
            unsaved=unsaved,
        )
        if yielding:
            return


def train_loop_per_worker(config: dict[str, Any]) -> None:
    """The Ray Train loop of every bundled trainer (Ray Train passes only the config)."""
    train_on(config, RayTrain())


def train_on(config: Mapping[str, Any], runtime: Runtime) -> None:
    """Build the task the config names (seeded, so every rank starts from the same weights),
    then train it on ``runtime``'s workers."""
    settings = TrainSettings.from_config(config)
    distributed.seed_everything(settings.seed)
    task: Task = load_reference(str(config[TASK_KEY]))(dict(config))
    distributed.seed_this_rank(settings.seed)
    train_task(task, config, runtime)
