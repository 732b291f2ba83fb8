"""What makes a training step fast and what measures it, in plain torch: mixed precision (autocast
with a GradScaler for fp16, GPU only) and the time a step waits for gradient all-reduce."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks

from trainers.registry import Precision

log = logging.getLogger("raysweep.trainer")


# --- mixed precision --------------------------------------------------------------------------


@dataclass
class MixedPrecision:
    """Autocast (bf16 or fp16) with a GradScaler for fp16, on GPU only."""

    precision: Precision
    device: torch.device
    scaler: torch.amp.GradScaler | None = None
    enabled: bool = False
    note: str = ""

    @classmethod
    def for_device(cls, precision: Precision, device: torch.device) -> MixedPrecision:
        if precision == "fp32":
            return cls(precision, device)
        if device.type != "cuda":
            note = (
                f"precision {precision} asked for, but this trial runs on {device.type}: "
                "mixed precision is off (it speeds up GPU tensor cores only); training in fp32"
            )
            log.warning(note)
            return cls("fp32", device, note=note)
        scaler = torch.amp.GradScaler("cuda") if precision == "fp16" else None
        return cls(precision, device, scaler=scaler, enabled=True)

    def autocast(self) -> contextlib.AbstractContextManager[Any]:
        if not self.enabled:
            return contextlib.nullcontext()
        dtype = torch.bfloat16 if self.precision == "bf16" else torch.float16
        return torch.autocast(device_type=self.device.type, dtype=dtype)

    def backward(self, loss: torch.Tensor) -> None:
        (self.scaler.scale(loss) if self.scaler is not None else loss).backward()

    def unscale(self, optimizer: torch.optim.Optimizer) -> None:
        if self.scaler is not None:
            self.scaler.unscale_(optimizer)

    def step(self, optimizer: torch.optim.Optimizer) -> None:
        if self.scaler is None:
            optimizer.step()
            return
        self.scaler.step(optimizer)
        self.scaler.update()

    def state_dict(self) -> dict[str, Any]:
        return self.scaler.state_dict() if self.scaler is not None else {}

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        if self.scaler is not None and state:
            self.scaler.load_state_dict(dict(state))


# --- all-reduce timing ------------------------------------------------------------------------


@dataclass
class AllReduceTimer:
    """A DDP communication hook that notes when each gradient bucket becomes ready.

    When the last bucket is ready the backward computation is over; what ``backward()`` still
    takes after that is time spent waiting for gradient all-reduce (the part not overlapped with
    computation). On GPU the host sees kernel launches, not completions, so the figure there is
    an upper bound.
    """

    last_bucket_ready: float = 0.0

    def hook(self, state: Any, bucket: dist.GradBucket) -> torch.futures.Future[torch.Tensor]:
        self.last_bucket_ready = time.perf_counter()
        return default_hooks.allreduce_hook(state, bucket)

    def attach(self, model: nn.Module) -> bool:
        if not isinstance(model, nn.parallel.DistributedDataParallel):
            return False
        # DDP checks the hook's annotations against dist.GradBucket; ours are strings (PEP 563)
        model.register_comm_hook(state=None, hook=lambda state, bucket: self.hook(state, bucket))
        return True
