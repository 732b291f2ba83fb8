"""Processes and randomness for the bundled trainers, in plain torch: rank and world size, seeding,
the RNG state a checkpoint carries, exact sums over ranks, and each rank's share of the data."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import torch
import torch.distributed as dist


def world() -> tuple[int, int]:
    """(rank, world size); (0, 1) outside a process group."""
    if dist.is_available() and dist.is_initialized():
        return dist.get_rank(), dist.get_world_size()
    return 0, 1


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)


def seed_this_rank(seed: int) -> None:
    """After the model is built from ``seed`` (the same initial weights everywhere): each rank
    draws its own dropout masks, reproducibly."""
    rank, _ = world()
    seed_everything(seed * 1_000_003 + rank + 1)


def rng_state() -> dict[str, Any]:
    state = {
        "python": random.getstate(),
        "numpy": np.random.get_state(),
        "torch": torch.get_rng_state(),
    }
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        state["cuda"] = torch.cuda.get_rng_state()
    return state


def set_rng_state(state: Mapping[str, Any]) -> None:
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state(state["cuda"])


def all_reduce_sum(values: list[float]) -> list[float]:
    """Sum per-rank values over all ranks (exact global metrics, not rank 0's)."""
    tensor = torch.tensor(values, dtype=torch.float64)
    if world()[1] > 1:
        backend_device = "cuda" if dist.get_backend() == "nccl" else "cpu"
        tensor = tensor.to(backend_device)
        dist.all_reduce(tensor, op=dist.ReduceOp.SUM)
    return [float(v) for v in tensor.cpu().tolist()]


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
