"""Mixed precision on vs off for digits_cnn, with plain torch.distributed (no Ray): the
baseline a Ray Train trial's throughput is compared with (bench/gpu_proof.py).

Spawns ``--workers`` processes (default: one per GPU; more than the GPUs share them, as trials
with fractional ``gpus_per_worker`` do), on the backend the service picks
(``trainers.process_group.process_group_backend``: NCCL, or gloo where workers share a GPU since
NCCL refuses that), trains a wider digits_cnn through the kit's epoch loop
(trainers/practices.py: the same autocast, GradScaler, DDP bucket settings, pinned memory and
all-reduce timer the Ray trainers use) and prints per precision the median step time, samples
per second, the all-reduce share and the speedup over fp32. Without a GPU it says so and
measures fp32 only (the kit turns mixed precision off on CPU).

    python bench/amp_gpu.py [--epochs 5] [--batch-size 1024] [--channels 64] [--workers N]
                            [--backend nccl|gloo] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainers import digits_cnn, distributed, performance, practices, process_group
from trainers.registry import TRAINERS


def train(rank: int, world_size: int, args: argparse.Namespace, port: int, out: Any) -> None:
    cuda = torch.cuda.is_available()
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group(backend_of(args), rank=rank, world_size=world_size)
    device = torch.device("cuda", rank % torch.cuda.device_count()) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(device)
    results: dict[str, dict[str, float]] = {}
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
                device_ids=[device] if cuda else None,
                bucket_cap_mb=settings.ddp_bucket_cap_mb,
                gradient_as_bucket_view=settings.gradient_as_bucket_view,
            )
        amp = performance.MixedPrecision.for_device(settings.precision, device)
        train_split = task.splits["train"].to(device, settings.pin_memory)
        optimizer = task.make_optimizer(model.parameters(), task.base_lr)
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0)
        timer = performance.AllReduceTimer()
        timed = timer.attach(model)
        step_ms, samples_per_s, shares = [], [], []
        for epoch in range(1, args.epochs + 1):
            stats = practices.train_epoch(
                model, task, train_split, optimizer, scheduler, settings, amp, epoch,
                timer if timed else None,
            )  # fmt: skip
            if epoch > 1:  # the first epoch compiles kernels and warms caches
                step_ms.append(1000 * stats.seconds / max(stats.steps, 1))
                # stats.samples counts the global batches (every rank's share together)
                samples_per_s.append(stats.samples / max(stats.seconds, 1e-9))
                shares.append(stats.allreduce_wait_s / max(stats.seconds, 1e-9))
        results[precision] = {
            "ms_per_step": statistics.median(step_ms),
            "samples_per_second": statistics.median(samples_per_s),
            "allreduce_share": statistics.median(shares) if timed else 0.0,
        }
    if rank == 0:
        out.put(results)
    dist.destroy_process_group()


def backend_of(args: argparse.Namespace) -> str:
    if args.backend:
        return str(args.backend)
    gpus = torch.cuda.device_count()
    share = min(gpus / args.workers, 1.0) if gpus else 0.0
    return process_group.process_group_backend(gpus > 0, share, args.workers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--channels", type=int, default=64)
    parser.add_argument("--workers", type=int, default=max(torch.cuda.device_count(), 1))
    parser.add_argument("--backend", choices=("nccl", "gloo"), help="default: as the service")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    device = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "CPU (no GPU)"
    context = mp.get_context("spawn")
    queue = context.SimpleQueue()
    port = 29500 + os.getpid() % 1000
    mp.spawn(train, args=(args.workers, args, port, queue), nprocs=args.workers, join=True)
    results = queue.get()
    print(f"\ndigits_cnn (channels {args.channels}, global batch {args.batch_size}), "
          f"{args.workers} worker(s) on {device} ({backend_of(args)}), "
          f"torch {torch.__version__}")  # fmt: skip
    print(f"{'precision':>10} {'ms/step':>9} {'samples/s':>10} {'all-reduce':>10} {'vs fp32':>8}")
    fp32 = results["fp32"]["ms_per_step"]
    for precision, row in results.items():
        print(f"{precision:>10} {row['ms_per_step']:>9.2f} {row['samples_per_second']:>10.0f} "
              f"{row['allreduce_share']:>10.1%} {fp32 / row['ms_per_step']:>8.2f}")  # fmt: skip
    if args.json:
        figures = {"device": device, "workers": args.workers, "backend": backend_of(args)}
        args.json.write_text(json.dumps({**figures, "precisions": results}))
    if not torch.cuda.is_available():
        print("no GPU here: mixed precision is GPU-only in the kit, so only fp32 was measured")


if __name__ == "__main__":
    main()
