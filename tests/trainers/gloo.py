"""The bundled trainers' own training loop (``trainers.kit.train_on``) on plain
``torch.distributed`` processes (gloo), without Ray: for checks of the trainers themselves (the
1-vs-2-worker equivalence, exact resume), which need DDP but not Ray Train's scheduling. One
trainer still runs them on Ray Train (tests/engine/test_trainer.py), so the kit's Ray Train
runtime is exercised too."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import ray.train
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from service.engine.cluster import free_port
from trainers.distributed import world
from trainers.kit import train_on


class GlooRuntime:
    """A run directory instead of Ray Train's storage: rank 0 appends each epoch's metrics to
    ``metrics.jsonl`` and copies each checkpoint to ``epoch_<n>/`` (with its epoch in
    ``metrics.jsonl``'s ``checkpoint`` field)."""

    def __init__(self, run_dir: Path):
        self.run_dir = run_dir

    def latest_checkpoint(self) -> ray.train.Checkpoint | None:
        return None  # each run here starts fresh or from config["resume_from"]

    def report(self, metrics: dict[str, float], checkpoint: ray.train.Checkpoint | None) -> None:
        if world()[0] != 0:
            return
        row: dict[str, Any] = dict(metrics)
        if checkpoint is not None:
            kept = self.run_dir / f"epoch_{int(metrics['epoch'])}"
            shutil.copytree(checkpoint.path, kept)
            row["checkpoint"] = str(kept)
        with (self.run_dir / "metrics.jsonl").open("a") as out:
            out.write(json.dumps(row) + "\n")

    def prepare_model(self, model: torch.nn.Module, ddp: dict[str, Any]) -> torch.nn.Module:
        if world()[1] == 1:
            return model
        return torch.nn.parallel.DistributedDataParallel(model, **ddp)

    def device(self) -> torch.device:
        return torch.device("cpu")


def _worker(rank: int, workers: int, port: int, config: dict[str, Any], run_dir: str) -> None:
    torch.set_num_threads(1)  # as Ray gives each 0.5-CPU worker
    if workers > 1:
        dist.init_process_group(
            "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=workers
        )
    try:
        train_on(config, GlooRuntime(Path(run_dir)))
    finally:
        if workers > 1:
            dist.destroy_process_group()


# the workers fork from one server process that imported torch and the trainers once, where
# spawning each would import them again (~3 CPU-s a process, 15 processes in this directory)
mp.set_forkserver_preload(["torch", "torch.distributed", "trainers.kit", __name__])


def fit(run_dir: Path, workers: int, config: dict[str, Any]) -> list[dict[str, Any]]:
    """Train on ``workers`` fresh processes; rank 0's reported rows, by epoch."""
    run_dir.mkdir(parents=True)
    mp.start_processes(
        _worker,
        args=(workers, free_port(), config, str(run_dir)),
        nprocs=workers,
        start_method="forkserver",
    )
    lines = (run_dir / "metrics.jsonl").read_text().splitlines()
    return sorted((json.loads(line) for line in lines), key=lambda row: row["epoch"])
