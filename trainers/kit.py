"""The helper kit every trainer shares: seeding, sharding, exact validation, checkpoints.

Trainers call these from ``train_loop_per_worker``; they work with one worker or many (DDP).
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import ray.train
import torch
import torch.distributed as dist

STATE_FILE = "state.pt"


@dataclass(frozen=True)
class RunSettings:
    """What the trial hands to every trainer next to the hyperparameters."""

    epochs: int
    checkpoint_frequency: int
    seed: int

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> RunSettings:
        return cls(
            epochs=int(config.get("epochs", 10)),
            checkpoint_frequency=int(config.get("checkpoint_frequency", 1)),
            seed=int(config.get("seed", 0)),
        )


def world() -> tuple[int, int]:
    """(rank, world size); (0, 1) outside a process group."""
    if dist.is_available() and dist.is_initialized():
        return dist.get_rank(), dist.get_world_size()
    return 0, 1


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)


def global_batches(
    num_samples: int, batch_size: int, seed: int, epoch: int
) -> Iterator[torch.Tensor]:
    """This rank's share of each global batch of one epoch.

    The order depends only on (seed, epoch), and each global batch is split across ranks, so one
    worker and W workers see the same global batches: DDP's gradient average then equals the
    single-worker gradient, and a resumed epoch sees the same order as an uninterrupted one.
    Incomplete last batches are dropped so every rank always has the same number of steps.
    """
    rank, size = world()
    generator = torch.Generator().manual_seed(seed * 100_003 + epoch)
    order = torch.randperm(num_samples, generator=generator)
    for start in range(0, num_samples - batch_size + 1, batch_size):
        yield order[start : start + batch_size][rank::size]


def shard_indices(num_samples: int) -> torch.Tensor:
    rank, size = world()
    return torch.arange(num_samples)[rank::size]


def all_reduce_sum(values: list[float]) -> list[float]:
    """Sum per-rank values over all ranks (exact global validation metrics, not rank 0's)."""
    tensor = torch.tensor(values, dtype=torch.float64)
    if world()[1] > 1:
        dist.all_reduce(tensor, op=dist.ReduceOp.SUM)
    return tensor.tolist()


def all_gather(obj: Any) -> list[Any]:
    if world()[1] == 1:
        return [obj]
    gathered: list[Any] = [None] * world()[1]
    dist.all_gather_object(gathered, obj)
    return gathered


def rng_state() -> dict[str, Any]:
    return {
        "python": random.getstate(),
        "numpy": np.random.get_state(),
        "torch": torch.get_rng_state(),
    }


def set_rng_state(state: Mapping[str, Any]) -> None:
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])


def unwrap(model: torch.nn.Module) -> torch.nn.Module:
    return model.module if isinstance(model, torch.nn.parallel.DistributedDataParallel) else model


def load_checkpoint(config: Mapping[str, Any]) -> dict[str, Any] | None:
    """The state saved by ``report`` in the run's latest checkpoint; else the checkpoint named by
    ``config["resume_from"]`` (a warm start, Train V2's replacement for resume_from_checkpoint);
    else None. Restores this rank's RNG state."""
    checkpoint = ray.train.get_checkpoint()
    if checkpoint is None and config.get("resume_from"):
        checkpoint = ray.train.Checkpoint(str(config["resume_from"]))
    if checkpoint is None:
        return None
    with checkpoint.as_directory() as directory:
        state: dict[str, Any] = torch.load(Path(directory) / STATE_FILE, weights_only=False)
    rank, _ = world()
    rng_states = state.get("rng_states", [])
    if rank < len(rng_states):
        set_rng_state(rng_states[rank])
    return state


def report(
    metrics: dict[str, float],
    *,
    epoch: int,
    settings: RunSettings,
    state: dict[str, Any],
) -> None:
    """Report one epoch's metrics; every ``checkpoint_frequency`` epochs (and at the last epoch)
    attach a checkpoint with ``state`` plus every rank's RNG state.

    Every rank must call this (Train V2 collects a report from each worker).
    """
    due = epoch % settings.checkpoint_frequency == 0 or epoch == settings.epochs
    rng_states = all_gather(rng_state()) if due else []
    rank, _ = world()
    if not due or rank != 0:
        ray.train.report(metrics, checkpoint=None)
        return
    with tempfile.TemporaryDirectory() as directory:
        torch.save(
            {**state, "epoch": epoch, "rng_states": rng_states}, Path(directory) / STATE_FILE
        )
        ray.train.report(metrics, checkpoint=ray.train.Checkpoint.from_directory(directory))


class EpochTimer:
    """Wall time of an epoch's training steps, for samples/s."""

    def __enter__(self) -> EpochTimer:
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self.start
