"""Which torch.distributed backend a group of workers uses: a module of its own, without torch,
because the processes that choose it (a trial's actor, a final run's driver) never touch a tensor
and importing torch costs them seconds of CPU."""

from __future__ import annotations


def process_group_backend(use_gpu: bool, gpus_per_worker: float, max_workers: int) -> str:
    """torch.distributed's backend for a group of workers: NCCL on GPUs, gloo on CPUs, and gloo
    also where workers given a fraction of a GPU each may share one: NCCL refuses two ranks on
    one device ("Duplicate GPU detected", NVIDIA/nccl#418), while gloo all-reduces CUDA tensors
    through host memory. ``gpus_per_worker`` 0 with ``use_gpu`` is one GPU each, as the spec's
    resources say."""
    if not use_gpu or ((gpus_per_worker or 1.0) < 1 and max_workers > 1):
        return "gloo"
    return "nccl"
