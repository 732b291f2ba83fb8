"""The training function bench/startup.py runs (imported by the plain script, uploaded to
raysweep as code): one epoch of a tiny DDP model, reporting when each step of its start
happened. Standard library and torch only, so it uploads as one file."""

from __future__ import annotations

import os
import time
from typing import Any


def process_started_at() -> float:
    """This process's start, in epoch seconds, from /proc (Linux)."""
    with open("/proc/self/stat") as stat:
        ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
    with open("/proc/uptime") as uptime:
        up = float(uptime.read().split()[0])
    return time.time() - up + ticks / os.sysconf("SC_CLK_TCK")


def train_loop(config: dict[str, Any]) -> None:
    entered = time.time()
    import ray.train
    import ray.train.torch
    import torch

    model = ray.train.torch.prepare_model(torch.nn.Linear(8, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=float(config.get("lr", 0.1)))
    ready = time.time()
    loss = model(torch.ones(4, 8)).pow(2).mean()
    loss.backward()
    optimizer.step()
    ray.train.report(
        {
            "loss": float(loss),
            "epoch": 1,
            "worker_started": process_started_at(),
            "entered": entered,
            "ready": ready,
            "reported": time.time(),
        }
    )
