"""The scaling practices every bundled trainer gets, in plain torch (no Ray): the config keys a
search space may tune, LR scaling and schedules, gradient accumulation and clipping, and the
epoch and evaluation loops (with ``trainers.performance``'s mixed precision and all-reduce
timing, over ``trainers.distributed``'s ranks and data shards).

Plain torch on purpose: ``bench/amp_gpu.py`` runs these loops with ``torch.distributed`` alone on
machines where Ray is not installed. ``trainers.kit`` adds Ray Train on top.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn

from trainers.distributed import all_reduce_sum, global_batches, shard_indices, world
from trainers.performance import AllReduceTimer, MixedPrecision
from trainers.registry import KIT_CHOICES, LrScaling, LrSchedule, Precision

EVAL_BATCH = 1024

# config keys of the practices below; every bundled trainer accepts them (see KIT_DEFAULTS)
KIT_DEFAULTS: dict[str, Any] = {
    "seed": 0,
    "batch_size": 64,  # global micro-batch: split over the workers
    "batch_size_per_worker": None,  # set instead: the global batch grows with the world size
    "grad_accum_steps": 1,
    "grad_clip_norm": None,
    "precision": "fp32",
    "lr_schedule": "cosine",
    "warmup_epochs": 0.0,
    "lr_step_epochs": None,  # step decay period; default: a third of the epochs
    "lr_step_gamma": 0.1,
    "lr_scaling": "none",
    "lr_reference_batch": None,  # default: the global batch at one worker
    "ddp_bucket_cap_mb": 25.0,
    "gradient_as_bucket_view": True,
    "pin_memory": True,
}


def _choice(config: Mapping[str, Any], key: str) -> Any:
    allowed = KIT_CHOICES[key]
    value = str(config.get(key, KIT_DEFAULTS[key]))
    if value not in allowed:
        raise ValueError(f"{key} must be one of {', '.join(allowed)}; got {value!r}")
    return value


def _optional_int(config: Mapping[str, Any], key: str) -> int | None:
    value = config.get(key)
    return None if value is None else int(value)


def _optional(config: Mapping[str, Any], key: str, kind: Callable[[Any], Any]) -> Any:
    value = config.get(key, KIT_DEFAULTS[key])
    return None if value is None else kind(value)


@dataclass(frozen=True)
class TrainSettings:
    """The kit's keys of a trial config, checked; built once per worker by ``from_config``."""

    epochs: int = 10
    checkpoint_frequency: int = 1
    # the epochs the LR schedule spans: a run trained in segments (promotion ASHA's rungs,
    # PBT's steps, a replayed schedule) ends each at ``epochs`` but schedules over its budget
    lr_schedule_epochs: int | None = None
    seed: int = 0
    batch_size: int = 64
    batch_size_per_worker: int | None = None
    grad_accum_steps: int = 1
    grad_clip_norm: float | None = None
    precision: Precision = "fp32"
    lr_schedule: LrSchedule = "cosine"
    warmup_epochs: float = 0.0
    lr_step_epochs: int | None = None
    lr_step_gamma: float = 0.1
    lr_scaling: LrScaling = "none"
    lr_reference_batch: int | None = None
    ddp_bucket_cap_mb: float = 25.0
    gradient_as_bucket_view: bool = True
    pin_memory: bool = True

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> TrainSettings:
        settings = cls(
            epochs=int(config.get("epochs", 10)),
            checkpoint_frequency=int(config.get("checkpoint_frequency", 1)),
            lr_schedule_epochs=_optional_int(config, "lr_schedule_epochs"),
            seed=int(config.get("seed", KIT_DEFAULTS["seed"])),
            batch_size=int(config.get("batch_size", KIT_DEFAULTS["batch_size"])),
            batch_size_per_worker=_optional(config, "batch_size_per_worker", int),
            grad_accum_steps=int(config.get("grad_accum_steps", 1)),
            grad_clip_norm=_optional(config, "grad_clip_norm", float),
            precision=_choice(config, "precision"),
            lr_schedule=_choice(config, "lr_schedule"),
            warmup_epochs=float(config.get("warmup_epochs", 0.0)),
            lr_step_epochs=_optional(config, "lr_step_epochs", int),
            lr_step_gamma=float(config.get("lr_step_gamma", 0.1)),
            lr_scaling=_choice(config, "lr_scaling"),
            lr_reference_batch=_optional(config, "lr_reference_batch", int),
            ddp_bucket_cap_mb=float(config.get("ddp_bucket_cap_mb", 25.0)),
            gradient_as_bucket_view=bool(config.get("gradient_as_bucket_view", True)),
            pin_memory=bool(config.get("pin_memory", True)),
        )
        settings.check()
        return settings

    def check(self) -> None:
        problems = [
            f"{name} must be >= 1"
            for name, value in (
                ("epochs", self.epochs),
                ("checkpoint_frequency", self.checkpoint_frequency),
                ("batch_size", self.batch_size),
                ("grad_accum_steps", self.grad_accum_steps),
                ("batch_size_per_worker", self.batch_size_per_worker or 1),
                ("lr_step_epochs", self.lr_step_epochs or 1),
                ("lr_reference_batch", self.lr_reference_batch or 1),
            )
            if value < 1
        ]
        if self.grad_clip_norm is not None and self.grad_clip_norm <= 0:
            problems.append("grad_clip_norm must be > 0 (or null for no clipping)")
        if self.warmup_epochs < 0:
            problems.append("warmup_epochs must be >= 0")
        if problems:
            raise ValueError("; ".join(problems))

    def micro_batch(self, world_size: int) -> int:
        """The global batch of one forward/backward pass (all workers together)."""
        if self.batch_size_per_worker is not None:
            return self.batch_size_per_worker * world_size
        return self.batch_size

    def global_batch(self, world_size: int) -> int:
        """Samples per optimizer step: the micro-batch times the accumulation steps."""
        return self.micro_batch(world_size) * self.grad_accum_steps

    def lr(self, base_lr: float, world_size: int) -> float:
        """``base_lr`` scaled for this world size's global batch (see ``scaled_lr``)."""
        reference = self.lr_reference_batch or self.global_batch(1)
        return scaled_lr(base_lr, self.lr_scaling, self.global_batch(world_size), reference)


def scaled_lr(base_lr: float, rule: LrScaling, global_batch: int, reference_batch: int) -> float:
    """The learning rate for ``global_batch`` when ``base_lr`` was right for ``reference_batch``:
    unchanged (none), times the batch ratio (linear, Goyal et al.), or times its square root
    (sqrt, for adaptive optimizers)."""
    ratio = global_batch / reference_batch
    factor = {"none": 1.0, "linear": ratio, "sqrt": math.sqrt(ratio)}[rule]
    return base_lr * factor


def lr_factor(settings: TrainSettings, steps_per_epoch: int) -> Callable[[int], float]:
    """The LR multiplier per optimizer step: linear warmup, then cosine to zero, step decay or
    constant over the remaining steps of ``settings.lr_schedule_epochs`` (default ``epochs``)."""
    epochs = settings.lr_schedule_epochs or settings.epochs
    total = max(epochs * steps_per_epoch, 1)
    warmup = min(round(settings.warmup_epochs * steps_per_epoch), total)
    step_every = (settings.lr_step_epochs or max(epochs // 3, 1)) * steps_per_epoch

    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        if settings.lr_schedule == "cosine":
            progress = (step - warmup) / max(total - warmup, 1)
            return 0.5 * (1.0 + math.cos(math.pi * min(progress, 1.0)))
        if settings.lr_schedule == "step":
            return float(settings.lr_step_gamma ** ((step - warmup) // max(step_every, 1)))
        return 1.0

    return factor


# --- the task a trainer defines ---------------------------------------------------------------


@dataclass(frozen=True)
class Split:
    inputs: torch.Tensor
    targets: torch.Tensor

    def __len__(self) -> int:
        return len(self.targets)

    def to(self, device: torch.device, pin: bool) -> Split:
        """On ``device``; on GPU the host copy is pinned first so batch copies can overlap."""
        if device.type != "cuda":
            return self
        if pin:
            return Split(self.inputs.pin_memory(), self.targets.pin_memory())
        return self


@dataclass
class Task:
    """What a bundled trainer defines; the kit does the rest.

    ``loss`` is the mean training loss of a batch. ``sums`` returns additive statistics of a batch
    (they are summed over batches and ranks, so validation is exact over the whole split) and
    ``metrics`` turns the totals into metrics, without the split's prefix (``loss`` becomes
    ``val_loss``). ``make_optimizer`` gets the parameters and the (scaled) learning rate.
    """

    model: nn.Module
    splits: Mapping[str, Split]  # train, val and test; sweeps never touch test
    loss: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
    sums: Callable[[torch.Tensor, torch.Tensor], dict[str, float]]
    metrics: Callable[[Mapping[str, float]], dict[str, float]]
    base_lr: float
    make_optimizer: Callable[[Any, float], torch.optim.Optimizer]


@dataclass
class EpochStats:
    loss_sum: float = 0.0
    steps: int = 0
    samples: int = 0
    seconds: float = 0.0
    allreduce_wait_s: float = 0.0
    clipped_steps: int = 0
    extras: dict[str, float] = field(default_factory=dict)

    @property
    def mean_loss(self) -> float:
        return self.loss_sum / max(self.steps, 1)


def train_epoch(
    model: nn.Module,
    task: Task,
    train: Split,
    optimizer: torch.optim.Optimizer,
    scheduler: torch.optim.lr_scheduler.LRScheduler,
    settings: TrainSettings,
    amp: MixedPrecision,
    epoch: int,
    timer: AllReduceTimer | None = None,
) -> EpochStats:
    """One epoch of optimizer steps, each over ``grad_accum_steps`` micro-batches.

    The micro-batches of a step are consecutive slices of the epoch's order, so k steps of
    accumulation at batch b see exactly the samples of one batch of k*b. Gradients are only
    all-reduced on the last micro-batch (``no_sync`` before it).
    """
    _, world_size = world()
    device = amp.device
    accum = settings.grad_accum_steps
    micro = settings.micro_batch(world_size)
    sync_cuda = device.type == "cuda" and timer is not None
    stats = EpochStats()
    model.train()
    batches = list(global_batches(len(train), micro, settings.seed, epoch))
    usable = len(batches) - len(batches) % accum
    started = time.perf_counter()
    optimizer.zero_grad(set_to_none=True)
    no_sync = getattr(model, "no_sync", None)  # DDP only
    for index, batch in enumerate(batches[:usable]):
        last_micro = (index + 1) % accum == 0
        context = no_sync() if no_sync is not None and not last_micro else contextlib.nullcontext()
        inputs = train.inputs[batch].to(device, non_blocking=True)
        targets = train.targets[batch].to(device, non_blocking=True)
        with context:
            with amp.autocast():
                loss = task.loss(model(inputs), targets)
            amp.backward(loss / accum)
            if last_micro and timer is not None:
                if sync_cuda:
                    torch.cuda.synchronize(device)
                stats.allreduce_wait_s += max(time.perf_counter() - timer.last_bucket_ready, 0.0)
        stats.loss_sum += float(loss.detach()) / accum
        if not last_micro:
            continue
        if settings.grad_clip_norm is not None:
            amp.unscale(optimizer)
            norm = nn.utils.clip_grad_norm_(model.parameters(), settings.grad_clip_norm)
            stats.clipped_steps += int(float(norm) > settings.grad_clip_norm)
        amp.step(optimizer)
        scheduler.step()
        optimizer.zero_grad(set_to_none=True)
        stats.steps += 1
        stats.samples += micro * accum
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    stats.seconds = time.perf_counter() - started
    return stats


def evaluate(model: nn.Module, task: Task, split: Split, device: torch.device) -> dict[str, float]:
    """The task's metrics over the whole split: each rank scores its shard, sums are reduced."""
    model.eval()
    indices = shard_indices(len(split))
    totals: dict[str, float] = {}
    with torch.no_grad():
        for start in range(0, len(indices), EVAL_BATCH):
            chunk = indices[start : start + EVAL_BATCH]
            outputs = model(split.inputs[chunk].to(device))
            for key, value in task.sums(outputs, split.targets[chunk].to(device)).items():
                totals[key] = totals.get(key, 0.0) + value
    keys = sorted(totals) or ["count"]
    reduced = all_reduce_sum([totals.get(key, 0.0) for key in keys])
    return task.metrics(dict(zip(keys, reduced, strict=True)))


def data_fingerprint(splits: Mapping[str, Split]) -> str:
    """sha256 over every split's inputs and targets: the exact data a model saw and is tested on."""
    digest = hashlib.sha256()
    for name in sorted(splits):
        for tensor in (splits[name].inputs, splits[name].targets):
            digest.update(name.encode())
            digest.update(tensor.contiguous().cpu().numpy().tobytes())
    return digest.hexdigest()


def mlp_layers(
    inputs: int, hidden: int, depth: int, dropout: float, outputs: int
) -> list[nn.Module]:
    """``depth`` hidden layers of Linear, ReLU, Dropout, then the output layer."""
    layers: list[nn.Module] = []
    width = inputs
    for _ in range(depth):
        layers += [nn.Linear(width, hidden), nn.ReLU(), nn.Dropout(dropout)]
        width = hidden
    layers.append(nn.Linear(width, outputs))
    return layers


def task_from_config(
    model: nn.Module,
    splits: Mapping[str, Split],
    loss: Callable[[torch.Tensor, torch.Tensor], torch.Tensor],
    sums: Callable[[torch.Tensor, torch.Tensor], dict[str, float]],
    metrics: Callable[[Mapping[str, float]], dict[str, float]],
    config: Mapping[str, Any],
) -> Task:
    """A Task whose optimizer comes from the config's ``optimizer``, ``lr`` and ``weight_decay``."""
    name, weight_decay = str(config["optimizer"]), float(config["weight_decay"])
    return Task(
        model=model,
        splits=splits,
        loss=loss,
        sums=sums,
        metrics=metrics,
        base_lr=float(config["lr"]),
        make_optimizer=lambda params, lr: build_optimizer(name, params, lr, weight_decay),
    )


def build_optimizer(
    name: str, params: Any, lr: float, weight_decay: float
) -> torch.optim.Optimizer:
    """The optimizers the bundled trainers offer: sgd (momentum 0.9), adam, adamw."""
    if name == "sgd":
        return torch.optim.SGD(params, lr=lr, momentum=0.9, weight_decay=weight_decay)
    if name == "adam":
        return torch.optim.Adam(params, lr=lr, weight_decay=weight_decay)
    if name == "adamw":
        return torch.optim.AdamW(params, lr=lr, weight_decay=weight_decay)
    raise ValueError(f"optimizer must be one of sgd, adam, adamw; got {name!r}")
