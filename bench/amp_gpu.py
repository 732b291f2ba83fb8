"""Mixed precision on vs off for digits_cnn, with plain torch.distributed (no Ray: the GPU
machines lent for benchmarks do not have it).

Spawns one process per GPU (NCCL; gloo on CPU), trains a wider digits_cnn through the kit's
epoch loop (trainers/practices.py: the same autocast, GradScaler, DDP bucket settings, pinned
memory and all-reduce timer the Ray trainers use) and prints the median step time per
precision and its speedup over fp32. Without a GPU it says so and measures fp32 only (the kit
turns mixed precision off on CPU).

    python bench/amp_gpu.py [--epochs 5] [--batch-size 1024] [--channels 64] [--workers N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainers import digits_cnn, distributed, performance, practices
from trainers.registry import TRAINERS


def train(rank: int, world_size: int, args: argparse.Namespace, port: int, out: Any) -> None:
    cuda = torch.cuda.is_available()
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("nccl" if cuda else "gloo", rank=rank, world_size=world_size)
    device = torch.device("cuda", rank) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(device)
    results: dict[str, float] = {}
    for precision in ("fp32", "bf16", "fp16") if cuda else ("fp32",):
        config = {
            **TRAINERS["digits_cnn"].defaults,
            "channels": args.channels,
            "hidden": 4 * args.channels,
            "batch_size": args.batch_size,
            "precision": precision,
            "epochs": args.epochs,
        }
        settings = practices.TrainSettings.from_config(config)
        distributed.seed_everything(0)
        task = digits_cnn.build_task(config)
        model = task.model.to(device)
        if world_size > 1:
            model = torch.nn.parallel.DistributedDataParallel(
                model,
                device_ids=[rank] if cuda else None,
                bucket_cap_mb=settings.ddp_bucket_cap_mb,
                gradient_as_bucket_view=settings.gradient_as_bucket_view,
            )
        amp = performance.MixedPrecision.for_device(settings.precision, device)
        train_split = task.splits["train"].to(device, settings.pin_memory)
        optimizer = task.make_optimizer(model.parameters(), task.base_lr)
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0)
        step_ms = []
        for epoch in range(1, args.epochs + 1):
            stats = practices.train_epoch(
                model, task, train_split, optimizer, scheduler, settings, amp, epoch
            )
            if epoch > 1:  # the first epoch compiles kernels and warms caches
                step_ms.append(1000 * stats.seconds / max(stats.steps, 1))
        results[precision] = statistics.median(step_ms)
    if rank == 0:
        out.put(results)
    dist.destroy_process_group()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--channels", type=int, default=64)
    parser.add_argument("--workers", type=int, default=max(torch.cuda.device_count(), 1))
    args = parser.parse_args()
    device = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "CPU (no GPU)"
    context = mp.get_context("spawn")
    queue = context.SimpleQueue()
    port = 29500 + os.getpid() % 1000
    mp.spawn(train, args=(args.workers, args, port, queue), nprocs=args.workers, join=True)
    results = queue.get()
    print(f"\ndigits_cnn (channels {args.channels}, global batch {args.batch_size}), "
          f"{args.workers} worker(s) on {device}, torch {torch.__version__}")  # fmt: skip
    print(f"{'precision':>10} {'ms/step':>9} {'speedup vs fp32':>16}")
    for precision, ms in results.items():
        print(f"{precision:>10} {ms:>9.2f} {results['fp32'] / ms:>16.2f}")
    if not torch.cuda.is_available():
        print("no GPU here: mixed precision is GPU-only in the kit, so only fp32 was measured")


if __name__ == "__main__":
    main()
